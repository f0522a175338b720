"""What a reader can read off a drawing: the drawn data's shapes, measures, features, trends,
hedges, value read-outs and the names of lines."""

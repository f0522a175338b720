"""A record to its reference descriptions at Levels 1-3 and its alt text (above the kinds)."""

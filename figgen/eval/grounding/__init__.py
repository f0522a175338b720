"""Where an answer points: box geometry, coordinates in replies, the evidence regions of an
item, and the grounding (mDIoU) and pointing (Chamfer) scores, for figures and chart sets."""

"""Level 1-3 question/answer items derived from figure records."""

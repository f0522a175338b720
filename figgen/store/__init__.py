"""Where figgen writes: atomic files, build folders and the one-writer lock."""

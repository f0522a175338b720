"""Word and formula lists from arXiv text, shipped as package data, and the code that builds them."""

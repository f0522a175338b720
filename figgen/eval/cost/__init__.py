"""What calls cost: the dated price table, token rules for images, usage values and prompt
caching."""

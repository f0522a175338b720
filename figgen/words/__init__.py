"""English shared by questions, descriptions and reports: plurals and lists, numerals, text
read aloud, maths in words, colour and colormap names. No records, no kinds."""

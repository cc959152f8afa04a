"""The core: where a text may be cut (boundaries, sentence rules), how big a span is
(measures), its structure (sections, atoms), context headers, and the packer that searches
for each chunk's end. It imports nothing from the layers around it."""

"""Finding what was remembered: token counting, the search index, the context loader's budget."""

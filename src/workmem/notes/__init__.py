"""Session notes (seed 003): a ten-section running summary kept by an extractor, gated."""

"""Long-term memory: typed memory files, MEMORY.md and its tiers, maintenance, curation."""

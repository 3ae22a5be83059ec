"""The session wrap-up of seed 000: gather, save typed memories, maintain, index, confirm."""

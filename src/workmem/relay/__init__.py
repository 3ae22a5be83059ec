"""Session relay (seed 002): context pressure, handoff snapshots, inheritance, restore."""

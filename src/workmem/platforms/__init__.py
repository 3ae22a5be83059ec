"""Agent platforms: which one is running, and what each expects of us."""

"""Working memory over time (seed 004): daily logs, events, threads, resumption, state."""

"""Continuity: what a session saves so that the next one, or the same one after a
compaction, picks the work up where it was; and the benchmark that measures it on real
recorded sessions."""

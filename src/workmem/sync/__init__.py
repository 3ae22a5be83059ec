"""Memory on more than one machine: git merge drivers, ``workmem sync``, cloud conflict copies.

Every memory file is merged the way its writer writes it (DESIGN.md principle 9): the board
by row, snapshots and notes by section and item, daily logs by entry, the JSON files by
event and by key, MEMORY.md and threads by tier, thread and item. The same merge functions
serve git (three-way, with the common ancestor) and cloud folders (two-way, no ancestor).
Nothing here runs on a hook's hot path except the cheap conflict-copy notice.
"""

"""The file core: safe writes, locks, and the markdown structures every workflow edits."""

"""Before ``workmem sync`` merges: IDs this clone and the remote both issued, made apart.

A merge of one file cannot move another file, so a session both sides created under one ID
(two snapshots ``sessions/X.md``) would have its two snapshots merged into one. ``workmem
sync`` sees every file of both sides first: for each session or event ID both added since
they parted (the merge base lacks it) with different content, this clone's gives way
(``identity``: the remote's is already pushed, and the other machine's next merge must find
its own rows unchanged). The rename is made in the memory root itself (``rename``), then
committed; the merge that follows sees two sessions and keeps both.

A plain ``git merge`` decides the same way from the same commits (``driver_ids``), so every
merge driver of that merge renames the same sessions.
"""

from __future__ import annotations

from typing import Protocol

from .gitrepo import GitResult
from .identity import collisions, renames


class MemoryTree(Protocol):
    """Commits holding a memory (at ``prefix`` inside them): the sync work tree, or a
    project whose branches carry memory files."""

    prefix: str

    def git(self, *args: str, check: bool = True) -> GitResult: ...

    def content_at(self, rev: str, rel: str) -> bytes | None: ...

    def rev(self, ref: str) -> str | None: ...


BOARD = "memory/index.md"
EVENTS = "memory/events.json"


def _text(tree: MemoryTree, rev: str | None, rel: str) -> str:
    if rev is None:
        return ""
    data = tree.content_at(rev, tree.prefix + rel)
    return data.decode("utf-8", "replace") if data else ""


def _blobs(tree: MemoryTree, rev: str | None) -> dict[str, str]:
    """Object IDs of the files named after sessions at ``rev``, by path."""
    if rev is None:
        return {}
    folders = (f"{tree.prefix}memory/sessions", f"{tree.prefix}memory/archive")
    listing = tree.git("ls-tree", "-r", "-z", rev, "--", *folders, check=False).out
    found = {}
    for entry in listing.split("\0"):
        meta, _, path = entry.partition("\t")
        parts = meta.split()
        if path.startswith(tree.prefix) and len(parts) == 3:
            found[path.removeprefix(tree.prefix)] = parts[2]
    return found


def _sessions(tree: MemoryTree, rev: str | None) -> dict[str, str]:
    """Every session ID at ``rev`` with a fingerprint of what it holds (its row and files)."""
    from ..board.model import COLUMNS
    from .room import board_rows

    found: dict[str, list[str]] = {}
    for key, line in board_rows(_text(tree, rev, BOARD)).items():
        if key != COLUMNS[0] and not set(key) <= set("-:"):
            found.setdefault(key, []).append(line)
    for path, blob in sorted(_blobs(tree, rev).items()):
        parts = path.split("/")
        if parts[1] == "sessions" and len(parts) == 3:
            name = parts[2].removesuffix(".md").removesuffix(".notes")
        elif parts[1] == "archive" and len(parts) >= 4:
            name = parts[2]
        else:
            continue
        found.setdefault(name, []).append(f"{path}={blob}")
    return {key: "\n".join(values) for key, values in found.items()}


def _distinct_topics(tree: MemoryTree, head: str | None, theirs: str) -> list[str]:
    from ..errors import FormatError
    from .merge_tables import parse_board
    from .room import two_sessions

    try:
        ours_board = parse_board(_text(tree, head, BOARD), BOARD)
        theirs_board = parse_board(_text(tree, theirs, BOARD), BOARD)
    except FormatError:
        return []
    topic = ours_board.column("Topic")
    other = {row.key: row.values for row in theirs_board.rows}
    return [
        row.key
        for row in ours_board.rows
        if row.key in other and two_sessions(row.values[topic], other[row.key][topic])
    ]


def _events(tree: MemoryTree, rev: str | None) -> dict[str, object]:
    from ..errors import FormatError
    from .merge_json import event_pairs

    text = _text(tree, rev, EVENTS)
    try:
        return dict(event_pairs(text, EVENTS)) if text.strip() else {}
    except FormatError:
        return {}


def colliding(tree: MemoryTree, theirs: str, issued: set[str]) -> dict[str, str]:
    """New IDs for this clone's sessions and events that the remote also issued.

    ``issued`` is every session ID this memory root handed out (``board.issued``): at a
    clone's first merge nothing of it was ever pushed, so a session of its own that the
    remote holds too (with other content) can only be the remote's own, issued again.
    """
    from .merge_json import same_event

    parted = tree.git("merge-base", "HEAD", theirs, check=False)
    base = parted.out.strip() if parted.ok and parted.out.strip() else None
    head = tree.rev("HEAD")
    b, o, t = _sessions(tree, base), _sessions(tree, head), _sessions(tree, theirs)
    taken = set(b) | set(o) | set(t)
    if base is not None:
        found = collisions(b, o, t)
    else:  # the first merge of a clone: what it issued itself, or two real topics
        found = [k for k in collisions(None, o, t) if k in issued]
        found += [k for k in _distinct_topics(tree, head, theirs) if k not in found]
    mapping = renames(found, taken)
    eb, eo, et = _events(tree, base), _events(tree, head), _events(tree, theirs)
    same = {k for k in set(eo) & set(et) if same_event(eo[k], et[k])}
    event_base = {k: "" for k in eb} if base is not None else None
    clashing = [k for k in collisions(event_base, _canon(eo), _canon(et)) if k not in same]
    mapping.update(renames(clashing, set(eb) | set(eo) | set(et), events=True))
    return mapping


def _canon(events: dict[str, object]) -> dict[str, str]:
    import json

    return {k: json.dumps(v, sort_keys=True, ensure_ascii=False) for k, v in events.items()}

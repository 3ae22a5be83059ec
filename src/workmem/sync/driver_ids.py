"""The merge drivers of one plain ``git merge`` agree on the IDs they rename.

git runs one driver per file, in an order of its own. When both branches created a session
(or an event) under one ID, the board, the snapshot, the notes, the daily logs and the
ledger are different files, merged by different driver runs. So every run decides from the
same facts, the two commits being merged and their merge base, with the same rule as
``workmem sync`` (``pre_merge.colliding``): this branch's ID gives way. The first run of a
merge works it out and keeps it (``<git dir>/workmem/merge-renames.json``, keyed by the two
commits); the others read it.

The commit merged in is the one git names in ``GITHEAD_<sha>`` for its drivers; this
branch's is read from git's files. Where git does not say (another merge command), a
driver falls back to what its own file shows (``room``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .gitrepo import GitResult, git, git_bytes

RECORD = "merge-renames.json"


class _Project:
    """The project's commits, seen as a memory at ``prefix`` inside them."""

    def __init__(self, top: Path, prefix: str, ours: str) -> None:
        self.top = top
        self.prefix = prefix
        self.ours = ours

    def git(self, *args: str, check: bool = True) -> GitResult:
        return git(self.top, *args, check=check)

    def content_at(self, rev: str, rel: str) -> bytes | None:
        return git_bytes(self.top, "cat-file", "blob", f"{rev}:{rel}")

    def rev(self, ref: str) -> str | None:
        return self.ours if ref == "HEAD" else None


def _head(git_dir: Path, common: Path) -> str | None:
    """The commit HEAD names (the branch being merged into), from git's files."""
    try:
        head = (git_dir / "HEAD").read_text("utf-8").strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head or None
    ref = head.removeprefix("ref:").strip()
    for folder in (git_dir, common):
        try:
            return (folder / ref).read_text("utf-8").strip() or None
        except OSError:
            continue
    try:
        packed = (common / "packed-refs").read_text("utf-8")
    except OSError:
        return None
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name == ref:
            return sha
    return None


def _theirs() -> str | None:
    named = [key.removeprefix("GITHEAD_") for key in os.environ if key.startswith("GITHEAD_")]
    return named[0] if len(named) == 1 else None


def memory_prefix(shown: str) -> str:
    """Where the memory root is in the repository, from a memory file's path."""
    import re

    if shown == "MEMORY.md" or shown.endswith("/MEMORY.md"):
        return shown.removesuffix("MEMORY.md")
    found = re.match(r"^((?:[^/]+/)*?)memory/", shown)
    return found.group(1) if found else ""


def decide(shown: str) -> dict[str, str] | None:
    """Old ID -> new ID for this merge (empty: nothing collides); None when git does not
    say which commit is merged in."""
    from ..gitcheckout import find_checkout
    from .pre_merge import colliding

    theirs = _theirs()
    found = find_checkout(Path.cwd())
    if theirs is None or found is None:
        return None
    ours = _head(found.git_dir, found.common_dir)
    if ours is None:
        return None
    prefix = memory_prefix(shown)
    key = f"{ours}:{theirs}:{prefix}"
    path = found.git_dir / "workmem" / RECORD
    try:
        kept = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        kept = {}
    if isinstance(kept, dict) and isinstance(kept.get(key), dict):
        return {str(k): str(v) for k, v in kept[key].items()}
    mapping = colliding(_Project(found.top, prefix, ours), theirs, set())
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{RECORD}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps({key: mapping}), "utf-8")
    temporary.replace(path)
    return mapping


def session_file(shown: str, mapping: dict[str, str]) -> tuple[str, str] | None:
    """(old ID, the file's path under the new ID) when ``shown`` is a snapshot or notes file
    of a renamed session."""
    folder, _, name = shown.rpartition("/")
    if not folder.endswith("memory/sessions"):
        return None
    suffix = ".notes.md" if name.endswith(".notes.md") else ".md"
    session = name.removesuffix(suffix)
    if session not in mapping:
        return None
    return session, f"{folder}/{mapping[session]}{suffix}"

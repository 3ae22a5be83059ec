"""The HEARTBEAT.md line (seed 002, Phase 4).

In the hot zone a line goes into the workspace's HEARTBEAT.md, so that if the session
dies the next periodic heartbeat notices a snapshot is waiting; a successful restore
removes it. Only that exact line is ever added or removed: whatever else a person keeps
in HEARTBEAT.md is left byte for byte. A file the relay created and emptied again is
deleted, so HEARTBEAT.md exists only while it has something to say.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from ..errors import WriteError
from ..files.store import Store

HEARTBEAT_LINE = (
    "# [AUTO] Session relay: context high, snapshot saved. Remove this line after reviewing."
)


def heartbeat_path(store: Store) -> Path:
    return store.workspace.root / "HEARTBEAT.md"


def has_line(store: Store) -> bool:
    current = store.read_text(heartbeat_path(store))
    return current is not None and HEARTBEAT_LINE in current[0].split("\n")


def add_line(store: Store) -> bool:
    """Add the line unless it is there; True when the file changed."""
    path = heartbeat_path(store)

    def change(old: str | None) -> str:
        text = old or ""
        if HEARTBEAT_LINE in text.split("\n"):
            return text
        if text and not text.endswith("\n"):
            text += "\n"
        return text + HEARTBEAT_LINE + "\n"

    def verify(text: str) -> None:
        if HEARTBEAT_LINE not in text.split("\n"):
            raise WriteError(f"{store.show(path)}: the relay line is missing after writing")

    return store.update(path, change, verify=verify).changed


def remove_line(store: Store) -> bool:
    """Remove the line wherever it is; True when it was there."""
    path = heartbeat_path(store)
    with store.lock(path):
        current = store.read_text(path)
        if current is None or HEARTBEAT_LINE not in current[0].split("\n"):
            return False
        kept = [line for line in current[0].split("\n") if line != HEARTBEAT_LINE]
        remaining = "\n".join(kept)
        if not remaining.strip():
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            if path.exists():
                raise WriteError(f"{store.show(path)}: could not remove the emptied file")
            return True
        store.update(path, lambda _old: remaining)
        if has_line(store):
            raise WriteError(f"{store.show(path)}: the relay line is still there after writing")
        return True

"""Archiving the relay snapshot (seed 002): ``memory/relay-archive/YYYY-MM-DD-HHMMSS.md``.

When a snapshot has been consumed by a restore, or the user starts fresh, it moves (never
copies, never deletes) into the archive under the time of the move; two archives in the
same second get ``-2``, ``-3`` … so nothing is ever overwritten.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..files.store import Store


def snapshot_path(store: Store) -> Path:
    return store.workspace.memory_dir / "relay-snapshot.md"


def archive_dir(store: Store) -> Path:
    return store.workspace.memory_dir / "relay-archive"


def archive_snapshot(store: Store, now: datetime) -> Path | None:
    """Move the snapshot into the archive; ``None`` when there is no snapshot."""
    source = snapshot_path(store)
    with store.lock(source):
        if not source.is_file():
            return None
        stem = now.strftime("%Y-%m-%d-%H%M%S")
        target = archive_dir(store) / f"{stem}.md"
        counter = 2
        while target.exists():
            target = archive_dir(store) / f"{stem}-{counter}.md"
            counter += 1
        store.move(source, target)
        return target

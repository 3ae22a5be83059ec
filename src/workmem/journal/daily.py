"""Daily logs ``memory/YYYY-MM-DD.md``: canonical, flat, append-only (OpenClaw-compatible).

Several workflows add to the day's log (relay saves, session ends, wrap-ups); each append
re-reads the latest file under its lock and only adds at the end, so entries written by
parallel agents all survive.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ..errors import WriteError
from ..files.store import Store
from ..root import Workspace


def daily_log_path(workspace: Workspace, day: date) -> Path:
    return workspace.memory_dir / f"{day:%Y-%m-%d}.md"


def append_entry(store: Store, day: date, heading: str, body: str) -> Path:
    """Append ``### heading`` and ``body`` to the day's log, creating it with a title."""
    path = daily_log_path(store.workspace, day)
    entry = f"### {heading.strip()}\n\n{body.strip()}\n"

    def add(current: str | None) -> str:
        base = current if current is not None else f"# {day:%Y-%m-%d}\n"
        if not base.endswith("\n"):
            base += "\n"
        return f"{base}\n{entry}"

    def verify(text: str) -> None:
        if not text.endswith(entry):
            raise WriteError(f"{store.show(path)}: the new entry is not at the end after writing")

    store.update(path, add, verify=verify)
    return path

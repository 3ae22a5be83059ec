"""Renaming IDs throughout a memory root, so a session or event keeps everything it owns.

When this side of a merge gives way (``identity``), its session ``X`` becomes ``X-2`` in
every file at once: the board row and every Referenced By, the snapshot and notes files
(``sessions/X.md`` -> ``sessions/X-2.md``), the archive folder, every mention in daily
logs, snapshots, the resumption note and ``state.json``; an event ``evt-00012`` likewise in
the ledger, the daily-log entries that list it and the notes still open in ``state.json``.
The hooks' map from a platform's session to its memory session follows too, so the agent's
next save lands on the renamed session, and the new IDs are recorded as issued.

All of it happens under the board's lock (snapshots are only written under it), each file
through ``Store.update`` (locked, re-read, verified), so agents may keep writing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..files.store import Store
from .identity import rewrite


@dataclass
class RenameReport:
    changed: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)


def _moves(store: Store, mapping: dict[str, str]) -> list[tuple[Path, Path]]:
    """(old, new) paths of the files named after a renamed session."""
    workspace = store.workspace
    moves: list[tuple[Path, Path]] = []
    for old, new in mapping.items():
        if not old.startswith("evt-"):
            for suffix in (".md", ".notes.md"):
                moves.append(
                    (
                        workspace.sessions_dir / f"{old}{suffix}",
                        workspace.sessions_dir / f"{new}{suffix}",
                    )
                )
            folder = workspace.archived_session_dir(old)
            if folder.is_dir() and not folder.is_symlink():
                target = workspace.archived_session_dir(new)
                for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                    moves.append((path, target / path.relative_to(folder)))
    return [(a, b) for a, b in moves if a.is_file() and not a.is_symlink()]


def rename_in_root(store: Store, mapping: dict[str, str]) -> RenameReport:
    """Rename every ID of ``mapping`` in the memory root of ``store``; what changed."""
    from .tree import memory_files

    report = RenameReport()
    if not mapping:
        return report
    workspace = store.workspace
    root = workspace.root

    def change(current: str | None) -> str:
        return rewrite(current or "", mapping)

    with store.lock(workspace.board_file):
        _local_state(store, mapping)
        for source, target in _moves(store, mapping):
            if target.exists():
                continue  # never over a file of the new name (cannot happen: IDs are free)
            store.move(source, target)
            report.moved.append((store.show(source), store.show(target)))
        for old in mapping:
            folder = workspace.archived_session_dir(old)
            if folder.is_dir() and not folder.is_symlink() and not any(folder.rglob("*.*")):
                _remove_empty(folder)
        for rel, path in sorted(memory_files(root).items()):
            data = store.read_bytes(path)
            if data is None or not any(old.encode() in data for old in mapping):
                continue
            result = store.update(path, change)
            if result.changed:
                report.changed.append(rel)
    return report


def _remove_empty(folder: Path) -> None:
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
        sub.rmdir()
    folder.rmdir()


def _local_state(store: Store, mapping: dict[str, str]) -> None:
    """The platform-session map and other small JSON of ``memory/.workmem/``, and the
    record of issued IDs (the new IDs are issued now)."""
    from ..board.issued import record_issued

    state = store.workspace.state_dir
    if not state.is_dir():
        return
    for path in sorted(state.glob("*.json")):
        data = store.read_derived(path)
        if data is None or not any(old.encode() in data for old in mapping):
            continue
        store.update(path, lambda current: rewrite(current or "", mapping))
    notes = state / "notes"
    for old, new in mapping.items():
        gate = notes / f"{old}.json"
        if gate.is_file() and not (notes / f"{new}.json").exists():
            store.move(gate, notes / f"{new}.json")
        if not old.startswith("evt-"):
            record_issued(store, new)

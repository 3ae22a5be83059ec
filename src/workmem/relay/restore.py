"""Phases 0 and 3 of seed 002: inherit the last sessions' tails, restore them with the snapshot.

A new session's start hook runs these on every start, so they live apart from the
monitoring and saving of Phases 1 and 2 (``workflows``, which re-exports them): the hook
compiles this half only. Inheritance never blocks a start: an unreadable transcript is a
note, and a corrupt or empty snapshot counts as no snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import WorkmemError
from ..files.store import Store
from .archive import archive_snapshot, snapshot_path
from .template import TITLE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..root import Workspace
    from .inherit import Inheritance


def relay_store(workspace: Workspace) -> Store:
    """The workspace's store with the configured lock timeout (``[board] lock_timeout``)."""
    from ..config import load_settings

    return Store(workspace, lock_timeout=load_settings(workspace).board.lock_timeout)


def read_snapshot(workspace: Workspace) -> str | None:
    """The saved snapshot, or ``None`` when missing, empty or not a snapshot (seed: corrupt
    or empty is treated as no snapshot)."""
    store = relay_store(workspace)
    try:
        current = store.read_text(snapshot_path(store))
    except WorkmemError:
        return None
    if current is None or not current[0].strip().startswith(TITLE):
        return None
    return current[0]


def carry_forward(snapshot_text: str | None, inheritance: Inheritance) -> list[str]:
    """Active work, decisions and pending items, from the snapshot, else from the tails."""
    active = ""
    decisions: list[str] = []
    pending: list[str] = []
    if snapshot_text:
        from ..files.sections import Document
        from .template import section_key

        for section in Document.parse(snapshot_text).sections:
            key = section_key(section.title)
            if key == "in_progress":
                active = next((ln.strip() for ln in section.body if ln.strip()), "")
            elif key == "decisions":
                decisions = [i for i in section.items() if i != "None"]
            elif key == "pending":
                pending = [i for i in section.items() if i != "None"]
    if (not active or active == "None") and inheritance.tails:
        last = inheritance.tails[0].rounds[-1]
        active = f"last request: {last.user.text.strip()[:200]}" if last.user else ""
    from ..redact import redact

    lines = [f"- Active work: {active or 'not recorded'}"]
    lines.append("- Key decisions: " + ("; ".join(decisions) if decisions else "none recorded"))
    lines.append("- Pending: " + ("; ".join(pending) if pending else "none recorded"))
    return [redact(line)[0] for line in lines]


def inherit(
    workspace: Workspace,
    *,
    sessions: int = 3,
    rounds: int = 3,
    platform: str | None = None,
    exclude: list[Path] | None = None,
    home: Path | None = None,
    save: bool = False,
) -> tuple[str, Inheritance, Path | None]:
    """Phase 0: the conversation-context document; with ``save`` also written to
    ``memory/relay-context.md`` (overwritten each time, like the snapshot)."""
    import os

    from ..clock import now as clock_now
    from ..transcripts.discover import TRANSCRIPT_ENV, find_transcripts
    from .inherit import collect_tails, render_inheritance

    skip = set(exclude or [])
    if os.environ.get(TRANSCRIPT_ENV):
        skip.add(Path(os.environ[TRANSCRIPT_ENV]))
    try:
        refs = find_transcripts(workspace.root, platform, home)
    except WorkmemError as exc:
        refs = []
        note = f"session history unavailable: {exc}"
    else:
        note = ""
    inheritance = collect_tails(
        refs, now=clock_now(), sessions=sessions, rounds=rounds, exclude=skip
    )
    if note:
        inheritance.notes.append(note)
    text = render_inheritance(inheritance, carry_forward(read_snapshot(workspace), inheritance))
    written = None
    if save:
        store = relay_store(workspace)
        target = workspace.memory_dir / "relay-context.md"

        def verify(reread: str) -> None:
            if reread != text:
                from ..errors import WriteError

                raise WriteError(f"{store.show(target)}: content differs after writing")

        store.update(target, lambda _old: text, verify=verify)
        written = target
    return text, inheritance, written


@dataclass
class RestoreResult:
    """What a restore injected and what it did to the files (archive, heartbeat)."""

    text: str
    snapshot_found: bool
    archived_to: Path | None = None
    heartbeat_removed: bool = False
    sessions: int = 0
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "snapshot_found": self.snapshot_found,
            "archived_to": str(self.archived_to) if self.archived_to else None,
            "heartbeat_removed": self.heartbeat_removed,
            "sessions": self.sessions,
            "notes": self.notes,
        }


def restore(
    workspace: Workspace,
    *,
    fresh: bool = False,
    keep: bool = False,
    platform: str | None = None,
    exclude: list[Path] | None = None,
    home: Path | None = None,
) -> RestoreResult:
    """Phase 3: tails and snapshot merged; the HEARTBEAT line goes; the snapshot, now
    consumed, is archived (``keep`` leaves it). ``fresh``: archive and start clean."""
    from ..clock import now as clock_now
    from .heartbeat import remove_line

    store = relay_store(workspace)
    snapshot_text = read_snapshot(workspace)
    if fresh:
        archived = archive_snapshot(store, clock_now())
        removed = remove_line(store)
        return RestoreResult("", snapshot_text is not None, archived, removed)
    text, inheritance, _ = inherit(workspace, platform=platform, exclude=exclude, home=home)
    parts = [text.rstrip("\n")]
    if snapshot_text:
        parts += ["", "---", "", snapshot_text.rstrip("\n")]
    merged = "\n".join(parts) + "\n"
    removed = remove_line(store)
    archived = None if keep or snapshot_text is None else archive_snapshot(store, clock_now())
    return RestoreResult(
        merged,
        snapshot_text is not None,
        archived,
        removed,
        len(inheritance.tails),
        list(inheritance.notes),
    )

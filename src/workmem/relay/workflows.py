"""The relay's workflows over one workspace: inherit, snapshot, restore, archive, status.

Each is one call the CLI, hooks and MCP share. They find the transcript themselves (the
one named, else the current session's), never block on a transcript they cannot read,
and write only through ``Store`` with verification.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..clock import now as clock_now
from ..errors import WorkmemError
from ..files.sections import Document
from ..files.store import Store
from ..root import Workspace
from ..transcripts.model import Transcript
from .archive import archive_dir, archive_snapshot, snapshot_path
from .inherit import Inheritance, collect_tails, render_inheritance
from .snapshot import SnapshotResult, write_snapshot
from .template import TITLE, SnapshotNotes, section_key
from .usage import ContextUsage, usage_of
from .zones import Zone, zone_for

STATE_FILE = "relay.json"
#: in the warm zone, save again only after the context grew by this many points
RESAVE_POINTS = 5.0


def _store(workspace: Workspace) -> Store:
    from ..config import load_settings

    return Store(workspace, lock_timeout=load_settings(workspace).board.lock_timeout)


def _window(workspace: Workspace) -> int | None:
    from ..config import load_settings

    value = load_settings(workspace).section("relay").get("context_window")
    return value if isinstance(value, int) and value > 0 else None


def find_transcript_path(
    workspace: Workspace,
    *,
    transcript: Path | None = None,
    session: str | None = None,
    platform: str | None = None,
    home: Path | None = None,
) -> Path | None:
    from ..transcripts.discover import current_transcript, resolve_transcript

    if transcript is not None:
        return Path(transcript)
    if session:
        return resolve_transcript(session, workspace.root, platform, home)
    ref = current_transcript(workspace.root, platform, home)
    return ref.path if ref else None


def load(path: Path | None, platform: str | None = None) -> Transcript | None:
    if path is None:
        return None
    from ..transcripts.read import read_transcript

    return read_transcript(path, platform)


def snapshot(
    workspace: Workspace,
    notes: SnapshotNotes,
    *,
    transcript: Path | None = None,
    session: str | None = None,
    platform: str | None = None,
    mode: str = "auto",
    force: bool = False,
    home: Path | None = None,
) -> SnapshotResult:
    path = find_transcript_path(
        workspace, transcript=transcript, session=session, platform=platform, home=home
    )
    read = load(path, platform)
    usage = usage_of(read, _window(workspace)) if read is not None else None
    zone = zone_for(usage.percent) if usage is not None else None
    chosen = mode
    if mode == "auto":
        chosen = "incremental" if zone is not None and zone.name == "warm" else "full"
    result = write_snapshot(
        _store(workspace),
        notes,
        transcript=read,
        usage=usage,
        zone=zone,
        now=clock_now(),
        mode=chosen,
        force=force,
    )
    if result.written and usage is not None:
        level = zone.level if zone is not None else 0
        _save_state(workspace, {"transcript": str(path), "percent": usage.percent, "level": level})
    return result


def read_snapshot(workspace: Workspace) -> str | None:
    """The saved snapshot, or ``None`` when missing, empty or not a snapshot (seed: corrupt
    or empty is treated as no snapshot)."""
    store = _store(workspace)
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

    from ..transcripts.discover import TRANSCRIPT_ENV, find_transcripts

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
        store = _store(workspace)
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
    from .heartbeat import remove_line

    store = _store(workspace)
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


def _state_path(workspace: Workspace) -> Path:
    return workspace.state_dir / STATE_FILE


def _load_state(workspace: Workspace) -> dict[str, Any]:
    try:
        data = json.loads(_state_path(workspace).read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_state(workspace: Workspace, data: dict[str, Any]) -> None:
    text = json.dumps(data, ensure_ascii=False) + "\n"
    _store(workspace).update(_state_path(workspace), lambda _old: text)


@dataclass
class StatusReport:
    transcript: Path | None
    usage: ContextUsage | None
    zone: Zone | None
    snapshot_exists: bool
    heartbeat: bool
    archives: int
    action: SnapshotResult | None = None
    warning: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "transcript": str(self.transcript) if self.transcript else None,
            "usage": self.usage.to_dict() if self.usage else None,
            "zone": self.zone.to_dict() if self.zone else None,
            "snapshot_exists": self.snapshot_exists,
            "heartbeat": self.heartbeat,
            "archives": self.archives,
            "action": self.action.to_dict() if self.action else None,
            "warning": self.warning,
        }


def status(
    workspace: Workspace,
    *,
    transcript: Path | None = None,
    session: str | None = None,
    platform: str | None = None,
    profile: str = "relay",
    apply: bool = False,
    home: Path | None = None,
) -> StatusReport:
    """Phase 1: usage and zone; with ``apply``, do the zone's action from the transcript
    (warm: incremental save, hot: full save + heartbeat, critical: force-save + warning),
    at most once per zone and per 5 points of growth."""
    from .heartbeat import has_line

    store = _store(workspace)
    path = find_transcript_path(
        workspace, transcript=transcript, session=session, platform=platform, home=home
    )
    usage = zone = None
    if path is not None:
        usage = _incremental_usage(store, path, platform, _window(workspace))
        zone = zone_for(usage.percent, profile)
    folder = archive_dir(store)
    report = StatusReport(
        transcript=path,
        usage=usage,
        zone=zone,
        snapshot_exists=snapshot_path(store).is_file(),
        heartbeat=has_line(store),
        archives=len(list(folder.glob("*.md"))) if folder.is_dir() else 0,
    )
    if usage is not None and zone_for(usage.percent, "relay").level >= 3:
        from .zones import critical_footer

        report.warning = critical_footer(usage.percent)
    if apply and usage is not None and zone is not None:
        relay_zone = zone_for(usage.percent, "relay")
        state = _load_state(workspace)
        same = state.get("transcript") == str(path)
        last = float(state.get("percent", 0)) if same else None
        last_level = int(state.get("level", 0)) if same else 0
        grown = last is None or usage.percent - last >= RESAVE_POINTS
        if relay_zone.level >= 1 and (grown or relay_zone.level > last_level):
            report.action = snapshot(
                workspace, SnapshotNotes(), transcript=path, platform=platform, force=True
            )
            report.snapshot_exists = True
            report.heartbeat = has_line(store)
    return report


def _incremental_usage(
    store: Store, path: Path, platform: str | None, window: int | None
) -> ContextUsage:
    from .usage import context_usage

    return context_usage(path, platform, store=store, window=window)

"""The relay's workflows over one workspace: inherit, snapshot, restore, archive, status.

Each is one call the CLI, hooks and MCP share. They find the transcript themselves (the
one named, else the current session's), never block on a transcript they cannot read,
and write only through ``Store`` with verification.

Phases 0 and 3 (inherit, restore) live in ``restore`` and are re-exported here; this module
keeps Phases 1 and 2 (status, snapshot). Hooks run one half or the other, so each workflow
also imports the rooms it needs (transcripts, the snapshot writer) itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .archive import archive_dir, snapshot_path
from .restore import RestoreResult, carry_forward, inherit, read_snapshot, relay_store, restore
from .template import SnapshotNotes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..files.store import Store
    from ..root import Workspace
    from ..transcripts.model import Transcript
    from .snapshot import SnapshotResult
    from .usage import ContextUsage
    from .zones import Zone

__all__ = [
    "RestoreResult",
    "StatusReport",
    "carry_forward",
    "find_transcript_path",
    "inherit",
    "load",
    "read_snapshot",
    "restore",
    "snapshot",
    "status",
]

STATE_FILE = "relay.json"
#: in the warm zone, save again only after the context grew by this many points
RESAVE_POINTS = 5.0


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
    parsed: Transcript | None = None,
) -> SnapshotResult:
    """``parsed``: the transcript already read by the caller (a save reads it once)."""
    from ..clock import now as clock_now
    from .snapshot import write_snapshot
    from .usage import usage_of
    from .zones import zone_for

    path = (
        parsed.path
        if parsed is not None
        else find_transcript_path(
            workspace, transcript=transcript, session=session, platform=platform, home=home
        )
    )
    read = parsed or load(path, platform)
    usage = usage_of(read, _window(workspace)) if read is not None else None
    zone = zone_for(usage.percent) if usage is not None else None
    chosen = mode
    if mode == "auto":
        chosen = "incremental" if zone is not None and zone.name == "warm" else "full"
    # The snapshot on file is this session's when the last save read this transcript.
    same = path is not None and _load_state(workspace).get("transcript") == str(path)
    result = write_snapshot(
        relay_store(workspace),
        notes,
        transcript=read,
        usage=usage,
        zone=zone,
        now=clock_now(),
        mode=chosen,
        force=force,
        same_session=same,
    )
    if result.written and path is not None:
        state: dict[str, Any] = {"transcript": str(path)}
        if usage is not None:
            state.update(percent=usage.percent, level=zone.level if zone is not None else 0)
        _save_state(workspace, state)
    return result


def _state_path(workspace: Workspace) -> Path:
    return workspace.state_dir / STATE_FILE


def _load_state(workspace: Workspace) -> dict[str, Any]:
    from ..files.store import Store

    try:
        data = json.loads(Store(workspace).read_derived(_state_path(workspace)) or b"")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _save_state(workspace: Workspace, data: dict[str, Any]) -> None:
    text = json.dumps(data, ensure_ascii=False) + "\n"
    relay_store(workspace).update(_state_path(workspace), lambda _old: text)


@dataclass
class StatusReport:
    """Usage, zone and the state of the relay files, and the save the zone called for."""

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
    from .zones import zone_for

    store = relay_store(workspace)
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
        from ..i18n import language_for
        from .zones import critical_footer

        report.warning = critical_footer(usage.percent, language_for(workspace))
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

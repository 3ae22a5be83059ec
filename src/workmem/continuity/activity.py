"""What the hooks saw of each session: when it started and was last active, whether it
ended, its transcript, its agent's process, the repository at its last save.

The next session needs these to hand work over: the most recent session that stopped
(ended, or never ended: a crash, a usage limit) gets the handoff, one that is still
running gets a line. Each memory session has its own record,
``memory/.workmem/activity/<session id>.json``, written only by that session's own hooks,
so two sessions ending at once never touch the same file. Derived state: a record that is
missing or unreadable costs only the detail it held.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .. import clock

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..files.store import Store
    from ..root import Workspace

FOLDER = "activity"


def record_path(workspace: Workspace, session_id: str) -> Path:
    from ..board.model import check_session_id

    return workspace.state_dir / FOLDER / f"{check_session_id(session_id)}.json"


@dataclass
class Activity:
    """One session's record (every field optional: older and partial records read fine)."""

    session_id: str
    data: dict[str, Any]

    def text(self, key: str) -> str | None:
        value = self.data.get(key)
        return value if isinstance(value, str) and value else None

    @property
    def platform(self) -> str | None:
        return self.text("platform")

    @property
    def transcript(self) -> Path | None:
        value = self.text("transcript")
        return Path(value) if value else None

    @property
    def ended(self) -> str | None:
        return self.text("ended")

    @property
    def last_seen(self) -> str | None:
        return self.text("last_seen")


def read(workspace: Workspace, session_id: str) -> Activity | None:
    from ..files.store import Store

    try:
        current = Store(workspace).read_text(record_path(workspace, session_id))
        data = json.loads(current[0]) if current else None
    except Exception:  # derived state: unreadable is absent
        return None
    return Activity(session_id, data) if isinstance(data, dict) else None


def read_recent(workspace: Workspace, limit: int | None = None) -> list[Activity]:
    """The records of the sessions written to most recently (all with no ``limit``), the
    newest first; unreadable ones left out. A record is rewritten at every save of its
    session, so its file time orders them without reading hundreds of old ones."""
    folder = workspace.state_dir / FOLDER
    try:
        entries = [(p.stat().st_mtime, p.name) for p in folder.iterdir() if p.suffix == ".json"]
    except OSError:
        return []
    entries.sort(reverse=True)
    names = [name for _time, name in entries[:limit]]
    found = []
    for name in names:
        try:
            activity = read(workspace, name[: -len(".json")])
        except Exception:
            activity = None
        if activity is not None:
            found.append(activity)
    return found


def update(store: Store, session_id: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change one session's record under its own lock (created when missing)."""

    def edit(old: str | None) -> str:
        try:
            data = json.loads(old) if old else {}
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        data["session_id"] = session_id
        change(data)
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    store.update(record_path(store.workspace, session_id), edit)


def note_start(
    store: Store,
    session_id: str,
    *,
    platform: str,
    platform_session_id: str | None,
    transcript: Path | None,
    cwd: Path | None,
) -> None:
    """At a session start: who it is, where it runs, which agent process runs it."""
    from ..files.oscompat import agent_process

    process = agent_process()
    now = clock.stamp()

    def change(data: dict[str, Any]) -> None:
        data.setdefault("started", now)
        data["last_seen"] = now
        data["platform"] = platform
        if platform_session_id:
            data["platform_session_id"] = platform_session_id
        if transcript is not None:
            data["transcript"] = str(transcript)
        if cwd is not None:
            data["cwd"] = str(cwd)
        data.pop("ended", None)  # a resumed session is running again
        if process is not None:
            data["agent"] = process

    update(store, session_id, change)


def note_save(
    store: Store,
    session_id: str,
    *,
    reason: str,
    transcript: Path | None,
    repo: dict[str, Any] | None,
    outcome: str | None,
    ended: bool,
    extra: dict[str, Any] | None = None,
) -> None:
    """After a save: when, why, the repository then, and at a session end that it ended."""
    now = clock.stamp()

    def change(data: dict[str, Any]) -> None:
        data["last_seen"] = now
        data["last_save"] = {"at": now, "reason": reason}
        if transcript is not None:
            data["transcript"] = str(transcript)
            try:
                info = transcript.stat()
                data["transcript_seen"] = [info.st_size, info.st_mtime_ns]
            except OSError:
                data.pop("transcript_seen", None)
        if repo is not None:
            data["repo"] = repo
        if outcome:
            data["outcome"] = outcome
        if ended:
            data["ended"] = now
        data.update(extra or {})

    update(store, session_id, change)

"""``memory/state.json``: the fast, machine-readable orientation read first at every start.

It answers "how long since the last session, and is anything due?" in one small read:
the session count, when and how the last session ended, the maintenance flags
(``memory_review_due`` every few sessions), and the notes of sessions still open.

Open-session notes live here rather than in memory: ``workmem note decision …`` runs as a
separate process each time, and a session that crashes before ``end`` must not lose what
it noted. Keys we do not know are kept, so a person or another tool can add their own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..clock import parse_timestamp
from ..errors import FormatError, UsageError, WorkmemError
from ..files.jsondoc import parse_json_object
from ..files.store import Store

VERSION = 1
REVIEW_DUE = "memory_review_due"
_FIELDS = (
    "version",
    "session_count",
    "last_session",
    "last_summary",
    "last_mood",
    "last_agent",
    "sessions_since_review",
    "last_review",
    "flags",
    "active_threads",
    "open_sessions",
)


@dataclass
class JournalState:
    session_count: int = 0
    last_session: str | None = None
    last_summary: str | None = None
    last_mood: str | None = None
    last_agent: str | None = None
    sessions_since_review: int = 0
    last_review: str | None = None
    flags: dict[str, Any] = field(default_factory=dict)
    active_threads: list[str] = field(default_factory=list)
    open_sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def last_session_time(self) -> datetime | None:
        if not self.last_session:
            return None
        try:
            return parse_timestamp(self.last_session)
        except WorkmemError:
            return None

    def flag(self, name: str) -> bool:
        return bool(self.flags.get(name))

    def raised_flags(self) -> list[str]:
        return sorted(name for name, value in self.flags.items() if value)

    def open_session(self, key: str) -> dict[str, Any]:
        return self.open_sessions.setdefault(key, {"notes": []})

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": VERSION,
            "session_count": self.session_count,
            "last_session": self.last_session,
            "last_summary": self.last_summary,
            "last_mood": self.last_mood,
            "last_agent": self.last_agent,
            "sessions_since_review": self.sessions_since_review,
            "last_review": self.last_review,
            "flags": self.flags,
            "active_threads": self.active_threads,
        }
        if self.open_sessions:
            data["open_sessions"] = self.open_sessions
        data.update(self.extra)
        return data

    def render(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"


def _int(data: dict[str, Any], key: str, path: str) -> int:
    value = data.get(key, 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FormatError(f"'{key}' must be a whole number, got {value!r}", path=path)
    try:
        number = int(value)
    except ValueError:
        raise FormatError(f"'{key}' must be a whole number, got {value!r}", path=path) from None
    if number < 0:
        raise FormatError(f"'{key}' cannot be negative ({number})", path=path)
    return number


def _text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return str(value) if isinstance(value, str | int | float) and str(value).strip() else None


def parse_state(text: str, path: str = "memory/state.json") -> JournalState:
    if not text.strip():
        return JournalState()
    data = parse_json_object(text, path)
    flags = data.get("flags") if data.get("flags") is not None else {}
    if not isinstance(flags, dict):
        raise FormatError(f"'flags' must be an object, got {flags!r}", path=path)
    threads = data.get("active_threads") if data.get("active_threads") is not None else []
    if not isinstance(threads, list):
        raise FormatError("'active_threads' must be a list", path=path)
    open_sessions = data.get("open_sessions") if data.get("open_sessions") is not None else {}
    if not isinstance(open_sessions, dict) or not all(
        isinstance(v, dict) for v in open_sessions.values()
    ):
        raise FormatError("'open_sessions' must be an object of objects", path=path)
    for record in open_sessions.values():
        if not isinstance(record.setdefault("notes", []), list):
            raise FormatError("each open session's 'notes' must be a list", path=path)
    return JournalState(
        session_count=_int(data, "session_count", path),
        last_session=_text(data, "last_session"),
        last_summary=_text(data, "last_summary"),
        last_mood=_text(data, "last_mood"),
        last_agent=_text(data, "last_agent"),
        sessions_since_review=_int(data, "sessions_since_review", path),
        last_review=_text(data, "last_review"),
        flags=dict(flags),
        active_threads=[str(t) for t in threads],
        open_sessions=dict(open_sessions),
        extra={k: v for k, v in data.items() if k not in _FIELDS},
    )


def read_state(store: Store, path: Path) -> JournalState:
    current = store.read_text(path)
    return parse_state(current[0], store.show(path)) if current else JournalState()


def update_state(
    store: Store,
    path: Path,
    change: Callable[[JournalState], None],
    *,
    check: Callable[[JournalState], bool] | None = None,
) -> JournalState:
    """Re-read under the lock, apply ``change``, write, re-read and ``check`` the result."""
    result: list[JournalState] = []

    def apply(current: str | None) -> str:
        state = parse_state(current or "", store.show(path))
        change(state)
        result[:] = [state]
        return state.render()

    def verify(text: str) -> None:
        reread = parse_state(text, store.show(path))
        if reread.session_count != result[0].session_count or (
            check is not None and not check(reread)
        ):
            from ..errors import WriteError

            raise WriteError(f"{store.show(path)}: re-read state does not match what was written")

    store.update(path, apply, verify=verify)
    return result[0]


def check_session_key(key: str) -> str:
    """A session key as the daily log's markers can hold it (no line breaks, no ``<>``)."""
    cleaned = key.strip()
    if not cleaned or len(cleaned) > 120 or any(c in cleaned for c in "\n\r\t<>"):
        raise UsageError(f"invalid session key {key!r}: use letters, digits, '-', '_' or '.'")
    return cleaned

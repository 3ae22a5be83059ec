"""Which memory session a platform's session belongs to (``.workmem/platform-sessions.json``).

Seed 001 says "the agent must know its ID"; an agent forgets it at the first compaction.
The session-start hook records the pair, and every later hook of that platform session
looks it up, so the ID survives compaction, resume and crashes of the agent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .. import clock
from ..errors import WriteError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..files.store import Store

MAP_NAME = "platform-sessions.json"


@dataclass(frozen=True)
class MappedSession:
    """One platform session and the memory session it belongs to, as the map records it."""

    memory_session_id: str
    transcript: str | None
    platform: str
    platform_session_id: str
    #: when the pair was recorded (``YYYY-MM-DD HH:MM``), if known
    updated: str | None = None


def _path(store: Store) -> Path:
    return store.workspace.state_dir / MAP_NAME


def _load(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}  # derived state: a corrupt map is rebuilt as sessions start again
    return data if isinstance(data, dict) else {}


def _key(platform: str, platform_session_id: str) -> str:
    return f"{platform}:{platform_session_id}"


def lookup(store: Store, platform: str, platform_session_id: str | None) -> MappedSession | None:
    if not platform_session_id:
        return None
    current = store.read_text(_path(store))
    entry = _load(current[0] if current else None).get(_key(platform, platform_session_id))
    if not isinstance(entry, dict) or not isinstance(entry.get("memory_session_id"), str):
        return None
    transcript = entry.get("transcript")
    return MappedSession(
        memory_session_id=entry["memory_session_id"],
        transcript=transcript if isinstance(transcript, str) else None,
        platform=platform,
        platform_session_id=platform_session_id,
    )


def entries(store: Store) -> list[MappedSession]:
    """Every pair the map holds (organize asks which memory sessions are still in use)."""
    current = store.read_text(_path(store))
    found: list[MappedSession] = []
    for key, entry in _load(current[0] if current else None).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("memory_session_id"), str):
            continue
        platform, _, platform_session_id = str(key).partition(":")
        transcript, updated = entry.get("transcript"), entry.get("updated")
        found.append(
            MappedSession(
                memory_session_id=entry["memory_session_id"],
                transcript=transcript if isinstance(transcript, str) else None,
                platform=platform,
                platform_session_id=platform_session_id,
                updated=updated if isinstance(updated, str) else None,
            )
        )
    return found


def remember(
    store: Store,
    platform: str,
    platform_session_id: str,
    memory_session_id: str,
    transcript: Path | None,
) -> MappedSession:
    key = _key(platform, platform_session_id)
    entry = {
        "memory_session_id": memory_session_id,
        "transcript": str(transcript) if transcript else None,
        "updated": clock.stamp(),
    }

    def change(text: str | None) -> str:
        data = _load(text)
        data[key] = entry
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    def verify(text: str) -> None:
        if _load(text).get(key, {}).get("memory_session_id") != memory_session_id:
            raise WriteError("the platform session map does not hold the new entry")

    store.update(_path(store), change, verify=verify)
    return MappedSession(
        memory_session_id, str(transcript) if transcript else None, platform, platform_session_id
    )


def forget(store: Store, platform: str, platform_session_id: str | None) -> None:
    """Drop a platform session's pair, so that its next start registers a new memory session
    (OpenClaw 2026.9's ``/new`` starts the next conversation under the same session id)."""
    if not platform_session_id:
        return
    key = _key(platform, platform_session_id)
    current = store.read_text(_path(store))
    if key not in _load(current[0] if current else None):
        return

    def change(text: str | None) -> str:
        data = _load(text)
        data.pop(key, None)
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    def verify(text: str) -> None:
        if key in _load(text):
            raise WriteError("the platform session map still holds the ended session")

    store.update(_path(store), change, verify=verify)

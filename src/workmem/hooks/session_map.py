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
    #: the agent process that ran the hook (``oscompat.agent_process``), when known
    agent: str | None = None


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
    return _mapped(entry, platform, platform_session_id)


def _mapped(entry: dict[str, Any], platform: str, platform_session_id: str) -> MappedSession:
    transcript, agent = entry.get("transcript"), entry.get("agent")
    updated = entry.get("updated")
    return MappedSession(
        memory_session_id=entry["memory_session_id"],
        transcript=transcript if isinstance(transcript, str) else None,
        platform=platform,
        platform_session_id=platform_session_id,
        updated=updated if isinstance(updated, str) else None,
        agent=agent if isinstance(agent, str) else None,
    )


def entries(store: Store) -> list[MappedSession]:
    """Every pair the map holds (organize asks which are still in use; the viewer's timeline
    reads their transcripts)."""
    current = store.read_text(_path(store))
    found = []
    for key, entry in _load(current[0] if current else None).items():
        if isinstance(entry, dict) and isinstance(entry.get("memory_session_id"), str):
            platform, _, platform_session_id = key.partition(":")
            found.append(_mapped(entry, platform, platform_session_id))
    return found


def by_agent(store: Store, agent: str | None) -> MappedSession | None:
    """The platform session an agent process registered last (an MCP server started by
    the same agent as the hooks finds the hooks' session this way); None when unknown."""
    if not agent:
        return None
    current = store.read_text(_path(store))
    found: list[tuple[float, MappedSession]] = []
    for key, entry in _load(current[0] if current else None).items():
        if (
            isinstance(entry, dict)
            and entry.get("agent") == agent
            and isinstance(entry.get("memory_session_id"), str)
        ):
            platform, _, platform_session_id = key.partition(":")
            seen = entry.get("seen")
            order = float(seen) if isinstance(seen, int | float) else 0.0
            found.append((order, _mapped(entry, platform, platform_session_id)))
    return max(found, key=lambda pair: pair[0])[1] if found else None


def remember(
    store: Store,
    platform: str,
    platform_session_id: str,
    memory_session_id: str,
    transcript: Path | None,
) -> MappedSession:
    import time

    from ..files.oscompat import agent_process

    key = _key(platform, platform_session_id)
    agent = agent_process()
    entry = {
        "memory_session_id": memory_session_id,
        "transcript": str(transcript) if transcript else None,
        "updated": clock.stamp(),
        "agent": agent,
        "seen": time.time(),  # orders the sessions of one agent process (after /clear)
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
        memory_session_id,
        str(transcript) if transcript else None,
        platform,
        platform_session_id,
        agent,
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

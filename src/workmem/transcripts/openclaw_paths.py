"""Where OpenClaw 2026.9+ keeps its sessions, and how workmem names one of them.

A session kept in an agent's SQLite database (``openclaw_store``) is named by a path that
does not exist on disk: the database's path followed by the session id
(``…/openclaw-agent.sqlite/<session id>``), so the rest of workmem passes it around like a
transcript file. Telling such a path from a file takes no SQLite: hooks ask on every
prompt whether their transcript exists, and a JSONL file answers with one ``stat`` without
this module loading the reader.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

DATABASE_NAME = "openclaw-agent.sqlite"
#: session ids are OpenClaw's UUIDs; anything that could name a folder is refused (a
#: pattern string: ``re`` compiles it on first use, which a JSONL transcript never needs)
_SESSION_ID = r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}"


def session_path(database: Path, session_id: str) -> Path:
    """The path that names ``session_id`` of the store ``database``."""
    return Path(database) / session_id


def split_session_path(path: Path) -> tuple[Path, str] | None:
    """(database, session id) when ``path`` names a session in a store, by its form only."""
    parent = Path(path).parent
    if not parent.name.endswith(".sqlite") or not valid_id(Path(path).name):
        return None
    return parent, Path(path).name


def is_store_session(path: Path) -> bool:
    """Whether ``path`` names a session of a store that exists (one ``stat``)."""
    split = split_session_path(path)
    return split is not None and split[0].is_file()


def transcript_exists(path: Path) -> bool:
    """A transcript file, or a session of a store: what a save or a resume can read."""
    return Path(path).is_file() or is_store_session(path)


def state_dir(home: Path | None = None) -> Path:
    """OpenClaw's state folder: ``$OPENCLAW_STATE_DIR`` (when no ``home`` is given), else
    ``<home>/.openclaw``."""
    override = os.environ.get("OPENCLAW_STATE_DIR") if home is None else None
    if override:
        return Path(override).expanduser()
    return (Path(home) if home is not None else Path.home()) / ".openclaw"


def valid_id(name: str) -> bool:
    """Whether ``name`` can be an OpenClaw agent or session id: never a path, nor ``..``."""
    return bool(re.fullmatch(_SESSION_ID, name)) and ".." not in name


def database_for(agent_id: str, home: Path | None = None) -> Path | None:
    """The store of agent ``agent_id``; None for an id that could name another folder."""
    if not valid_id(agent_id):
        return None
    return state_dir(home) / "agents" / agent_id / "agent" / DATABASE_NAME


def database_from_store_path(store_path: str) -> Path | None:
    """The database OpenClaw keeps a hook event's ``storePath`` in.

    2026.9 still names the legacy ``<state>/agents/<id>/sessions/sessions.json``, whose rows
    moved to ``<state>/agents/<id>/agent/openclaw-agent.sqlite``; a path to a ``.sqlite``
    file is the database itself. Anything else is not guessed at.
    """
    path = Path(store_path).expanduser()
    if path.suffix == ".sqlite":
        return path
    if path.name == "sessions.json" and path.parent.name == "sessions":
        agent = path.parent.parent
        if agent.parent.name == "agents":
            return agent / "agent" / DATABASE_NAME
    return None


def session_from_marker(marker: str) -> Path | None:
    """OpenClaw's ``sqlite:<agentId>:<sessionId>:<storePath>`` stand-in for a session file
    (what it gives plugins that still ask for one) as a store session path."""
    if not marker.startswith("sqlite:"):
        return None
    parts = marker.split(":", 3)
    if len(parts) != 4 or not valid_id(parts[2]):
        return None
    database = database_from_store_path(parts[3])
    return session_path(database, parts[2]) if database is not None else None

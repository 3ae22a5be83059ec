"""OpenClaw 2026.9+ sessions, kept in the agent's SQLite database instead of JSONL files.

Where: ``<state dir>/agents/<agentId>/agent/openclaw-agent.sqlite`` (state dir
``$OPENCLAW_STATE_DIR`` or ``~/.openclaw``). What workmem reads of it:

- ``session_windows``: one row per session id (``session_key`` is the routing key, such as
  ``agent:main:main``; ``transcript_updated_at`` in epoch milliseconds);
- ``transcript_events``: the transcript, one row per entry, ordered by ``seq``. Each entry is
  the JSON of the same Pi entry a JSONL transcript line holds (a ``session`` header with
  ``cwd``, then ``message``, ``model_change``, ``compaction``, ``reset``… linked by
  ``id``/``parentId``), stored as text in ``event_json`` or, for an entry of 1 KiB or more
  that compresses well, as a zstd frame in ``event_zstd`` with its UTF-8 size in
  ``event_utf8_bytes`` (at most 4 MiB).

A session in a store is named by a path that does not exist on disk: the database's path
followed by the session id (``…/openclaw-agent.sqlite/<session id>``), so the rest of
workmem passes it around like a transcript file (``session_path``, ``split_session_path``).

The Gateway owns the database and writes it in WAL mode while workmem reads: the database is
opened read-only (``mode=ro``, ``query_only``), with a busy timeout, and read in one short
transaction. A reset or deleted session's transcript leaves ``transcript_events`` for
OpenClaw's archives; workmem reads live sessions only and says so when one is gone.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError, NotFoundError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator
    from typing import Any

    from .jsonl import Records
    from .model import Transcript

DATABASE_NAME = "openclaw-agent.sqlite"
#: how long a read waits for the Gateway's write lock before it gives up
BUSY_TIMEOUT_SECONDS = 2.0
#: OpenClaw's own bound on one entry's stored and decoded size
MAX_EVENT_BYTES = 4 * 1024 * 1024
#: the head read of a long session whatever ``max_bytes`` is (as the JSONL window does)
HEAD_BYTES = 256 * 1024
#: rows fetched at a time: memory stays bounded however many entries a session has
_BATCH = 256
#: session ids are OpenClaw's UUIDs; anything that could name a folder is refused
_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
#: the columns this reader needs, by table; any other schema is refused by name
_REQUIRED = {
    "transcript_events": ("session_id", "seq", "event_json", "event_zstd", "event_utf8_bytes"),
    "session_windows": ("session_id", "session_key", "updated_at", "transcript_updated_at"),
}
#: entries in the skipped middle of a long session that are read all the same: tool calls
#: that changed the plan (the tool names ``window.PLAN_LINE`` knows) and reset boundaries
#: (OpenClaw writes their JSON with ``type`` first); checked by SQLite, tool calls first
_PLAN_TOOLS = (
    '"TodoWrite"',
    '"TaskCreate"',
    '"TaskUpdate"',
    '"update_plan"',
    '"write_todos"',
    '"todo_write"',
)
_RESET_START = '{"type":"reset"'
_MIDDLE = (
    "substr(event_json, 1, length(?)) = ? OR (instr(event_json, '\"toolCall\"') > 0 AND ("
    + " OR ".join("instr(event_json, ?) > 0" for _ in _PLAN_TOOLS)
    + "))"
)


@dataclass
class StoreSession:
    """One session of a store, before its transcript is read."""

    database: Path
    session_id: str
    session_key: str
    cwd: str | None
    #: epoch seconds of the last transcript write (of the row's update when unknown)
    modified: float
    #: the transcript's size as JSON text, in bytes
    size: int

    @property
    def path(self) -> Path:
        return session_path(self.database, self.session_id)


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
    return bool(_SESSION_ID.fullmatch(name)) and ".." not in name


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


# -- opening -------------------------------------------------------------------------------


def _connect(database: Path) -> sqlite3.Connection:
    """The database opened read-only, its schema checked; every failure names the file and
    says that nothing was written."""
    import sqlite3
    from urllib.parse import quote

    if database.is_symlink():
        raise FormatError(
            "is a symbolic link; workmem reads only the database OpenClaw itself keeps "
            "there (nothing was read)",
            path=str(database),
        )
    if not database.exists():
        raise NotFoundError(f"OpenClaw session database not found: {database}")
    if not database.is_file():
        raise FormatError("is not a file, expected OpenClaw's session database", path=str(database))
    uri = f"file:{quote(str(database.absolute()))}?mode=ro"
    try:
        connection = sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise _failure(exc, database) from None
    try:
        connection.execute("PRAGMA query_only = ON")
        _check_schema(connection, database)
    except BaseException as exc:
        connection.close()
        if isinstance(exc, sqlite3.Error):
            raise _failure(exc, database) from None
        raise
    return connection


def _failure(exc: Exception, database: Path) -> FormatError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        reason = (
            f"is locked by OpenClaw for longer than {BUSY_TIMEOUT_SECONDS:g}s; "
            "try again in a moment (nothing was read)"
        )
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        reason = f"is not a readable SQLite database ({text}); nothing was read"
    else:
        reason = f"cannot be read as OpenClaw's session database ({text}); nothing was read"
    return FormatError(reason, path=str(database))


def _check_schema(connection: sqlite3.Connection, database: Path) -> None:
    for table, wanted in _REQUIRED.items():
        have = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        missing = [column for column in wanted if column not in have]
        if missing:
            what = f"has no {table} table" if not have else f"lacks {table}.{missing[0]}"
            raise FormatError(
                f"is not an OpenClaw session store workmem can read ({what}); "
                "a newer OpenClaw may have changed it (nothing was read)",
                path=str(database),
            )


# -- listing -------------------------------------------------------------------------------


def list_sessions(database: Path) -> list[StoreSession]:
    """The sessions of ``database`` that still have a transcript, newest first."""
    import json

    connection = _connect(database)
    try:
        rows = connection.execute(
            """
            SELECT w.session_id, w.session_key,
                   coalesce(w.transcript_updated_at, w.updated_at),
                   (SELECT e.event_json FROM transcript_events AS e
                     WHERE e.session_id = w.session_id ORDER BY e.seq LIMIT 1),
                   (SELECT sum(coalesce(e.event_utf8_bytes, length(e.event_json), 0))
                      FROM transcript_events AS e WHERE e.session_id = w.session_id)
              FROM session_windows AS w
             WHERE EXISTS (SELECT 1 FROM transcript_events AS e
                            WHERE e.session_id = w.session_id)
             ORDER BY 3 DESC, w.session_id
            """
        ).fetchall()
    except Exception as exc:
        raise _failure(exc, database) from None
    finally:
        connection.close()
    found: list[StoreSession] = []
    for session_id, key, stamp, first, size in rows:
        if not isinstance(session_id, str) or not valid_id(session_id):
            continue
        cwd = None
        if isinstance(first, str) and len(first) <= MAX_EVENT_BYTES:
            try:
                header = json.loads(first)
            except ValueError:
                header = None
            if isinstance(header, dict) and header.get("type") == "session":
                cwd = header.get("cwd") if isinstance(header.get("cwd"), str) else None
        modified = stamp / 1000 if isinstance(stamp, int | float) else 0.0
        found.append(StoreSession(database, session_id, str(key), cwd, modified, int(size or 0)))
    return found


# -- reading -------------------------------------------------------------------------------


def read_store_transcript(path: Path, *, max_bytes: int | None = None) -> Transcript:
    """The session ``path`` names (see ``session_path``) as the one transcript model.

    With ``max_bytes``, a session longer than that is read as the JSONL window reads a long
    file: its first ``HEAD_BYTES`` of entries, the entries of the middle that changed the
    plan or reset the conversation, and its last ``max_bytes``; never the whole of it.
    """
    from . import openclaw

    split = split_session_path(path)
    if split is None:
        raise FormatError("does not name a session of an OpenClaw database", path=str(path))
    database, session_id = split
    connection = _connect(database)
    try:
        connection.execute("BEGIN")  # one snapshot: the Gateway may append meanwhile
        records, total, read = _records(connection, database, session_id, max_bytes)
        connection.execute("COMMIT")
    except (FormatError, NotFoundError):
        raise
    except Exception as exc:
        raise _failure(exc, database) from None
    finally:
        connection.close()
    transcript = openclaw.parse(records, Path(path))
    transcript.bytes_read, transcript.skipped_bytes = read, total - read
    return transcript


def _records(
    connection: sqlite3.Connection, database: Path, session_id: str, max_bytes: int | None
) -> tuple[Records, int, int]:
    from .jsonl import Records

    size = "coalesce(event_utf8_bytes, length(event_json), 0)"
    row = connection.execute(
        f"SELECT count(*), sum({size}), min(seq), max(seq) FROM transcript_events "
        "WHERE session_id = ?",
        (session_id,),
    ).fetchone()
    count, total = int(row[0] or 0), int(row[1] or 0)
    if count == 0:
        known = connection.execute(
            "SELECT 1 FROM session_windows WHERE session_id = ?", (session_id,)
        ).fetchone()
        if known:
            raise NotFoundError(
                f"OpenClaw session {session_id} has no live transcript in {database} "
                "(OpenClaw archived it at a reset or deletion)"
            )
        raise NotFoundError(f"no OpenClaw session {session_id} in {database}")
    select = "SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events"
    queries: list[tuple[str, tuple[str | int, ...]]]
    if max_bytes is None or total <= max_bytes + HEAD_BYTES:
        queries = [(f"{select} WHERE session_id = ? ORDER BY seq", (session_id,))]
    else:
        head_end = _bound(connection, session_id, size, "ASC", HEAD_BYTES, row[2])
        tail_start = _bound(connection, session_id, size, "DESC", max_bytes, row[3])
        queries = [
            (f"{select} WHERE session_id = ? AND seq <= ? ORDER BY seq", (session_id, head_end)),
            (
                f"{select} WHERE session_id = ? AND seq > ? AND seq < ? "
                f"AND event_json IS NOT NULL AND ({_MIDDLE}) ORDER BY seq",
                (session_id, head_end, tail_start, _RESET_START, _RESET_START, *_PLAN_TOOLS),
            ),
            (
                f"{select} WHERE session_id = ? AND seq >= ? AND seq > ? ORDER BY seq",
                (session_id, tail_start, head_end),
            ),
        ]
    records = Records()
    read = 0
    for query, parameters in queries:
        for entry, length in _entries(connection.execute(query, parameters)):
            read += length
            if entry is None:
                records.skipped += 1
            else:
                records.items.append(entry)
    return records, total, read


def _bound(
    connection: sqlite3.Connection,
    session_id: str,
    size: str,
    order: str,
    budget: int,
    fallback: int,
) -> int:
    """The last ``seq`` of the head (``ASC``) or the first of the tail (``DESC``) whose
    entries fit in ``budget`` bytes (``fallback``, the end itself, when none does). Only the
    sizes of the entries within the budget are read, never the whole session's."""
    cursor = connection.execute(
        f"SELECT seq, {size} FROM transcript_events WHERE session_id = ? ORDER BY seq {order}",
        (session_id,),
    )
    try:
        bound, running = fallback, 0
        while batch := cursor.fetchmany(_BATCH):
            for seq, length in batch:
                running += int(length)
                if running > budget:
                    return bound
                bound = int(seq)
        return bound
    finally:
        cursor.close()


def _entries(cursor: sqlite3.Cursor) -> Iterator[tuple[dict[str, Any] | None, int]]:
    """Each row's entry (None for one that cannot be decoded) and its size, in batches."""
    import json

    while True:
        batch = cursor.fetchmany(_BATCH)
        if not batch:
            return
        for _seq, text, packed, length in batch:
            if text is None and packed is not None:
                text = _decompressed(packed, length)
            size = length if isinstance(length, int) else len(text or "")
            if not isinstance(text, str | bytes):
                yield None, size
                continue
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            yield (value if isinstance(value, dict) else None), size


def _decompressed(packed: Any, length: Any) -> bytes | None:
    """A zstd-compressed entry's JSON, checked against its recorded size; None when it
    cannot be (bad bounds, a corrupt frame, or no zstd module installed)."""
    if not isinstance(packed, bytes) or not isinstance(length, int):
        return None
    if not 0 < len(packed) <= MAX_EVENT_BYTES or not 0 < length <= MAX_EVENT_BYTES:
        return None
    decompressor = _zstd_decompressor()
    if decompressor is None:
        return None
    try:
        data: bytes = decompressor().decompress(packed, max_length=length + 1)
    except Exception:
        return None
    return data if len(data) == length else None


@functools.cache
def _zstd_decompressor() -> Any:
    """The zstd decompressor class: Python 3.14's ``compression.zstd``, or its backport
    (a dependency on older Pythons); None when neither is installed. Looked up once: a
    failed import is not cached by Python, and a session has thousands of such entries."""
    try:
        from compression.zstd import ZstdDecompressor  # type: ignore[import-not-found]
    except ImportError:
        try:
            from backports.zstd import ZstdDecompressor
        except ImportError:
            return None
    return ZstdDecompressor

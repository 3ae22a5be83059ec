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
followed by the session id (``openclaw_paths``: ``session_path``, ``split_session_path``).

The Gateway owns the database and writes it in WAL mode while workmem reads: the database is
opened read-only (``mode=ro``, ``query_only``), with a busy timeout, and read in one short
transaction. A reset or deleted session's transcript leaves ``transcript_events`` for
OpenClaw's archives; workmem reads live sessions only and says so when one is gone.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError, NotFoundError
from .openclaw_paths import session_path, split_session_path, valid_id

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator
    from typing import Any

    from .jsonl import Records
    from .model import Transcript

#: how long a read waits for the Gateway's write lock before it gives up
BUSY_TIMEOUT_SECONDS = 2.0
#: OpenClaw's own bound on one entry's stored and decoded size
MAX_EVENT_BYTES = 4 * 1024 * 1024
#: the head read of a long session whatever ``max_bytes`` is (as the JSONL window does)
HEAD_BYTES = 256 * 1024
#: rows fetched at a time: memory stays bounded however many entries a session has
_BATCH = 256
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


def list_sessions(database: Path, session_id: str | None = None) -> list[StoreSession]:
    """The sessions of ``database`` that still have a transcript, newest first; only
    ``session_id``'s when given (its size is summed without reading the other sessions)."""
    import json

    only, parameters = ("", ()) if session_id is None else ("AND w.session_id = ?", (session_id,))
    connection = _connect(database)
    try:
        rows = connection.execute(
            f"""
            SELECT w.session_id, w.session_key,
                   coalesce(w.transcript_updated_at, w.updated_at),
                   (SELECT e.event_json FROM transcript_events AS e
                     WHERE e.session_id = w.session_id ORDER BY e.seq LIMIT 1),
                   (SELECT sum(coalesce(e.event_utf8_bytes, length(e.event_json), 0))
                      FROM transcript_events AS e WHERE e.session_id = w.session_id)
              FROM session_windows AS w
             WHERE EXISTS (SELECT 1 FROM transcript_events AS e
                            WHERE e.session_id = w.session_id) {only}
             ORDER BY 3 DESC, w.session_id
            """,
            parameters,
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

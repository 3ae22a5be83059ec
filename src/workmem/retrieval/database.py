"""The index database itself: its schema, how it is opened, and the counters in ``meta``.

``generation`` goes up with every change of chunks or vectors, so a process can tell that
what it cached (the vector matrix) is out of date; ``chunks`` keeps the number of chunks,
since ``count(*)`` is a full scan in SQLite. A database of another schema version is not
read at all: the index rebuilds it from the files.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from ..errors import WriteError
from ..root import Workspace

#: 3: a chunk's embedding hash covers both of its views (``records.EmbedViews``).
#: 4: a template's placeholder ("None") is no longer a chunk.
#: 5: words are stemmed by ``stemming`` (word families) before FTS5, which only splits;
#:    templates are no chunks (``boilerplate``); a chunk has a ``label`` (``labels``);
#:    a third FTS column ``sec`` holds the words of its sections and kind (``vocabulary``).
SCHEMA_VERSION = "6"
DB_NAME = "search.sqlite"

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
    path TEXT PRIMARY KEY, kind TEXT NOT NULL, mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL, hash TEXT, error TEXT);
CREATE TABLE chunks(
    id INTEGER PRIMARY KEY, cid TEXT NOT NULL UNIQUE, path TEXT NOT NULL, kind TEXT NOT NULL,
    seq INTEGER NOT NULL, line_start INTEGER NOT NULL, line_end INTEGER NOT NULL,
    date TEXT, session_id TEXT, title TEXT NOT NULL, label TEXT NOT NULL, text TEXT NOT NULL,
    tokens INTEGER NOT NULL, ehash TEXT NOT NULL, item INTEGER NOT NULL DEFAULT 0);
CREATE INDEX chunks_path ON chunks(path, seq);
CREATE INDEX chunks_date ON chunks(date);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    body, ctx, sec, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE vectors(
    chunk INTEGER NOT NULL, model TEXT NOT NULL, ehash TEXT NOT NULL, vec BLOB NOT NULL,
    PRIMARY KEY (chunk, model));
CREATE INDEX vectors_reuse ON vectors(model, ehash);
"""


def db_path(workspace: Workspace) -> Path:
    return workspace.state_dir / DB_NAME


def empty_index() -> sqlite3.Connection:
    """An index of nothing, in memory: what a search sees where no memory root exists."""
    con = sqlite3.connect(":memory:", isolation_level=None)
    con.executescript(SCHEMA)
    con.execute(
        "INSERT INTO meta VALUES ('schema', ?), ('generation', '1'), ('chunks', '0')",
        (SCHEMA_VERSION,),
    )
    return con


#: SQLite result codes (low byte) that mean the disk failed us, not the database.
_DISK_CODES = {8: "the index file is read-only", 10: "a disk I/O error", 13: "the disk is full"}
_DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}


def index_write_error(exc: BaseException, shown: str) -> WriteError | None:
    """The ``WriteError`` to report for a disk failure under the index, or ``None`` for
    any other error (which callers re-raise as it is)."""
    reason = None
    if isinstance(exc, sqlite3.Error):
        reason = _DISK_CODES.get(getattr(exc, "sqlite_errorcode", 0) & 0xFF)
    elif isinstance(exc, OSError) and exc.errno in _DISK_ERRNOS:
        reason = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror
    if reason is None:
        return None
    return WriteError(
        f"updating the search index ({shown}) failed: {reason}. The memory files are "
        "unchanged; the index is derived and `workmem reindex` rebuilds it once there is room"
    )


def connect_db(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    con.execute("PRAGMA synchronous=NORMAL")
    return con


def check_schema(con: sqlite3.Connection) -> None:
    """Raise ``sqlite3.DatabaseError`` unless this is a readable index of our schema."""
    row = con.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    if row is None or row[0] != SCHEMA_VERSION:
        raise sqlite3.DatabaseError(f"index schema {row[0] if row else None!r}")
    con.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'workmem'").fetchone()


def bump_generation(con: sqlite3.Connection) -> None:
    con.execute(
        "UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key='generation'"
    )


def add_to_count(con: sqlite3.Connection, delta: int) -> None:
    """Keep the number of chunks in ``meta``: ``count(*)`` is a full scan in SQLite."""
    con.execute(
        "UPDATE meta SET value = CAST(CAST(value AS INTEGER) + ? AS TEXT) WHERE key='chunks'",
        (delta,),
    )


def chunk_count(con: sqlite3.Connection) -> int:
    row = con.execute("SELECT value FROM meta WHERE key='chunks'").fetchone()
    return int(row[0]) if row else 0


def generation(con: sqlite3.Connection) -> int:
    row = con.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
    return int(row[0]) if row else 0

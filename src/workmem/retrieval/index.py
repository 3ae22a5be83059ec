"""The search index: a derived SQLite file under ``memory/.workmem/``, never the truth.

Three promises:

* **Never older than the files.** Every query first compares each memory file's mtime and
  size with what was indexed (a ``scandir`` walk, no file opened) and re-chunks only what
  changed; a file whose bytes hash the same is not re-chunked.
* **Never an error for a broken index.** A missing, corrupt or old-schema database is
  rebuilt from the files; the user only sees results.
* **A full rebuild is atomic.** It is written to a temp file and swapped in with
  ``os.replace``; readers see the old index or the new one. Vectors of unchanged chunks are
  carried over, so a rebuild does not re-embed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import FormatError
from ..files.confine import RootGuard
from ..files.locks import FileLock
from ..files.store import read_bytes
from ..files.text import decode
from ..root import Workspace
from . import kinds
from .database import (
    DB_NAME,
    SCHEMA,
    SCHEMA_VERSION,
    add_to_count,
    bump_generation,
    check_schema,
    connect_db,
    db_path,
    empty_index,
    index_write_error,
)

if TYPE_CHECKING:
    from .chunker import Chunk

Progress = Callable[[int, int], None]


@dataclass
class RefreshReport:
    """What one refresh or rebuild did; ``problems`` are files that could not be read."""

    files_seen: int = 0
    files_changed: int = 0
    files_removed: int = 0
    chunks_added: int = 0
    chunks_removed: int = 0
    vectors_added: int = 0
    rebuilt: bool = False
    reason: str = ""
    seconds: float = 0.0
    problems: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


class SearchIndex:
    """The index of one workspace. Cheap to construct; opens SQLite per operation."""

    def __init__(self, workspace: Workspace, *, transcripts: bool = False) -> None:
        self.workspace = workspace
        self.path = db_path(workspace)
        #: Index the agents' transcripts too (``transcript_source``); only a reindex or a
        #: rebuild reads them.
        self.transcripts = transcripts

    def lock(self, timeout: float = 60.0) -> FileLock:
        return FileLock(
            self.workspace.locks_dir / "search-index.lock",
            timeout=timeout,
            make_folder=RootGuard(self.workspace).make_folder,
        )

    @contextlib.contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """An open, checked index; rebuilt first when it is missing, corrupt or outdated.

        Where there is no memory root yet, an empty index in memory answers: a search
        there finds nothing and creates nothing. A disk that fails under the index (full,
        read-only) is a ``WriteError``; the memory files are never touched by it.
        """
        guard = RootGuard(self.workspace)
        con: sqlite3.Connection | None = None
        if not guard.memory_root_exists():
            con = empty_index()
        else:
            guard.check(self.path)  # never an index reached through a link out of the root
            con = self._open_checked()
        if con is None:
            self.rebuild(reason="index missing or unreadable")
            con = self._open_checked()
            if con is None:
                raise FormatError("the search index could not be rebuilt", path=str(self.path))
        try:
            yield con
        except (sqlite3.OperationalError, OSError) as exc:
            error = index_write_error(exc, self.workspace.relative(self.path))
            if error is None:
                raise
            raise error from exc
        finally:
            con.close()

    def readable(self) -> bool:
        """True when the index exists and is a readable index of this schema."""
        con = self._open_checked()
        if con is None:
            return False
        con.close()
        return True

    def _open_checked(self) -> sqlite3.Connection | None:
        if not self.path.is_file():
            return None
        con = None
        try:
            con = connect_db(self.path)
            check_schema(con)
        except sqlite3.DatabaseError:
            if con is not None:
                con.close()
            return None
        return con

    # -- incremental refresh ---------------------------------------------------------------

    def refresh(self, con: sqlite3.Connection, *, sources: bool = False) -> RefreshReport:
        """Bring the index up to date with the files; cheap when nothing changed.

        ``sources`` (a reindex) also looks at the transcripts: new and changed ones are
        indexed, gone ones (or all, when the setting is off) dropped. Without it, indexed
        transcripts are left as they are.
        """
        started = time.perf_counter()
        report = RefreshReport()
        found = self._stamps(sources)
        report.files_seen = len(found)
        if not self._pending(con, found, sources):
            return report
        with self.lock():
            stats = {s.file.rel: s for s in self._walk(sources)}
            report.files_seen = len(stats)
            known = self._known(con, sources)
            now = time.time_ns()
            changed = [
                s for rel, s in stats.items() if _stale(known.get(rel), s.mtime_ns, s.size, now)
            ]
            removed = [rel for rel in known if rel not in stats]
            self._apply(con, known, changed, removed, report)
        report.seconds = time.perf_counter() - started
        return report

    def behind(self, con: sqlite3.Connection) -> bool:
        """True when a memory file changed since it was indexed (what ``refresh`` would do)."""
        return self._pending(con, self._stamps(False), False)

    def add_source(
        self, con: sqlite3.Connection, stat: kinds.FileStat, *, wait: float = 60.0
    ) -> RefreshReport:
        """(Re-)index one file that no walk finds (a transcript) if it changed."""
        started = time.perf_counter()
        report = RefreshReport()
        with self.lock(timeout=wait):
            known = self._known(con)
            if _stale(known.get(stat.file.rel), stat.mtime_ns, stat.size, time.time_ns()):
                self._apply(con, known, [stat], [], report)
        report.seconds = time.perf_counter() - started
        return report

    def _apply(
        self,
        con: sqlite3.Connection,
        known: dict[str, tuple[int, int, str | None]],
        changed: list[kinds.FileStat],
        removed: list[str],
        report: RefreshReport,
    ) -> None:
        """Drop ``removed`` and re-chunk ``changed`` in one transaction (the lock is held)."""
        con.execute("BEGIN IMMEDIATE")
        try:
            for rel in removed:
                report.chunks_removed += self._drop(con, rel)
                con.execute("DELETE FROM files WHERE path=?", (rel,))
            for stat in changed:
                if self._index_file(con, stat, known.get(stat.file.rel), report):
                    report.files_changed += 1
            report.files_removed = len(removed)
            if report.files_changed or removed:
                bump_generation(con)
                add_to_count(con, report.chunks_added - report.chunks_removed)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def _walk(self, sources: bool) -> Iterator[kinds.FileStat]:
        yield from kinds.walk(self.workspace)
        if sources and self.transcripts:
            from .transcript_source import transcript_stats

            yield from transcript_stats(self.workspace)

    def _stamps(self, sources: bool) -> dict[str, kinds.Stamp]:
        found = kinds.stamps(self.workspace)
        if sources and self.transcripts:
            from .transcript_source import transcript_stats

            for stat in transcript_stats(self.workspace):
                found[stat.file.rel] = (stat.file.location, stat.mtime_ns, stat.size)
        return found

    def _pending(
        self, con: sqlite3.Connection, found: dict[str, kinds.Stamp], sources: bool
    ) -> bool:
        known = self._known(con, sources)
        if known.keys() != found.keys():
            return True
        now = time.time_ns()
        return any(
            _stale(known[rel], mtime_ns, size, now) for rel, (_, mtime_ns, size) in found.items()
        )

    @staticmethod
    def _known(
        con: sqlite3.Connection, sources: bool = True
    ) -> dict[str, tuple[int, int, str | None]]:
        """Indexed files; transcripts only when this pass looks at them (``sources``)."""
        sql = "SELECT path, mtime_ns, size, hash FROM files"
        if not sources:
            sql += f" WHERE kind != '{kinds.TRANSCRIPT}'"
        return {path: (mtime, size, digest) for path, mtime, size, digest in con.execute(sql)}

    @staticmethod
    def _drop(con: sqlite3.Connection, rel: str) -> int:
        ids = [row[0] for row in con.execute("SELECT id FROM chunks WHERE path=?", (rel,))]
        con.executemany("DELETE FROM chunks_fts WHERE rowid=?", ((i,) for i in ids))
        con.executemany("DELETE FROM vectors WHERE chunk=?", ((i,) for i in ids))
        con.execute("DELETE FROM chunks WHERE path=?", (rel,))
        return len(ids)

    def _index_file(
        self,
        con: sqlite3.Connection,
        stat: kinds.FileStat,
        previous: tuple[int, int, str | None] | None,
        report: RefreshReport,
    ) -> bool:
        """(Re-)chunk one file; False when its bytes had not changed after all."""
        file = stat.file
        try:
            if file.kind == kinds.TRANSCRIPT:
                from .transcript_source import transcript_bytes

                data = transcript_bytes(stat)
            else:
                data = read_bytes(file.path)
        except FormatError as exc:  # over the size limit, or no longer a regular file
            report.problems[file.rel] = str(exc)
            data = None
        if data is None:  # vanished between the walk and now, or cannot be read
            report.chunks_removed += self._drop(con, file.rel)
            con.execute("DELETE FROM files WHERE path=?", (file.rel,))
            return True
        digest = hashlib.sha1(data, usedforsecurity=False).hexdigest()
        if previous is not None and previous[2] == digest:
            con.execute(
                "UPDATE files SET mtime_ns=?, size=? WHERE path=?",
                (stat.mtime_ns, stat.size, file.rel),
            )
            return False
        # Chunking is imported only when a file changed: most queries find nothing to do.
        from ..redact import redact
        from .chunker import chunk_file
        from .records import kept_vectors, store_chunks

        error = None
        chunks: list[Chunk] = []
        try:
            if file.kind == kinds.TRANSCRIPT:
                from .transcript_source import chunk_transcript

                chunks = chunk_transcript(file)
            else:
                # Redacted whole before it is cut into chunks: a secret over a chunk's
                # edge would otherwise leave a piece in each that no detector knows.
                whole = redact(decode(data, file.rel)[0], keep_lines=True)[0]
                chunks = chunk_file(file, whole)
        except FormatError as exc:
            error = str(exc)
            report.problems[file.rel] = error
        kept = kept_vectors(con, file.rel)
        report.chunks_removed += self._drop(con, file.rel)
        report.chunks_added += store_chunks(con, file, chunks, kept)
        con.execute(
            "INSERT OR REPLACE INTO files(path, kind, mtime_ns, size, hash, error)"
            " VALUES (?,?,?,?,?,?)",
            (file.rel, file.kind, stat.mtime_ns, stat.size, None if error else digest, error),
        )
        return True

    # -- full rebuild ----------------------------------------------------------------------

    def rebuild(
        self, *, reason: str = "requested", progress: Progress | None = None
    ) -> RefreshReport:
        """Build a fresh index beside the old one and swap it in atomically."""
        started = time.perf_counter()
        report = RefreshReport(rebuilt=True, reason=reason)
        guard = RootGuard(self.workspace)
        guard.require_memory_root("nothing to index")  # an index never starts a memory root
        guard.make_folder(self.workspace.state_dir)
        try:
            self._rebuild_locked(report, progress)
        except (sqlite3.OperationalError, OSError) as exc:
            error = index_write_error(exc, self.workspace.relative(self.path))
            if error is None:
                raise
            raise error from exc
        report.seconds = time.perf_counter() - started
        return report

    def _rebuild_locked(self, report: RefreshReport, progress: Progress | None) -> None:
        with self.lock():
            tmp = self.path.with_name(f".{DB_NAME}.{os.getpid()}.tmp")
            tmp.unlink(missing_ok=True)
            try:
                self._build_into(tmp, report, progress)
                with open(tmp, "rb+") as handle:
                    os.fsync(handle.fileno())
                for stale in ("-journal", "-wal", "-shm"):
                    Path(f"{self.path}{stale}").unlink(missing_ok=True)
                os.replace(tmp, self.path)
            finally:
                tmp.unlink(missing_ok=True)

    def _build_into(self, tmp: Path, report: RefreshReport, progress: Progress | None) -> None:
        con = connect_db(tmp)
        try:
            con.execute("PRAGMA journal_mode=OFF")
            con.execute("PRAGMA synchronous=OFF")
            con.executescript(SCHEMA)
            con.execute(
                "INSERT INTO meta VALUES ('schema', ?), ('generation', '1'), ('chunks', '0')",
                (SCHEMA_VERSION,),
            )
            self._attach_old(con)
            stats = list(self._walk(sources=True))
            report.files_seen = len(stats)
            con.execute("BEGIN")
            for done, stat in enumerate(stats, 1):
                self._index_file(con, stat, None, report)
                if progress is not None:
                    progress(done, len(stats))
            add_to_count(con, report.chunks_added - report.chunks_removed)
            con.execute("COMMIT")
            report.files_changed = len(stats)
            with contextlib.suppress(sqlite3.DatabaseError):
                con.execute("DETACH old")
        finally:
            con.close()

    def _attach_old(self, con: sqlite3.Connection) -> None:
        """Make the old index's vectors reusable by ``records.kept_vectors`` (if it is readable)."""
        old = self._open_checked()
        if old is None:
            return
        old.close()
        try:
            con.execute("ATTACH DATABASE ? AS old", (str(self.path),))
            con.execute(
                "CREATE TEMP TABLE carried AS SELECT c.path AS path, v.ehash AS ehash,"
                " v.model AS model, v.vec AS vec FROM old.vectors v JOIN old.chunks c"
                " ON c.id = v.chunk"
            )
            con.execute("CREATE INDEX temp.carried_path ON carried(path)")
        except sqlite3.DatabaseError:
            return


#: A file modified this recently may change again within the filesystem's mtime resolution
#: without its stat changing, so it is re-hashed on every look until it settles.
RACY_NS = 2_000_000_000


def _stale(
    known: tuple[int, int, str | None] | None, mtime_ns: int, size: int, now_ns: int
) -> bool:
    """Whether a file of this mtime and size may differ from what was indexed."""
    if known is None or known[0] != mtime_ns or known[1] != size:
        return True
    return now_ns - mtime_ns < RACY_NS

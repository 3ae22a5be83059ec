"""What each page of the viewer reads, taken from the core rooms and nothing else.

Every method is one call into the room that owns the file (the board, the notes, the
journal, the search index), so the viewer shows exactly what the CLI would and inherits its
checks: a session ID is validated by the board before any path is built from it, a chunk ID
by the search index, and a damaged file raises the room's ``FormatError`` with path and
line. Files are read fresh on every request, so a page is never older than the files.

Nothing here writes a memory file. Reading the board takes its lock (a runtime file under
``memory/.workmem/``) so a page never shows a half-written table, and searching refreshes
the derived index there, as ``workmem search`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..root import Workspace

if TYPE_CHECKING:
    from ..board import Board
    from ..board.inspect import SessionView
    from ..board.model import BoardRow
    from ..journal.events import Event
    from ..journal.threads import Thread, ThreadsDoc
    from ..retrieval.hits import Hit, Timeline

#: The most hits one search page asks for; the CLI has no cap, a browser tab needs one.
MAX_HITS = 100


@dataclass(frozen=True)
class SessionPage:
    """A session as the board shows it, plus its running notes when it has any."""

    view: SessionView
    snapshot_path: str
    notes: str | None
    notes_path: str

    def to_dict(self) -> dict[str, object]:
        return {
            **self.view.to_dict(),
            "snapshot_path": self.snapshot_path,
            "notes": self.notes,
            "notes_path": self.notes_path,
        }


@dataclass(frozen=True)
class ThreadsPage:
    """``memory/threads.md`` as parsed by the journal (``doc`` is None when there is none)."""

    path: str
    doc: ThreadsDoc | None
    text: str | None

    def to_dict(self) -> dict[str, object]:
        from ..journal.threads import CLOSED, DECISIONS, OPEN

        def items(thread: Thread, which: str) -> list[str]:
            part = thread.part(which)
            return part.items() if part is not None else []

        threads = self.doc.threads if self.doc is not None else []
        return {
            "path": self.path,
            "threads": [
                {
                    "id": t.id,
                    "name": t.name,
                    "status": t.status() or None,
                    "last_touched": t.last_touched() or None,
                    "position": t.position() or None,
                    "decisions": items(t, DECISIONS),
                    "open_questions": items(t, OPEN),
                    "closed_questions": items(t, CLOSED),
                    "text": t.text(),
                }
                for t in threads
            ],
        }


@dataclass(frozen=True)
class EventsPage:
    """The ledger as a timeline: dated events newest first, then the undated ones."""

    path: str
    dated: list[Event] = field(default_factory=list)
    undated: list[Event] = field(default_factory=list)
    skipped: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "events": [e.to_json() for e in self.dated],
            "undated": [e.to_json() for e in self.undated],
            "skipped": self.skipped,
        }


class MemoryReader:
    """Read-only access to one workspace, one core call per page."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def _board(self) -> Board:
        from ..board import Board

        return Board(self.workspace.root)

    def _show(self, path: Path) -> str:
        return self.workspace.relative(path)

    def board(self, statuses: list[str] | None = None) -> list[BoardRow]:
        return self._board().list(statuses or None)

    def session(self, session_id: str) -> SessionPage:
        from ..notes.workflow import notes_path

        board = self._board()
        view = board.show(session_id)  # validates the ID before any path is built from it
        sid = view.session_id
        where = (
            self.workspace.archived_session_dir(sid)
            if view.archived
            else self.workspace.snapshot_file(sid)
        )
        path = notes_path(self.workspace, sid)
        current = board.ctx.store.read_text(path)
        notes = current[0] if current else None
        return SessionPage(view, self._show(where), notes, self._show(path))

    def threads(self) -> ThreadsPage:
        from ..files.store import Store
        from ..journal.paths import JournalPaths
        from ..journal.threads import ThreadsDoc

        path = JournalPaths(self.workspace).threads
        current = Store(self.workspace).read_text(path)
        if current is None:
            return ThreadsPage(self._show(path), None, None)
        return ThreadsPage(self._show(path), ThreadsDoc.parse(current[0]), current[0])

    def events(self) -> EventsPage:
        from ..files.store import Store
        from ..journal.events import read_ledger
        from ..journal.paths import JournalPaths

        path = JournalPaths(self.workspace).events
        ledger = read_ledger(Store(self.workspace), path)
        dated, undated = ledger.timeline()
        return EventsPage(self._show(path), dated, undated, ledger.skipped)

    def search(self, query: str, *, kinds: list[str] | None = None, k: int = 10) -> list[Hit]:
        from ..retrieval.search import search

        if k > MAX_HITS:
            raise UsageError(f"k is at most {MAX_HITS} in the viewer, got {k}")
        if not query.strip():
            return []
        return search(self.workspace, query, k=k, kinds=kinds or None)

    def chunk(self, chunk_id: str) -> Timeline:
        """One chunk whole with its neighbours in time.

        ``timeline`` opens the chunk with ``get`` (its anchor is ``get``'s hit, provenance
        and all), so one call checks the ID, refreshes the index and finds the neighbours.
        """
        from ..retrieval.search import timeline

        return timeline(self.workspace, chunk_id)

"""What each page of the viewer reads, taken from the core rooms and nothing else.

Every method is one call into the room that owns the file (the board, the notes, the
journal, the search index), so the viewer shows exactly what the CLI would and inherits its
checks: a session ID is validated by the board before any path is built from it, a chunk ID
by the search index, and a damaged file raises the room's ``FormatError`` with path and
line. Files are read fresh on every request, so a page is never older than the files.

Nothing here writes a memory file. Every write replaces a file in one rename, so a page
never shows a half-written table and a read needs no lock; searching refreshes the derived
index under ``memory/.workmem/``, as ``workmem search`` does.

Long lists (a board of thousands of rows, a year of events) come in pages: a browser tab
cannot show 10,000 table rows quickly, and a page of them is what a person reads anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from ..errors import NotFoundError, UsageError
from ..root import Workspace

if TYPE_CHECKING:
    from ..board import Board
    from ..board.digest import SessionDigest
    from ..board.inspect import SessionView
    from ..board.model import BoardRow
    from ..journal.events import Event
    from ..journal.threads import Thread, ThreadsDoc
    from ..retrieval.hits import Hit, Timeline

#: The most hits one search page asks for; the CLI has no cap, a browser tab needs one.
MAX_HITS = 100
#: Rows of a board or events page unless asked otherwise, and the most one page may hold.
PER_PAGE = 100
MAX_PER_PAGE = 1000

T = TypeVar("T")


@dataclass(frozen=True)
class Paged(Generic[T]):
    """One page of a longer list: its items, and where it sits in the whole."""

    items: list[T]
    page: int
    pages: int
    total: int
    per_page: int

    @property
    def first(self) -> int:
        """1-based position of the first item shown (0 when the list is empty)."""
        return (self.page - 1) * self.per_page + 1 if self.items else 0

    @property
    def last(self) -> int:
        return self.first + len(self.items) - 1 if self.items else 0

    def paging(self) -> dict[str, int]:
        return {
            "page": self.page,
            "pages": self.pages,
            "per_page": self.per_page,
            "total": self.total,
        }


def paginate(items: Sequence[T], page: int = 1, per_page: int = PER_PAGE) -> Paged[T]:
    """Page ``page`` (from 1) of ``items``; a page past the end is not found.

    An empty list has one (empty) page, so page 1 always exists.
    """
    if per_page < 1 or per_page > MAX_PER_PAGE:
        raise UsageError(f"per_page takes 1 to {MAX_PER_PAGE} rows, got {per_page}")
    if page < 1:
        raise UsageError(f"page numbers start at 1, got {page}")
    pages = max(1, -(-len(items) // per_page))
    if page > pages:
        raise NotFoundError(f"there is no page {page}: the list has {pages} page(s)")
    start = (page - 1) * per_page
    return Paged(list(items[start : start + per_page]), page, pages, len(items), per_page)


@dataclass(frozen=True)
class SessionPage:
    """A session as the board shows it, its running notes when it has any, and what it did
    and what is next (``board.digest``)."""

    view: SessionView
    snapshot_path: str
    notes: str | None
    notes_path: str
    digest: SessionDigest

    def to_dict(self) -> dict[str, object]:
        return {
            **self.view.to_dict(),
            "snapshot_path": self.snapshot_path,
            "notes": self.notes,
            "notes_path": self.notes_path,
            "digest": self.digest.to_dict(),
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
    """One page of the ledger as a timeline: dated events newest first, then the undated.

    ``paged`` pages through both in that order; ``dated`` and ``undated`` are the parts of
    this page that fall in each.
    """

    path: str
    paged: Paged[Event]
    dated: list[Event] = field(default_factory=list)
    undated: list[Event] = field(default_factory=list)
    skipped: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "events": [e.to_json() for e in self.dated],
            "undated": [e.to_json() for e in self.undated],
            "skipped": self.skipped,
            **self.paged.paging(),
        }


@dataclass(frozen=True)
class BoardPage:
    """One page of the board's rows, in the board's own order, and the filter used."""

    paged: Paged[BoardRow]
    statuses: list[str]

    def to_dict(self) -> dict[str, object]:
        return {"sessions": [r.to_dict() for r in self.paged.items], **self.paged.paging()}


@dataclass(frozen=True)
class SearchRequest:
    """What the search form asks: the words and the filters the core search takes."""

    query: str
    kinds: list[str] = field(default_factory=list)
    k: int = 10
    since: date | None = None
    until: date | None = None
    session: str | None = None


class MemoryReader:
    """Read-only access to one workspace, one core call per page."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def _board(self) -> Board:
        from ..board import Board

        return Board(self.workspace.root)

    def _show(self, path: Path) -> str:
        return self.workspace.relative(path)

    def board(
        self, statuses: list[str] | None = None, page: int = 1, per_page: int = PER_PAGE
    ) -> BoardPage:
        rows = self._board().list(statuses or None)
        return BoardPage(paginate(rows, page, per_page), list(statuses or []))

    def session(self, session_id: str) -> SessionPage:
        from ..board.digest import session_digest
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
        digest = session_digest(board.ctx.store, view)
        return SessionPage(view, self._show(where), notes, self._show(path), digest)

    def threads(self) -> ThreadsPage:
        from ..files.store import Store
        from ..journal.paths import JournalPaths
        from ..journal.threads import ThreadsDoc

        path = JournalPaths(self.workspace).threads
        current = Store(self.workspace).read_text(path)
        if current is None:
            return ThreadsPage(self._show(path), None, None)
        return ThreadsPage(self._show(path), ThreadsDoc.parse(current[0]), current[0])

    def events(self, page: int = 1, per_page: int = PER_PAGE) -> EventsPage:
        from ..files.store import Store
        from ..journal.events import read_ledger
        from ..journal.paths import JournalPaths

        path = JournalPaths(self.workspace).events
        ledger = read_ledger(Store(self.workspace), path)
        dated, undated = ledger.timeline()
        paged = paginate([*dated, *undated], page, per_page)
        shown_dated = paged.items[: max(0, len(dated) - (paged.first - 1))] if paged.items else []
        shown_undated = paged.items[len(shown_dated) :]
        return EventsPage(self._show(path), paged, shown_dated, shown_undated, ledger.skipped)

    def search(self, request: SearchRequest) -> list[Hit]:
        from ..retrieval.search import search

        if request.k > MAX_HITS:
            raise UsageError(f"k is at most {MAX_HITS} in the viewer, got {request.k}")
        if not request.query.strip():
            return []
        return search(
            self.workspace,
            request.query,
            k=request.k,
            kinds=request.kinds or None,
            since=request.since,
            until=request.until,
            session=request.session or None,
        )

    def chunk(self, chunk_id: str) -> Timeline:
        """One chunk whole with its neighbours in time.

        ``timeline`` opens the chunk with ``get`` (its anchor is ``get``'s hit, provenance
        and all), so one call checks the ID, refreshes the index and finds the neighbours.
        """
        from ..retrieval.search import timeline

        return timeline(self.workspace, chunk_id)

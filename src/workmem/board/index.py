"""``memory/index.md`` as a locked, verified table of ``BoardRow``.

Every change happens inside ``BoardIndex.transaction()``: the lock is taken, the latest
file is re-read (never an older copy), the caller edits rows, and on exit only the rows it
touched are re-rendered, the file is written atomically and the touched rows are verified
in the re-read file. A parse error raises before anything is written.

A transaction that also writes files beside the board (snapshots, archive entries) says so
with ``BoardEdit.will_write`` before each one; a process killed between those writes and
the board's is completed by the next transaction (``intent``).

Free-text cells (Topic, Summary, Keywords) are neutralised here, the one place every board
write goes through, so no value can start a heading, a rule or a comment (``files.freetext``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import NotFoundError, UsageError, WriteError
from ..files.freetext import neutralize_line
from ..files.store import FileUndo, Store
from ..files.tables import Row, TableDocument, split_cells, unescape_cell
from ..files.text import TextStyle
from ..root import Workspace
from .model import BOARD_TITLE, COLUMNS, FREE_TEXT_COLUMNS, BoardRow

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .intent import Intent

#: The file an interrupted transaction leaves (see ``intent``); named here so a transaction
#: that finds none pays one ``stat`` and imports nothing.
INTENT_NAME = "board-intent.json"


def between_writes() -> None:
    """Called after a transaction's files beside the board are written, before the board.

    Does nothing. It is the one place a test stops a real process (and kills it) between
    the two halves of a change, to prove the next command completes it.
    """


def neutral_row(row: BoardRow) -> BoardRow:
    """``row`` with its free-text cells made safe (idempotent: neutral text is unchanged)."""
    for name in FREE_TEXT_COLUMNS:
        value = getattr(row, name)
        safe = neutralize_line(value)
        if safe != value:
            setattr(row, name, safe)
    return row


@dataclass
class BoardEdit:
    """The board as read inside a transaction, with the changes the caller made."""

    doc: TableDocument
    style: TextStyle
    _by_id: dict[str, Row] = field(default_factory=dict)
    _expect: dict[str, BoardRow | None] = field(default_factory=dict)
    _rollbacks: list[Callable[[], None]] = field(default_factory=list)
    _removed: set[int] = field(default_factory=set)
    #: files written beside the board in this transaction: (path, sha256 of new content)
    _side_files: list[tuple[Path, str]] = field(default_factory=list)
    _journal: Callable[[BoardEdit], None] | None = None

    def __post_init__(self) -> None:
        for row in self.doc.rows:
            self._by_id.setdefault(row.key, row)

    def rows(self) -> list[BoardRow]:
        return [
            BoardRow.from_values(list(r.values))
            for r in self.doc.rows
            if id(r) not in self._removed
        ]

    def ids(self) -> set[str]:
        return set(self._by_id)

    def get(self, session_id: str) -> BoardRow | None:
        row = self._by_id.get(session_id)
        return BoardRow.from_values(list(row.values)) if row else None

    def require(self, session_id: str) -> BoardRow:
        found = self.get(session_id)
        if found is None:
            raise NotFoundError(f"session {session_id} is not on the board (memory/index.md)")
        return found

    def append(self, row: BoardRow) -> None:
        neutral_row(row)
        self._by_id[row.session_id] = self.doc.append(row.values())
        self._expect[row.session_id] = row

    def put(self, row: BoardRow) -> None:
        """Replace the values of an existing row; untouched cells keep their source text."""
        neutral_row(row)
        target = self._by_id[row.session_id]
        for column, value in zip(COLUMNS, row.values(), strict=True):
            self.doc.set_value(target, column, value)
        self._expect[row.session_id] = row

    def remove(self, session_id: str) -> BoardRow:
        target = self._by_id.pop(session_id)
        self._removed.add(id(target))  # dropped from doc.rows once, in finish()
        self._expect[session_id] = None
        return BoardRow.from_values(list(target.values))

    def finish(self) -> str:
        """The new file text, with removed rows gone and every other row as it was."""
        if self._removed:
            self.doc.rows = [r for r in self.doc.rows if id(r) not in self._removed]
            self._removed.clear()
        return self.doc.render()

    def on_rollback(self, undo: Callable[[], None]) -> None:
        """Run ``undo`` if the transaction fails, e.g. to take back a snapshot write."""
        self._rollbacks.append(undo)

    def will_write(self, path: Path, data: bytes) -> None:
        """Say, before writing it, that ``path`` is about to hold ``data``.

        Call it after the row changes that go with the file (``put``, ``append``,
        ``remove``): the note it leaves records them, so that a process killed after the
        file and before the board still gets its rows written, by the next transaction.
        """
        from .intent import digest

        self._side_files.append((path, digest(data)))
        if self._journal is not None:
            self._journal(self)

    def intended_rows(self) -> dict[str, list[str] | None]:
        return {
            sid: (row.values() if row is not None else None) for sid, row in self._expect.items()
        }

    @property
    def changed(self) -> bool:
        return bool(self._expect)


def empty_board() -> TableDocument:
    return TableDocument(header=list(COLUMNS), before=[BOARD_TITLE, ""], after=[])


class BoardIndex:
    def __init__(self, workspace: Workspace, store: Store):
        self.workspace = workspace
        self.store = store
        self.path = workspace.board_file

    def _load(self) -> BoardEdit:
        current = self.store.read_text(self.path)
        if current is None or not current[0].strip():
            style = current[1] if current else TextStyle()
            return BoardEdit(empty_board(), style)
        text, style = current
        doc = TableDocument.parse(text, expected_header=COLUMNS, path=self.store.show(self.path))
        return BoardEdit(doc, style)

    def read(self) -> BoardEdit:
        """A consistent snapshot of the board. No lock: every write replaces the file in one
        rename, so a reader sees a whole board, and a read creates nothing (no lock file)."""
        return self._load()

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the board lock across several steps (e.g. snapshot and row writes)."""
        with self.store.lock(self.path):
            yield

    @property
    def intent_file(self) -> Path:
        return self.workspace.state_dir / INTENT_NAME

    @contextmanager
    def transaction(self) -> Iterator[BoardEdit]:
        with self.store.lock(self.path):
            self.finish_interrupted()
            edit = self._load()
            edit._journal = self._write_intent
            try:
                yield edit
                if edit.changed:
                    edit.on_rollback(FileUndo(self.path, self.store.read_bytes(self.path)).restore)
                    if edit._side_files:
                        between_writes()
                    self.store.write_text(self.path, edit.finish(), edit.style)
                    self._verify(edit)
            except BaseException:
                for undo in reversed(edit._rollbacks):
                    undo()
                raise
            finally:
                if edit._side_files:
                    from .intent import clear_intent

                    clear_intent(self.store)

    def _write_intent(self, edit: BoardEdit) -> None:
        from .intent import Intent, write_intent

        files = [(self.workspace.relative(path), sha) for path, sha in edit._side_files]
        write_intent(self.store, Intent(files=files, rows=edit.intended_rows()))

    def pending_intent(self) -> Intent | None:
        """The note a killed transaction left (read under the board lock), if any."""
        if not self.intent_file.exists():
            return None
        from .intent import read_intent

        with self.store.lock(self.path):
            return read_intent(self.store)

    def finish_interrupted(self) -> str | None:
        """Complete, or drop, the change a killed transaction left half-written.

        Returns what was done ("completed", "dropped", "unreadable"), or ``None`` when
        there was nothing to finish. Runs under the board lock, at the start of every
        transaction, so the next command completes what the killed one began.
        """
        if not self.intent_file.exists():
            return None
        from .intent import clear_intent, read_intent

        with self.store.lock(self.path):
            try:
                intent = read_intent(self.store)
            except UsageError:
                clear_intent(self.store)  # a note we cannot read cannot be acted on
                return "unreadable"
            if intent is None:
                return None
            outcome = "dropped"
            if intent.landed(self.workspace):
                edit = self._load()
                _apply_rows(edit, intent.rows)
                if edit.changed:
                    self.store.write_text(self.path, edit.finish(), edit.style)
                    self._verify(edit)
                outcome = "completed"
            clear_intent(self.store)
            return outcome

    def _verify(self, edit: BoardEdit) -> None:
        """Re-read the board: every row changed holds what was meant, or what was meant
        with its secrets redacted (the write path takes them out)."""
        from ..redact import stored_row

        reread = self.store.read_text(self.path)
        text = reread[0] if reread else ""
        found: dict[str, list[list[str]]] = {}
        wanted = set(edit._expect)
        # Unless escaping changed an ID ("|", newlines), a row's line holds its ID as written,
        # so lines holding none of the wanted IDs (most of a big board) are not split.
        literal = len(wanted) <= 16 and not any("|" in k or "\n" in k for k in wanted)
        for line in text.split("\n"):
            if "|" not in line or (literal and not any(k in line for k in wanted)):
                continue
            cells = split_cells(line)
            key = unescape_cell(cells[0])
            if key in wanted:
                found.setdefault(key, []).append([unescape_cell(c) for c in cells])
        for session_id, expected in edit._expect.items():
            rows = found.get(session_id, [])
            if expected is None:
                if rows:
                    raise WriteError(f"verification failed: {session_id} is still on the board")
            elif rows != [expected.values()] and rows != [stored_row(expected.values())]:
                raise WriteError(
                    f"verification failed: row {session_id} does not hold the intended values"
                )


def _apply_rows(edit: BoardEdit, rows: dict[str, list[str] | None]) -> None:
    """Bring the board to the rows an interrupted transaction meant to leave."""
    for sid, values in rows.items():
        present = edit.get(sid)
        if values is None:
            if present is not None:
                edit.remove(sid)
        elif present is None:
            edit.append(BoardRow.from_values(values))
        elif present.values() != values:
            edit.put(BoardRow.from_values(values))


__all__ = ["BoardEdit", "BoardIndex", "between_writes", "empty_board", "neutral_row"]

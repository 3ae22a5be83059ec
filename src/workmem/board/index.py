"""``memory/index.md`` as a locked, verified table of ``BoardRow``.

Every change happens inside ``BoardIndex.transaction()``: the lock is taken, the latest
file is re-read (never an older copy), the caller edits rows, and on exit only the rows it
touched are re-rendered, the file is written atomically and the touched rows are verified
in the re-read file. A parse error raises before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..errors import NotFoundError, WriteError
from ..files.store import FileUndo, Store
from ..files.tables import Row, TableDocument, split_cells, unescape_cell
from ..files.text import TextStyle
from ..root import Workspace
from .model import BOARD_TITLE, COLUMNS, BoardRow


@dataclass
class BoardEdit:
    """The board as read inside a transaction, with the changes the caller made."""

    doc: TableDocument
    style: TextStyle
    _by_id: dict[str, Row] = field(default_factory=dict)
    _expect: dict[str, BoardRow | None] = field(default_factory=dict)
    _rollbacks: list[Callable[[], None]] = field(default_factory=list)
    _removed: set[int] = field(default_factory=set)

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
        self._by_id[row.session_id] = self.doc.append(row.values())
        self._expect[row.session_id] = row

    def put(self, row: BoardRow) -> None:
        """Replace the values of an existing row; untouched cells keep their source text."""
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

    @contextmanager
    def transaction(self) -> Iterator[BoardEdit]:
        with self.store.lock(self.path):
            edit = self._load()
            try:
                yield edit
                if edit.changed:
                    edit.on_rollback(FileUndo(self.path, self.store.read_bytes(self.path)).restore)
                    self.store.write_text(self.path, edit.finish(), edit.style)
                    self._verify(edit)
            except BaseException:
                for undo in reversed(edit._rollbacks):
                    undo()
                raise

    def _verify(self, edit: BoardEdit) -> None:
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
            elif rows != [expected.values()]:
                raise WriteError(
                    f"verification failed: row {session_id} does not hold the intended values"
                )


__all__ = ["BoardEdit", "BoardIndex", "empty_board"]

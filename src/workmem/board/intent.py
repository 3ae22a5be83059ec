"""Finishing a board change that a killed process left half-written.

Many board workflows write two files: a snapshot (or an archive entry) and the board. No
filesystem writes two files in one step, so a process killed between them (kill -9, a
power cut, an agent that kills its hook) would leave one side only: a snapshot that
continues from a session whose Referenced By does not say so, a merged snapshot under its
old board row. So before a transaction writes any file beside the board, it writes down
what it is about to do, the files (with a hash of their new content) and the board rows it
will write after them, in ``memory/.workmem/board-intent.json``, and it removes that note
once the board is written and verified, or once a failure was rolled back.

The note is written and removed under the board lock, so the next process that takes the
lock finds one only when its writer died in between. That process completes the change
before doing its own work: when a file beside the board already holds its new content, the
board rows are written as intended (roll forward); when none does, nothing was written and
the note is dropped. ``workmem doctor`` reports a note left behind and ``--fix`` completes it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError, UsageError
from ..files.store import read_bytes
from .model import COLUMNS, check_session_id

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..files.store import Store
    from ..root import Workspace

INTENT_NAME = "board-intent.json"


def intent_path(workspace: Workspace) -> Path:
    return workspace.state_dir / INTENT_NAME


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Intent:
    """What an interrupted transaction was writing: side files first, then these rows."""

    #: (path relative to the root, sha256 of the content it was about to hold)
    files: list[tuple[str, str]]
    #: the board rows as the transaction meant to leave them; ``None`` means removed
    rows: dict[str, list[str] | None]
    pid: int = 0

    def to_json(self) -> str:
        payload = {"pid": self.pid, "files": self.files, "rows": self.rows}
        return json.dumps(payload, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Intent:
        """The note as written, or ``UsageError`` when it cannot be trusted to act on."""
        try:
            data = json.loads(text)
            files = [(str(rel), str(sha)) for rel, sha in data["files"]]
            rows: dict[str, list[str] | None] = {}
            for sid, values in data["rows"].items():
                check_session_id(sid)
                if values is not None:
                    if len(values) != len(COLUMNS) or values[0] != sid:
                        raise ValueError(f"row {sid} does not have the board's columns")
                    values = [str(v) for v in values]
                rows[sid] = values
            return cls(files=files, rows=rows, pid=int(data.get("pid", 0)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise UsageError(f"unreadable note of an interrupted board change: {exc}") from None

    def landed(self, workspace: Workspace) -> bool:
        """True when at least one file beside the board already holds its new content."""
        root = workspace.root.resolve()
        for rel, sha in self.files:
            path = (workspace.root / rel).resolve()
            if not path.is_relative_to(root):
                continue  # a note that names a file outside the root is not ours to follow
            data = read_bytes(path) if path.is_file() else None
            if data is not None and digest(data) == sha:
                return True
        return False


def read_intent(store: Store) -> Intent | None:
    """The note an interrupted transaction left, or ``None``; a corrupt note is ``UsageError``."""
    try:
        current = store.read_text(intent_path(store.workspace))
    except FormatError as exc:  # not UTF-8, or absurdly large: not a note we wrote
        raise UsageError(f"unreadable note of an interrupted board change: {exc}") from None
    if current is None:
        return None
    return Intent.from_json(current[0])


def write_intent(store: Store, intent: Intent) -> None:
    path = intent_path(store.workspace)
    intent.pid = os.getpid()
    with store.lock(path):
        store.write_text(path, intent.to_json())


def clear_intent(store: Store) -> None:
    path = intent_path(store.workspace)
    with store.lock(path):
        path.unlink(missing_ok=True)

"""What every board workflow works with: the workspace, its settings, the store, the clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .. import clock
from ..config import Settings, load_settings
from ..files.store import FileUndo, Store
from ..files.text import PLAIN, decode, encode
from ..platforms.runtime import default_agent_name, running_platform
from ..root import Workspace, open_workspace
from .index import BoardEdit, BoardIndex
from .model import check_agent_name


@dataclass
class BoardContext:
    """Opened once per workflow, so the settings, store and board index are read once."""

    workspace: Workspace
    settings: Settings
    store: Store
    index: BoardIndex
    platform: str

    @classmethod
    def open(cls, root: str | Path | None = None, platform: str | None = None) -> BoardContext:
        workspace = open_workspace(root)
        settings = load_settings(workspace)
        store = Store(workspace, lock_timeout=settings.board.lock_timeout)
        return cls(
            workspace=workspace,
            settings=settings,
            store=store,
            index=BoardIndex(workspace, store),
            platform=platform or running_platform(configured=settings.platform),
        )

    def now(self) -> datetime:
        return clock.now()

    def agent_name(self, override: str | None = None) -> str:
        name = override or self.settings.agent_name or default_agent_name(self.platform)
        return check_agent_name(name)

    def language(self) -> str:
        """The language this call writes the board's texts in (``workmem.i18n``)."""
        from ..i18n import language_for

        return language_for(self.workspace, setting=self.settings.language)

    def snapshot_text(self, session_id: str) -> str | None:
        current = self.store.read_text(self.workspace.snapshot_file(session_id))
        return current[0] if current else None

    def has_snapshot(self, session_id: str) -> bool:
        return self.workspace.snapshot_file(session_id).is_file()

    def snapshot_ids(self) -> set[str]:
        """IDs of every snapshot on disk, from one folder listing (cheap on big boards)."""
        folder = self.workspace.sessions_dir
        if not folder.is_dir():
            return set()
        return {
            p.name[:-3]
            for p in folder.iterdir()
            if p.name.endswith(".md") and not p.name.endswith(".notes.md")
        }

    def write_snapshot(self, session_id: str, text: str, board: BoardEdit) -> None:
        """Write a snapshot inside ``board``'s transaction: noted first, verified, undoable.

        Make the row changes that go with it before calling this: the transaction's note
        (``BoardEdit.will_write``) carries them, so a kill after this write and before the
        board's is completed by the next command. A failed transaction puts the previous
        snapshot back.
        """
        path = self.workspace.snapshot_file(session_id)
        with self.store.lock(path):
            previous = self.store.read_bytes(path)
            style = decode(previous, self.store.show(path))[1] if previous is not None else PLAIN
            board.on_rollback(FileUndo(path, previous).restore)
            board.will_write(path, encode(text, style))
            self.store.write_text(path, text, style)

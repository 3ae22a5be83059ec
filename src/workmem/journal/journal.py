"""What the writer, the loader, init and migrate share: one workspace, opened once.

Readers come in two kinds. The writer reads strictly (a damaged file stops the write with
a ``FormatError``, before anything is written). The loader reads safely: a damaged file
becomes a warning in the metadata and the rest of the memory still loads.

The readers of each file (state, threads, the event ledger) are imported when that file is
read: the session-start hook opens a journal on every new session, and a file that does
not exist, or a ledger only date questions need, should cost it nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..config import Settings, load_settings
from ..errors import WorkmemError
from ..files.store import Store
from ..root import Workspace, open_workspace
from .paths import JournalPaths
from .settings import JournalSettings, journal_settings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .events import Ledger
    from .state import JournalState
    from .threads import Thread

_LOG_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")


@dataclass
class Journal:
    """The workspace, its settings and store, opened once for the writer, loader and migrate."""

    workspace: Workspace
    settings_file: Settings
    settings: JournalSettings
    store: Store
    paths: JournalPaths

    @classmethod
    def open(cls, root: str | Path | None = None) -> Journal:
        workspace = open_workspace(root)
        settings = load_settings(workspace)
        return cls(
            workspace=workspace,
            settings_file=settings,
            settings=journal_settings(settings),
            store=Store(workspace, lock_timeout=settings.board.lock_timeout),
            paths=JournalPaths(workspace),
        )

    def show(self, path: Path) -> str:
        return self.workspace.relative(path)

    # strict readers (the writer) -------------------------------------------------------
    def state(self) -> JournalState:
        from .state import read_state

        return read_state(self.store, self.paths.state)

    def ledger(self) -> Ledger:
        from .events import read_ledger

        return read_ledger(self.store, self.paths.events)

    def text(self, path: Path) -> str | None:
        current = self.store.read_text(path)
        return current[0] if current else None

    # safe readers (the loader) ---------------------------------------------------------
    def safe_text(self, path: Path, warnings: list[str]) -> str | None:
        try:
            return self.text(path)
        except WorkmemError as exc:
            warnings.append(f"skipped {self.show(path)}: {exc}")
            return None

    def safe_state(self, warnings: list[str]) -> JournalState | None:
        try:
            return self.state() if self.paths.state.is_file() else None
        except WorkmemError as exc:
            warnings.append(f"skipped {self.show(self.paths.state)}: {exc}")
            return None

    def safe_threads(self, warnings: list[str]) -> list[Thread]:
        text = self.safe_text(self.paths.threads, warnings)
        if not text:
            return []
        from .threads import ThreadsDoc

        return ThreadsDoc.parse(text).threads

    def safe_ledger(self, warnings: list[str]) -> Ledger | None:
        try:
            return self.ledger()
        except WorkmemError as exc:
            warnings.append(f"skipped {self.show(self.paths.events)}: {exc}")
            return None

    # rules -------------------------------------------------------------------------------
    def review_due(self, state: JournalState | None) -> bool:
        if state is None:
            return False
        from .state import REVIEW_DUE

        every = self.settings.review_every
        return state.flag(REVIEW_DUE) or (every > 0 and state.sessions_since_review >= every)

    def last_maintenance_date(self, warnings: list[str] | None = None) -> str | None:
        """The newest date in MEMORY.md's Maintenance Log (curation writes one per run)."""
        text = self.safe_text(self.paths.memory_md, warnings if warnings is not None else [])
        if not text:
            return None
        from ..facts.memory_md import read_tiers

        try:
            log = read_tiers(text).maintenance_log
        except WorkmemError:
            return None
        found = _LOG_DATE.findall(log)
        return max(found) if found else None

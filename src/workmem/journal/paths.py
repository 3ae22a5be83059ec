"""Where seed 004's files live in the layout DESIGN.md fixes.

The seed calls its daily-log index ``memory/index.md``; in workmem that name is the session
board, so the log index is ``memory/log-index.md``. ``memory/daily/`` is a mirror some tools
expect; nothing here ever writes a canonical log there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..root import Workspace

DAILY_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.md$")
AGENT_FILES = ("AGENT.md", "AGENTS.md")


@dataclass(frozen=True)
class JournalPaths:
    """Seed 004's file names in one place, so no workflow spells a path itself."""

    workspace: Workspace

    @property
    def root(self) -> Path:
        return self.workspace.root

    @property
    def memory_dir(self) -> Path:
        return self.workspace.memory_dir

    @property
    def memory_md(self) -> Path:
        return self.root / "MEMORY.md"

    @property
    def resumption(self) -> Path:
        return self.memory_dir / "resumption.md"

    @property
    def threads(self) -> Path:
        return self.memory_dir / "threads.md"

    @property
    def state(self) -> Path:
        return self.memory_dir / "state.json"

    @property
    def events(self) -> Path:
        return self.memory_dir / "events.json"

    @property
    def log_index(self) -> Path:
        return self.memory_dir / "log-index.md"

    @property
    def archive(self) -> Path:
        return self.memory_dir / "archive.md"

    @property
    def legacy_index(self) -> Path:
        """Seed 004's name for the log index; in workmem it is the session board."""
        return self.workspace.board_file

    @property
    def daily_mirror(self) -> Path:
        return self.memory_dir / "daily"

    def daily_log(self, day: date) -> Path:
        return self.memory_dir / f"{day:%Y-%m-%d}.md"

    def agent_file(self) -> Path | None:
        """The agent's instruction file the seed patches (AGENT.md, else AGENTS.md)."""
        for name in AGENT_FILES:
            candidate = self.root / name
            if candidate.is_file():
                return candidate
        return None

    def layered_files(self) -> dict[str, Path]:
        """The files seed 004 adds beside the daily logs, by the name the seed uses."""
        return {
            "resumption.md": self.resumption,
            "threads.md": self.threads,
            "state.json": self.state,
            "log-index.md": self.log_index,
            "archive.md": self.archive,
            "events.json": self.events,
        }


def day_of_log(name: str) -> date | None:
    """The date a daily-log file name stands for, or None (``2026-02-30.md`` is not one)."""
    match = DAILY_NAME.match(name)
    if match is None:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None

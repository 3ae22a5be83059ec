"""What the viewer's long-term memory, daily log and timeline pages read, from the rooms
that own those files: ``facts`` (MEMORY.md and the typed memories), ``journal`` (the daily
logs and their digest) and ``activity`` (what happened, in order).

Like ``reader``: one core read per page, files read fresh on every request through the
store (links out of the root refused), names checked before any path is built from them,
long lists in pages, nothing written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ..errors import NotFoundError, UsageError
from ..files.store import Store
from ..root import Workspace
from .reader import PER_PAGE, Paged, paginate

if TYPE_CHECKING:
    from ..activity import Activity
    from ..facts.typed import TypedMemory
    from ..journal.daily import LogDigest

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class LongTermPage:
    """MEMORY.md (``text`` None when there is none) and the typed memories beside it."""

    path: str
    text: str | None
    memories: list[TypedMemory]
    problems: list[tuple[str, str]]
    today: date

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "text": self.text,
            "memories": [m.summary(self.today) for m in self.memories],
            "problems": [{"file": f, "error": e} for f, e in self.problems],
        }


@dataclass(frozen=True)
class TypedPage:
    """One typed memory: its frontmatter and body."""

    memory: TypedMemory
    path: str
    today: date

    def to_dict(self) -> dict[str, object]:
        front = {k: str(v) for k, v in self.memory.front.data.items()}
        return {
            **self.memory.summary(self.today),
            "path": self.path,
            "frontmatter": front,
            "body": self.memory.body,
        }


@dataclass(frozen=True)
class DayRow:
    day: date
    path: str
    digest: LogDigest

    def to_dict(self) -> dict[str, object]:
        return {
            "day": self.day.isoformat(),
            "path": self.path,
            "sessions": self.digest.sessions,
            "summary": self.digest.summary,
            "threads": self.digest.threads,
            "last_time": self.digest.last_time,
        }


@dataclass(frozen=True)
class DaysPage:
    """One page of the daily logs, newest first."""

    paged: Paged[DayRow]

    def to_dict(self) -> dict[str, object]:
        return {"days": [r.to_dict() for r in self.paged.items], **self.paged.paging()}


@dataclass(frozen=True)
class DayPage:
    """One daily log whole, and the days logged before and after it."""

    day: date
    path: str
    text: str
    previous: date | None
    following: date | None

    def to_dict(self) -> dict[str, object]:
        return {
            "day": self.day.isoformat(),
            "path": self.path,
            "text": self.text,
            "previous": self.previous.isoformat() if self.previous else None,
            "next": self.following.isoformat() if self.following else None,
        }


@dataclass(frozen=True)
class TimelinePage:
    """One page of what happened, newest first."""

    paged: Paged[Activity]
    #: the days that have a daily log (a day of the feed links to it)
    logged: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, object]:
        return {"activity": [a.to_dict() for a in self.paged.items], **self.paged.paging()}


def check_day(value: str) -> date:
    """A ``YYYY-MM-DD`` day from a URL, or a clear bad request."""
    shown = value if len(value) <= 20 else value[:20] + "…"
    if not _DAY.match(value):
        raise UsageError(f"a daily log is named by its day, YYYY-MM-DD, got {shown!r}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"{shown!r} is not a day of the calendar") from None


class MemoryFilesReader:
    """Read-only access to the long-term memory, the daily logs and the activity."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def _store(self) -> Store:
        return Store(self.workspace, read_only=True)

    def long_term(self) -> LongTermPage:
        from .. import clock
        from ..facts.typed import list_memories
        from ..journal.paths import JournalPaths

        store = self._store()
        path = JournalPaths(self.workspace).memory_md
        current = store.read_text(path)
        listing = list_memories(store)
        return LongTermPage(
            self.workspace.relative(path),
            current[0] if current else None,
            listing.memories,
            listing.problems,
            clock.now().date(),
        )

    def typed(self, name: str) -> TypedPage:
        from .. import clock
        from ..facts.typed import parse_filename, read_memory

        filename = name if name.endswith(".md") else f"{name}.md"
        if "/" in filename or "\\" in filename or parse_filename(filename) is None:
            shown = name if len(name) <= 40 else name[:40] + "…"
            raise UsageError(f"{shown!r} is not a typed memory name such as project_myapp")
        store = self._store()
        path = self.workspace.memory_dir / filename
        memory = read_memory(store, path)
        if memory is None:
            raise NotFoundError(f"there is no memory {self.workspace.relative(path)}")
        return TypedPage(memory, self.workspace.relative(path), clock.now().date())

    def days(self, page: int = 1, per_page: int = PER_PAGE) -> DaysPage:
        from ..journal.daily import list_logs, read_digest

        logs = list(reversed(list_logs(self.workspace)))
        paged = paginate(logs, page, per_page)
        store = self._store()
        rows = [
            DayRow(log.day, self.workspace.relative(log.path), read_digest(store, log.path))
            for log in paged.items
        ]
        return DaysPage(Paged(rows, paged.page, paged.pages, paged.total, paged.per_page))

    def day(self, value: str) -> DayPage:
        from ..journal.daily import list_logs

        day = check_day(value)
        days = [log.day for log in list_logs(self.workspace)]
        path = self.workspace.memory_dir / f"{day.isoformat()}.md"
        current = self._store().read_text(path) if day in days else None
        if current is None:
            raise NotFoundError(f"there is no daily log for {day.isoformat()}")
        earlier = [d for d in days if d < day]
        later = [d for d in days if d > day]
        return DayPage(
            day,
            self.workspace.relative(path),
            current[0],
            earlier[-1] if earlier else None,
            later[0] if later else None,
        )

    def timeline(self, page: int = 1, per_page: int = PER_PAGE) -> TimelinePage:
        from ..activity import activity
        from ..journal.daily import list_logs

        logged = frozenset(log.day.isoformat() for log in list_logs(self.workspace))
        return TimelinePage(paginate(activity(self.workspace), page, per_page), logged)

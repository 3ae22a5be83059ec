"""Typed memory files ``memory/<type>_<topic>.md`` (seed 000, Step 4).

One file per topic, four types, the seed's frontmatter, and a default expiry per type. The
topic becomes part of a file name, so it is checked before it can name a path: anything
that could leave ``memory/`` (separators, ``..``) is refused rather than silently cleaned.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

from ..errors import FormatError, UsageError, WorkmemError
from ..files.store import Store
from ..root import Workspace
from .frontmatter import Frontmatter, split

TYPES = ("project", "feedback", "user", "reference")
#: Seed 000's expiry table; ``None`` is "never".
DEFAULT_EXPIRY_DAYS: dict[str, int | None] = {
    "project": 30,
    "feedback": None,
    "user": None,
    "reference": 90,
}
#: Seed 000's staleness check (5d): ``updated`` older than this many days.
STALE_AFTER_DAYS: dict[str, int] = {"project": 30, "reference": 90}
PLATFORM_KEYS = (
    "claude-code",
    "codex",
    "gemini",
    "cursor",
    "windsurf",
    "cline",
    "roo",
    "openclaw",
    "openhands",
    "universal",
)
_FILE = re.compile(r"^(?P<type>project|feedback|user|reference)_(?P<topic>.+)\.md$")
_NOT_WORD = re.compile(r"[^\w.]+")
MAX_TOPIC = 80


def slug_topic(topic: str) -> str:
    """The file-name form of a topic: lower case, words joined by ``-``.

    Letters of any script are kept (``測試`` stays ``測試``); a topic that names a path is an
    error, not something to clean up quietly.
    """
    raw = unicodedata.normalize("NFC", topic).strip()
    if not raw:
        raise UsageError("a memory needs a topic")
    if "/" in raw or "\\" in raw or ".." in raw or "\x00" in raw:
        raise UsageError(f"topic {topic!r} looks like a path; use words such as 'auth-refactor'")
    slug = _NOT_WORD.sub("-", raw.casefold()).strip("-._")
    if not slug:
        raise UsageError(f"topic {topic!r} has no letters or digits")
    if len(slug) > MAX_TOPIC:
        raise UsageError(f"topic {topic!r} is too long (over {MAX_TOPIC} characters)")
    return slug


def check_type(kind: str) -> str:
    value = kind.strip().casefold()
    if value not in TYPES:
        raise UsageError(f"memory type must be one of {', '.join(TYPES)}, not {kind!r}")
    return value


def typed_filename(kind: str, topic: str) -> str:
    return f"{check_type(kind)}_{slug_topic(topic)}.md"


def parse_filename(name: str) -> tuple[str, str] | None:
    match = _FILE.match(name)
    return (match.group("type"), match.group("topic")) if match else None


def typed_path(workspace: Workspace, kind: str, topic: str) -> Path:
    path = workspace.memory_dir / typed_filename(kind, topic)
    if path.parent != workspace.memory_dir:  # belt and braces after slug_topic
        raise UsageError(f"topic {topic!r} would leave the memory folder")
    return path


def default_expiry(kind: str, updated: date) -> str:
    days = DEFAULT_EXPIRY_DAYS[check_type(kind)]
    return "never" if days is None else (updated + timedelta(days=days)).isoformat()


def as_date(value: object) -> date | None:
    """A frontmatter date value (YAML date, or text) as a date; ``None`` if it is not one."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


@dataclass(frozen=True)
class TypedMemory:
    path: Path
    type: str
    topic: str
    front: Frontmatter
    lines: int

    @property
    def filename(self) -> str:
        return self.path.name

    @property
    def name(self) -> str:
        return self.front.get_str("name") or self.topic

    @property
    def description(self) -> str:
        return " ".join((self.front.get_str("description") or "").split())

    @property
    def updated(self) -> date | None:
        return as_date(self.front.data.get("updated"))

    @property
    def expires(self) -> date | None:
        """The expiry date; ``None`` for ``never`` or a missing value."""
        return as_date(self.front.data.get("expires"))

    @property
    def body(self) -> str:
        return self.front.body

    def stale_reason(self, today: date) -> str | None:
        """Why this memory is stale on ``today`` (seed 000, 5d and the expiry rule), or None."""
        expires = self.expires
        if expires is not None and today > expires:
            return f"expired {expires.isoformat()}"
        limit = STALE_AFTER_DAYS.get(self.type)
        updated = self.updated
        if limit is not None and updated is not None and (today - updated).days > limit:
            return f"{self.type} not updated for {(today - updated).days} days"
        return None

    def summary(self, today: date) -> dict[str, object]:
        """The record every face lists (CLI ``--json``, MCP, the viewer): one shape for all."""
        return {
            "file": self.filename,
            "type": self.type,
            "name": self.name,
            "description": self.description,
            "updated": self.updated.isoformat() if self.updated else None,
            "expires": self.expires.isoformat() if self.expires else None,
            "stale": self.stale_reason(today),
            "lines": self.lines,
        }


def parse_memory(path: Path, text: str, shown: str | None = None) -> TypedMemory:
    where = shown or str(path)
    parsed = parse_filename(path.name)
    if parsed is None:
        raise FormatError("not a typed memory file name (<type>_<topic>.md)", path=where)
    front = split(text, where)
    if front is None:
        raise FormatError("typed memory has no frontmatter (a '---' block on line 1)", path=where)
    declared = front.get_str("type")
    if declared is not None and declared.strip().casefold() != parsed[0]:
        raise FormatError(
            f"frontmatter says type {declared!r} but the file name says {parsed[0]!r}",
            path=where,
            line=2,
        )
    return TypedMemory(path, parsed[0], parsed[1], front, len(text.splitlines()))


def read_memory(store: Store, path: Path) -> TypedMemory | None:
    current = store.read_text(path)
    if current is None:
        return None
    return parse_memory(path, current[0], store.show(path))


@dataclass(frozen=True)
class Listing:
    memories: list[TypedMemory]
    #: Files that look like typed memories but could not be read: (file name, reason).
    problems: list[tuple[str, str]]


def list_memories(store: Store) -> Listing:
    """Every readable typed memory, sorted by type then topic; unreadable ones reported."""
    folder = store.workspace.memory_dir
    memories: list[TypedMemory] = []
    problems: list[tuple[str, str]] = []
    if not folder.is_dir():
        return Listing(memories, problems)
    for path in sorted(folder.iterdir()):
        if not path.is_file() or parse_filename(path.name) is None:
            continue
        try:
            found = read_memory(store, path)
        except WorkmemError as exc:
            problems.append((path.name, str(exc)))
            continue
        if found is not None:
            memories.append(found)
    memories.sort(key=lambda m: (TYPES.index(m.type), m.topic))
    return Listing(memories, problems)

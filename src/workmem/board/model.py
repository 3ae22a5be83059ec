"""The board's vocabulary: columns, statuses, default metadata and session IDs (seed 001)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import datetime

from ..errors import UsageError
from ..i18n import placeholders

COLUMNS = (
    "Session ID",
    "Agent Name",
    "Topic",
    "Summary",
    "Keywords",
    "Status",
    "Referenced By",
    "Started At",
    "Updated At",
)
#: ``BoardRow`` fields that hold free text (from agents and people), neutralised on write.
FREE_TEXT_COLUMNS = ("topic", "summary", "keywords")
IDLE, ACTIVE, STALE = "idle", "active", "stale"
STATUSES = (IDLE, ACTIVE, STALE)
NO_REFERENCE = "-"

# The seed's default texts (zh-TW); a board is written in the language of its user
# (``default_topic`` …), and read as a placeholder in any language (``placeholders``).
DEFAULT_TOPIC = placeholders.TOPIC["zh-TW"]
DEFAULT_START_SUMMARY = placeholders.START_SUMMARY["zh-TW"]
FALLBACK_MANUAL_SUMMARY = placeholders.MANUAL_SUMMARY["zh-TW"]

BOARD_TITLE = "# Memory Index"
MAX_ID_LENGTH = 120

_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def default_topic(language: str) -> str:
    return placeholders.TOPIC[language]


def start_summary(language: str) -> str:
    return placeholders.START_SUMMARY[language]


def manual_summary(language: str) -> str:
    return placeholders.MANUAL_SUMMARY[language]


def start_keywords(platform: str) -> str:
    return f"sessionStart, {platform}-agent"


def manual_keywords(platform: str) -> str:
    return f"manual-registration, {platform}-agent, session-snapshot"


def check_session_id(value: str) -> str:
    """Refuse any ID that could name a path outside ``memory/`` or break the table."""
    if not value or len(value) > MAX_ID_LENGTH or not _NAME.match(value):
        raise UsageError(
            f"invalid session ID {value!r}: use lowercase letters, digits and single '-' only "
            "(like 2026-05-25-1318-cursor-main-agent); nothing was written"
        )
    return value


def check_agent_name(value: str) -> str:
    if not value or len(value) > 60 or not _NAME.match(value):
        raise UsageError(
            f"invalid agent name {value!r}: use lowercase letters, digits and '-' "
            "(like cursor-main-agent); nothing was written"
        )
    return value


def base_session_id(moment: datetime, agent_name: str) -> str:
    """The seed's ``YYYY-MM-DD-HHMM-agent-name``: the one place a session ID is formed."""
    return f"{moment:%Y-%m-%d-%H%M}-{check_agent_name(agent_name)}"


def split_references(value: str) -> list[str]:
    """``"-"`` or ``"a, b"`` to ``["a", "b"]``; order kept, duplicates dropped."""
    seen: list[str] = []
    for part in value.replace("，", ",").split(","):
        item = part.strip()
        if item and item != NO_REFERENCE and item not in seen:
            seen.append(item)
    return seen


def join_references(ids: list[str]) -> str:
    return ", ".join(ids) if ids else NO_REFERENCE


@dataclass
class BoardRow:
    """One board row as values; the table module keeps its source text for byte-exact writes."""

    session_id: str
    agent_name: str
    topic: str
    summary: str
    keywords: str
    status: str
    referenced_by: str
    started_at: str
    updated_at: str

    @classmethod
    def from_values(cls, values: list[str]) -> BoardRow:
        return cls(*values)

    def values(self) -> list[str]:
        return [
            self.session_id,
            self.agent_name,
            self.topic,
            self.summary,
            self.keywords,
            self.status,
            self.referenced_by,
            self.started_at,
            self.updated_at,
        ]

    @property
    def references(self) -> list[str]:
        return split_references(self.referenced_by)

    @property
    def has_meaningful_summary(self) -> bool:
        return not placeholders.is_summary(self.summary)

    @property
    def has_content(self) -> bool:
        """True when the row says something beyond the seed's defaults (worth archiving)."""
        return self.has_meaningful_summary or not self.has_placeholder_topic

    @property
    def has_placeholder_topic(self) -> bool:
        """No topic yet: empty, or the placeholder of any language."""
        return placeholders.is_topic(self.topic)

    @property
    def is_placeholder(self) -> bool:
        return self.status == IDLE and self.has_placeholder_topic

    def to_dict(self) -> dict[str, str]:
        """The row for people and scripts: free text as its writer wrote it (escapes undone)."""
        from ..files.freetext import restore

        values = asdict(self)
        for name in FREE_TEXT_COLUMNS:
            values[name] = restore(values[name])
        return values

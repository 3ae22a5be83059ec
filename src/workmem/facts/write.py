"""Saving one typed memory: create it, or update the file of the same topic (seed 000).

Update over create: the same type and topic always name the same file, and an update
merges into it (``body.merge_body``) instead of replacing it. The frontmatter is edited as
text, so a person's comments, quoting and extra keys survive. Text is redacted before it
is written and relative day words become absolute dates. The file is re-read and checked
before the result is reported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Literal

from ..errors import UsageError, WriteError
from ..files.freetext import neutralize_block, neutralize_line, restore
from ..files.store import Store
from .body import merge_body, set_checkpoint
from .frontmatter import scalar, set_fields, split
from .typed import (
    PLATFORM_KEYS,
    as_date,
    check_type,
    default_expiry,
    parse_memory,
    slug_topic,
    typed_path,
)

Action = Literal["created", "updated", "unchanged"]
_ESCAPED_HEADING = re.compile(r"^([ \t]{0,3})\\(#{1,6})(?=[ \t]|$)(?P<title>.*)$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
#: Lines workmem writes into a memory's body itself; free text never starts one.
_OWN_NOTES = ("> Updated ", "> Checkpoint: ", "> Compressed ")


def _reserved(title: str) -> bool:
    name = " ".join(title.split()).casefold()
    return name == "history" or name.startswith("merged from")


def memory_content(text: str) -> str:
    """A memory's content as it may be written: the agent's own sections, nothing of ours.

    The content is markdown the agent structures with ``##`` sections (updates merge by
    them), so headings stay headings. Everything else free text could forge is neutralised
    (``workmem.files.freetext``): a frontmatter fence or rule, a comment marker, an open
    code fence, a heading inside a code block, the sections workmem keeps (``## History``,
    ``## Merged from …``) and the notes it writes (``> Updated``, ``> Checkpoint``).
    """
    out: list[str] = []
    fence: str | None = None
    for line in neutralize_block(text).split("\n"):
        marker = _FENCE.match(line)
        if marker is not None:
            mark = marker.group(1)
            fence = mark if fence is None else (None if mark[0] == fence[0] else fence)
        elif fence is None:
            heading = _ESCAPED_HEADING.match(line)
            if heading is not None and not _reserved(heading.group("title")):
                line = f"{heading.group(1)}{heading.group(2)}{heading.group('title')}"
            elif line.startswith(_OWN_NOTES):
                line = "\\" + line
        out.append(line)
    return "\n".join(out)


def readable_content(body: str) -> str:
    """A memory's body as its writer wrote it (``memory_content``'s escapes undone)."""
    notes = tuple("\\" + note for note in _OWN_NOTES)
    lines = restore(body).split("\n")
    return "\n".join(line[1:] if line.startswith(notes) else line for line in lines)


_DAY_WORDS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"\btoday\b", re.IGNORECASE), 0),
    (re.compile(r"\byesterday\b", re.IGNORECASE), -1),
    (re.compile(r"\btomorrow\b", re.IGNORECASE), 1),
    (re.compile(r"今天|今日"), 0),
    (re.compile(r"昨天|昨日"), -1),
    (re.compile(r"明天|明日"), 1),
)


def absolute_dates(text: str, today: date) -> tuple[str, int]:
    """Seed 000's "absolute dates" rule: ``today`` -> ``2026-03-25`` (and yesterday, 今天 …)."""
    total = 0
    for pattern, offset in _DAY_WORDS:
        day = (today + timedelta(days=offset)).isoformat()
        text, count = pattern.subn(day, text)
        total += count
    return text, total


@dataclass(frozen=True)
class MemoryInput:
    """One memory to save, as the agent gives it (``{type, topic, description, content}``)."""

    type: str
    topic: str
    description: str
    content: str
    name: str | None = None
    reason: str | None = None
    expires: str | None = None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "memory") -> MemoryInput:
        if not isinstance(data, Mapping):
            raise UsageError(f"{where}: expected a mapping with type, topic, description, content")
        unknown = set(data) - {
            "type",
            "topic",
            "description",
            "content",
            "name",
            "reason",
            "expires",
        }
        if unknown:
            raise UsageError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        values: dict[str, str | None] = {}
        for key in ("type", "topic", "description", "content", "name", "reason", "expires"):
            value = data.get(key)
            if value is not None and not isinstance(value, str | int | float | date):
                raise UsageError(f"{where}: {key} must be text, got {type(value).__name__}")
            values[key] = None if value is None else str(value)
        for key in ("type", "topic", "content"):
            if not (values[key] or "").strip():
                raise UsageError(f"{where}: {key} is required")
        expires = values["expires"]
        if expires is not None and expires != "never" and as_date(expires) is None:
            raise UsageError(f"{where}: expires must be YYYY-MM-DD or 'never', got {expires!r}")
        return cls(
            type=check_type(values["type"] or ""),
            topic=values["topic"] or "",
            description=" ".join((values["description"] or "").split()),
            content=values["content"] or "",
            name=values["name"],
            reason=values["reason"],
            expires=expires,
        )

    @property
    def filename(self) -> str:
        return f"{self.type}_{slug_topic(self.topic)}.md"


@dataclass
class SaveResult:
    path: Path
    action: Action
    redactions: int = 0
    absolute_dates: int = 0
    replaced: list[str] = field(default_factory=list)
    lines_before: int = 0
    lines_after: int = 0
    summary: str = ""
    #: The content or description changed (so ``updated`` is today), not only a checkpoint.
    content_changed: bool = False

    @property
    def filename(self) -> str:
        return self.path.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.filename,
            "action": self.action,
            "redactions": self.redactions,
            "absolute_dates": self.absolute_dates,
            "replaced_sections": self.replaced,
            "lines_before": self.lines_before,
            "lines_after": self.lines_after,
            "summary": self.summary,
        }


def platform_key(platform: str | None) -> str:
    """The seed's ``platform:`` value for a detected platform (others are ``universal``)."""
    aliases = {"gemini-cli": "gemini", "roo-code": "roo"}
    value = aliases.get(platform or "", platform or "universal")
    return value if value in PLATFORM_KEYS else "universal"


def _summary(item: MemoryInput) -> str:
    if item.description:
        return item.description
    first = next((line.strip("#-* ") for line in item.content.splitlines() if line.strip()), "")
    return first[:80]


def _new_file(item: MemoryInput, today: date, platform: str) -> str:
    expires = item.expires or default_expiry(item.type, today)
    lines = [
        "---",
        f"name: {scalar(item.name or item.topic.strip())}",
        f"description: {scalar(item.description)}",
        f"type: {item.type}",
        f"updated: {today.isoformat()}",
        f"expires: {expires}",
        f"platform: {platform}",
        "---",
        item.content.strip("\n"),
        "",
    ]
    return "\n".join(lines)


def memory_text(item: MemoryInput, today: date, platform: str | None = None) -> str:
    """The file ``save_memory`` would create for ``item``, secrets redacted: what a failed
    write gives back to the person so the memory is not lost (seed 000: "output memory as
    text, ask user to save manually")."""
    from ..redact import redact

    content, _ = redact(item.content)
    description, _ = redact(item.description)
    clean = replace(item, content=content, description=neutralize_line(description))
    return _new_file(clean, today, platform_key(platform))


def save_memory(
    store: Store,
    item: MemoryInput,
    *,
    today: date,
    platform: str | None = None,
    checkpoint: str | None = None,
) -> SaveResult:
    """Create or update ``memory/<type>_<topic>.md``; verified before it returns."""
    from ..redact import redact

    path = typed_path(store.workspace, item.type, item.topic)
    shown = store.show(path)
    redactions = 0
    clean: dict[str, str | None] = {}
    for key in ("content", "description", "name", "reason"):
        value = getattr(item, key)
        if value is None:
            clean[key] = None
            continue
        value, count = redact(value)
        redactions += count
        clean[key] = value
    content, dated = absolute_dates(memory_content(clean["content"] or ""), today)
    item = MemoryInput(
        item.type,
        item.topic,
        neutralize_line(clean["description"] or ""),
        content,
        neutralize_line(clean["name"]) if clean["name"] else None,
        clean["reason"],
        item.expires,
    )
    result = SaveResult(path, "unchanged", redactions, dated, summary=_summary(item))

    def change(current: str | None) -> str:
        if current is None:
            text = _new_file(item, today, platform_key(platform))
            result.action = "created"
            result.content_changed = True
        else:
            result.lines_before = len(current.splitlines())
            text = _updated(current, item, today, shown, result)
        if checkpoint is not None:
            front = split(text, shown)
            assert front is not None  # we just wrote or checked it
            text = front.render(body=set_checkpoint(front.body, checkpoint))
            if current is not None and text != current:
                result.action = "updated"
        return text

    def verify(text: str) -> None:
        memory = parse_memory(path, text, shown)
        if result.content_changed and memory.updated != today:
            raise WriteError(f"{shown}: 'updated' did not read back as {today.isoformat()}")
        if not _sections_present(item.content, text):
            raise WriteError(f"{shown}: the saved content is not in the file after writing")

    write = store.update(path, change, verify=verify)
    reread = store.read_text(path)
    result.lines_after = len(reread[0].splitlines()) if reread else 0
    if not write.changed:
        result.action = "unchanged"
    return result


def _sections_present(content: str, text: str) -> bool:
    """Every non-blank line of the update is somewhere in the file (sections may interleave)."""
    have = {line.strip() for line in text.split("\n")}
    return all(line.strip() in have for line in content.split("\n") if line.strip())


def _updated(current: str, item: MemoryInput, today: date, shown: str, result: SaveResult) -> str:
    """The existing file with ``item`` merged in; refuses a file it cannot read."""
    memory = parse_memory(Path(shown), current, shown)
    front = memory.front
    merged = merge_body(front.body, item.content, today, item.reason)
    changes: dict[str, str] = {}
    if item.description and item.description != memory.description:
        changes["description"] = item.description
    if item.name and item.name != memory.name:
        changes["name"] = item.name
    if not merged.changed and not changes:
        return current
    result.action = "updated"
    result.content_changed = True
    result.replaced = [title or "(summary)" for title in merged.replaced]
    changes["updated"] = today.isoformat()
    old_expires = front.get_str("expires")
    old_updated = memory.updated
    if item.expires:
        changes["expires"] = item.expires
    elif old_expires is None or (
        old_updated is not None and old_expires == default_expiry(memory.type, old_updated)
    ):
        changes["expires"] = default_expiry(memory.type, today)
    raw = set_fields(front.raw, changes, shown)
    return front.render(raw=raw, body=merged.text)

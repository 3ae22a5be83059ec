"""Daily logs ``memory/YYYY-MM-DD.md``: canonical, flat, append-only (OpenClaw-compatible).

Several workflows add to the day's log (relay saves, session ends, wrap-ups); each append
re-reads the latest file under its lock and only adds at the end, so entries written by
parallel agents all survive. Logs written by other tools or by hand are free-form, so the
digest below (summary, sessions, threads, topics) reads whatever shape it finds and never
needs the file to follow our template.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..errors import WriteError
from ..files.freetext import neutralize_line
from ..files.store import Store
from ..root import Workspace
from .paths import day_of_log

#: How a session end's entries are marked (``entry.MARKER``), up to the token.
END_MARKER = "<!-- workmem:session-end token="
_END_TOKEN = re.compile(re.escape(END_MARKER) + r"([0-9a-f]+)[ -]")

_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_SUMMARY_LINE = re.compile(r"^\s*(?:[-*]\s+)?\*\*\s*summary\s*:?\s*\*\*\s*:?\s*(?P<text>.+)$", re.I)
_PLAIN_SUMMARY = re.compile(
    r"^\s*(?:[-*]\s+)?(?:summary|摘要|總結|总结)\s*[:：]\s*(?P<text>\S.*)$", re.IGNORECASE
)
_SESSION_HEADING = re.compile(r"^session\b|^(?:\d{1,2}:\d{2})\b|^會話|^会话", re.IGNORECASE)
#: "Session 3 · 14:02 · agent" and its addenda ("Session 3 · thread positions replaced")
_NUMBERED_SESSION = re.compile(r"^session\s+#?(\d+)\b", re.IGNORECASE)
#: a save inside a session (the relay's auto-save), not a session of its own
_SAVE_HEADING = re.compile(r"^session\s+relay\b", re.IGNORECASE)
_SUMMARY_LABEL = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\*\*\s*)?(?:summary|摘要|總結|总结)\s*(?:\*\*\s*)?[:：]\s*(?:\*\*\s*)?",
    re.IGNORECASE,
)
_TIME = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b")
_THREAD_REF = re.compile(r"\b(thread-\w(?:[\w.-]*\w)?)", re.UNICODE)
_GENERIC = frozenset(
    {
        "summary",
        "decisions",
        "open questions",
        "patterns",
        "threads",
        "threads touched",
        "events",
        "resumption note",
        "mood",
        "notes",
        "log",
        "摘要",
        "決定",
        "决定",
    }
)


def daily_log_path(workspace: Workspace, day: date) -> Path:
    return workspace.memory_dir / f"{day:%Y-%m-%d}.md"


def append_entry(
    store: Store, day: date, heading: str, body: str, *, replacing: Collection[str] = ()
) -> Path:
    """Append ``### heading`` and ``body`` to the day's log, creating it with a title.

    ``replacing`` names the tokens of a session end that stopped part-way: its entries were
    never reported as written, so they leave the log in the same write that adds this one
    (a retry with corrected text leaves no rejected text behind).
    """
    path = daily_log_path(store.workspace, day)
    entry = f"### {neutralize_line(heading)}\n\n{body.strip()}\n"

    def add(current: str | None) -> str:
        base = current if current is not None else f"# {day:%Y-%m-%d}\n"
        if replacing:
            base = without_entries(base, replacing)
        if not base.endswith("\n"):
            base += "\n"
        return f"{base}\n{entry}"

    def verify(text: str) -> None:
        if not text.endswith(entry):
            raise WriteError(f"{store.show(path)}: the new entry is not at the end after writing")
        left = [t for t in replacing if has_end_marker(text, t)]
        if left:
            raise WriteError(f"{store.show(path)}: the entry of an unfinished end is still there")

    store.update(path, add, verify=verify)
    return path


def remove_entries(store: Store, day: date, tokens: Collection[str]) -> None:
    """Take the entries of the session ends ``tokens`` out of the day's log (if any)."""
    path = daily_log_path(store.workspace, day)
    if not tokens or not path.is_file():
        return

    def change(current: str | None) -> str:
        if current is None:
            raise WriteError(f"{store.show(path)} disappeared while an entry was removed")
        return without_entries(current, tokens)

    def verify(text: str) -> None:
        if any(has_end_marker(text, t) for t in tokens):
            raise WriteError(f"{store.show(path)}: the entry of an unfinished end is still there")

    store.update(path, change, verify=verify)


def has_end_marker(text: str, token: str) -> bool:
    """True when an entry of the session end ``token`` (or one of its addenda) is in ``text``."""
    return f"{END_MARKER}{token} " in text or f"{END_MARKER}{token}-" in text


def without_entries(text: str, tokens: Collection[str]) -> str:
    """``text`` without the ``###`` entries that carry the end marker of one of ``tokens``.

    An entry runs from its ``###`` heading to the next one; entries of other sessions and
    anything a person wrote come back byte for byte.
    """
    if not any(f"{END_MARKER}{t}" in text for t in tokens):
        return text
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("### ")]
    kept: list[str] = lines[: starts[0]] if starts else lines
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        block = lines[start:end]
        if not any((m := _END_TOKEN.match(line)) and m.group(1) in tokens for line in block):
            kept.extend(block)
    return "\n".join(kept).rstrip("\n") + "\n"


@dataclass(frozen=True)
class DailyLog:
    """A canonical daily log found on disk, by the date in its name."""

    day: date
    path: Path


def list_logs(workspace: Workspace) -> list[DailyLog]:
    """Every canonical daily log, oldest first (``memory/daily/`` is a mirror, not read)."""
    try:
        entries = list(os.scandir(workspace.memory_dir))
    except (FileNotFoundError, NotADirectoryError):
        return []
    logs = []
    for entry in entries:
        day = day_of_log(entry.name)
        if day is not None and entry.is_file():
            logs.append(DailyLog(day, Path(entry.path)))
    logs.sort(key=lambda log: log.day)
    return logs


@dataclass
class LogDigest:
    """What a log says at a glance: for the log index, state bootstrap and resumption seed."""

    summaries: list[str] = field(default_factory=list)
    sessions: int = 0
    threads: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    last_time: str | None = None

    @property
    def summary(self) -> str:
        return " / ".join(self.summaries)

    def count_session(self, title: str, numbers: set[str]) -> None:
        """Count a session heading once: numbered entries by their number, saves not at all."""
        if _SAVE_HEADING.match(title):
            return
        numbered = _NUMBERED_SESSION.match(title)
        if numbered is None:
            self.sessions += 1
        elif numbered.group(1) not in numbers:
            numbers.add(numbered.group(1))
            self.sessions += 1

    @property
    def latest_summary(self) -> str:
        return self.summaries[-1] if self.summaries else ""


def _clip(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, its label ("Summary:") taken off."""
    flat = " ".join(text.split())
    while (label := _SUMMARY_LABEL.match(flat)) is not None and label.end() < len(flat):
        flat = flat[label.end() :]
    return neutralize_line(flat, limit=limit)


def digest(text: str, *, limit: int = 240) -> LogDigest:
    result = LogDigest()
    lines = text.split("\n")
    in_fence = False
    section: str | None = None
    first_paragraph: list[str] = []
    summary_section: list[str] = []
    paragraph_done = False
    numbers: set[str] = set()
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for ref in _THREAD_REF.findall(line):
            if ref not in result.threads:
                result.threads.append(ref)
        heading = _HEADING.match(line)
        if heading:
            title = heading.group("title").strip()
            level = len(heading.group("hashes"))
            section = title.casefold()
            if level >= 2 and _SESSION_HEADING.search(title):
                result.count_session(title, numbers)
                times = _TIME.findall(title)
                if times:
                    result.last_time = max(result.last_time or "", "{:0>2}:{}".format(*times[0]))
            elif level in (2, 3) and section not in _GENERIC and title not in result.topics:
                result.topics.append(title)
            continue
        summary = _SUMMARY_LINE.match(line) or _PLAIN_SUMMARY.match(line)
        if summary:
            result.summaries.append(_clip(summary.group("text"), limit))
            continue
        if section in ("summary", "摘要", "總結", "总结") and line.strip():
            summary_section.append(line.strip())
        elif not paragraph_done:
            if line.strip():
                first_paragraph.append(line.strip().lstrip("-* "))
            elif first_paragraph:
                paragraph_done = True
    if not result.summaries:
        chosen = summary_section or first_paragraph
        if chosen:
            result.summaries.append(_clip(" ".join(chosen), limit))
    if result.sessions == 0 and (result.summaries or first_paragraph or summary_section):
        result.sessions = 1  # a log written by hand, without session headings
    return result


def read_digest(store: Store, path: Path) -> LogDigest:
    current = store.read_text(path)
    return digest(current[0]) if current else LogDigest()

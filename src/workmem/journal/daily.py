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
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..errors import WriteError
from ..files.store import Store
from ..root import Workspace
from .paths import day_of_log

_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_SUMMARY_LINE = re.compile(r"^\s*(?:[-*]\s+)?\*\*\s*summary\s*:?\s*\*\*\s*:?\s*(?P<text>.+)$", re.I)
_SESSION_HEADING = re.compile(r"^session\b|^(?:\d{1,2}:\d{2})\b|^會話|^会话", re.IGNORECASE)
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


def append_entry(store: Store, day: date, heading: str, body: str) -> Path:
    """Append ``### heading`` and ``body`` to the day's log, creating it with a title."""
    path = daily_log_path(store.workspace, day)
    entry = f"### {heading.strip()}\n\n{body.strip()}\n"

    def add(current: str | None) -> str:
        base = current if current is not None else f"# {day:%Y-%m-%d}\n"
        if not base.endswith("\n"):
            base += "\n"
        return f"{base}\n{entry}"

    def verify(text: str) -> None:
        if not text.endswith(entry):
            raise WriteError(f"{store.show(path)}: the new entry is not at the end after writing")

    store.update(path, add, verify=verify)
    return path


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

    @property
    def latest_summary(self) -> str:
        return self.summaries[-1] if self.summaries else ""


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def digest(text: str, *, limit: int = 240) -> LogDigest:
    result = LogDigest()
    lines = text.split("\n")
    in_fence = False
    section: str | None = None
    first_paragraph: list[str] = []
    summary_section: list[str] = []
    paragraph_done = False
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
                result.sessions += 1
                times = _TIME.findall(title)
                if times:
                    result.last_time = max(result.last_time or "", "{:0>2}:{}".format(*times[0]))
            elif level in (2, 3) and section not in _GENERIC and title not in result.topics:
                result.topics.append(title)
            continue
        summary = _SUMMARY_LINE.match(line)
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
    if result.sessions == 0 and text.strip():
        result.sessions = 1
    return result


def read_digest(store: Store, path: Path) -> LogDigest:
    current = store.read_text(path)
    return digest(current[0]) if current else LogDigest()

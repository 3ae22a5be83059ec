"""The notes file ``memory/sessions/<id>.notes.md``: ten sections, each a header line and an
italic description line that no extractor may change, then the content it maintains.

Parsing checks exactly that: every header present once, in order, each followed by its
description verbatim. A file that fails is reported, never rewritten over.
"""

from __future__ import annotations

import re

from ..errors import FormatError, UsageError

#: (section, italic description) in the seed's order; the descriptions are the seed's words
SECTIONS: tuple[tuple[str, str], ...] = (
    ("Session Title", "A short, distinctive title for the session"),
    (
        "Current State",
        "Where things stand right now — the most important section for continuity after compaction",
    ),
    ("Task Specification", "What was asked for and acceptance criteria"),
    ("Workflow", "Bash commands usually run and in what order"),
    ("Files and Functions", "Which files and functions were touched or are relevant"),
    (
        "Codebase Documentation",
        "Important system components, how they work, and how they fit together",
    ),
    (
        "Errors and Corrections",
        "Problems hit and how they were resolved; approaches that failed and must not be retried",
    ),
    ("Key Results", "Specific outputs (answers, tables, documents) repeated verbatim"),
    ("Learnings", "Insights that apply beyond this session"),
    ("Worklog", "Chronological record of significant actions"),
)
NAMES = tuple(name for name, _ in SECTIONS)
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def check_session_id(session_id: str) -> str:
    """A session id safe to use in a file name (no folders, no ``..``)."""
    if not _ID.match(session_id) or ".." in session_id:
        raise UsageError(
            f"invalid session id {session_id!r}: letters, digits, '.', '_' and '-' only"
        )
    return session_id


def header(name: str) -> str:
    return f"## {name}"


def description(name: str) -> str:
    return f"_{dict(SECTIONS)[name]}_"


def render(session_id: str, contents: dict[str, str]) -> str:
    lines = [f"# Session Notes: {session_id}", ""]
    for name in NAMES:
        lines += [header(name), description(name), ""]
        body = contents.get(name, "").strip()
        if body:
            lines += [body, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def parse(text: str, path: str = "<notes>") -> dict[str, str]:
    """Section -> content; raises ``FormatError`` if a header or description was altered."""
    lines = text.split("\n")
    positions: list[tuple[str, int]] = []
    for index, line in enumerate(lines):
        if line.startswith("## "):
            name = line[3:].strip()
            if name not in NAMES:
                raise FormatError(f"unknown notes section {name!r}", path=path, line=index + 1)
            positions.append((name, index))
    found = [name for name, _ in positions]
    if found != list(NAMES):
        missing = [n for n in NAMES if n not in found]
        raise FormatError(
            f"notes sections are not the ten in order (missing {missing}, found {found})",
            path=path,
        )
    contents: dict[str, str] = {}
    for number, (name, start) in enumerate(positions):
        end = positions[number + 1][1] if number + 1 < len(positions) else len(lines)
        if start + 1 >= len(lines) or lines[start + 1] != description(name):
            raise FormatError(
                f"the description line of {name!r} was changed", path=path, line=start + 2
            )
        contents[name] = "\n".join(lines[start + 2 : end]).strip()
    return contents

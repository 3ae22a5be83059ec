"""The notes file ``memory/sessions/<id>.notes.md``: ten sections, each a header line and an
italic description line, then the content the extractor maintains.

Whatever the writer writes, the reader accepts: every content is passed through
``files.freetext`` before it is rendered, so an agent's "## Summary" inside Key Results
stays text of Key Results. And whatever a person made of the file, the reader reads it
without refusing: sections it does not know are kept (and written back after the ten), a
missing section is empty, an edited description line is noted, never fatal. A save must
never stop because the notes look unusual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import UsageError
from ..files.freetext import neutralize_block
from ..files.outline import parse_outline

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from pathlib import Path

    from ..root import Workspace

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


def notes_path(workspace: Workspace, session_id: str) -> Path:
    """Where a session's notes live (its ID checked: no path out of the sessions folder)."""
    return workspace.sessions_dir / f"{check_session_id(session_id)}.notes.md"


def header(name: str) -> str:
    return f"## {name}"


def description(name: str) -> str:
    return f"_{dict(SECTIONS)[name]}_"


@dataclass
class NotesFile:
    """A notes file as read: the ten sections' contents, what else it holds, what was odd."""

    sections: dict[str, str]
    #: sections the template does not know, as (heading line, body), kept as they were
    extra: list[tuple[str, str]] = field(default_factory=list)
    #: how the file differs from the template (for reports; never a reason to refuse)
    problems: list[str] = field(default_factory=list)


def render(
    session_id: str, contents: dict[str, str], extra: list[tuple[str, str]] | None = None
) -> str:
    """The notes file; each content is made structure-safe (``neutralize_block``)."""
    lines = [f"# Session Notes: {session_id}", ""]
    for name in NAMES:
        lines += [header(name), description(name), ""]
        body = neutralize_block(contents.get(name, ""))
        if body:
            lines += [body, ""]
    for heading, body in extra or []:
        lines += [heading, *body.strip("\n").split("\n"), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def read(text: str, path: str = "<notes>") -> NotesFile:
    """Tolerant reading: never raises on content (see the module docstring)."""
    outline = parse_outline(text.replace("\r\n", "\n"), (2,))
    notes = NotesFile({name: "" for name in NAMES})
    seen: list[str] = []
    for node in outline.nodes:
        name = node.title.strip()
        if name not in notes.sections:
            notes.extra.append((node.heading, "\n".join(node.body)))
            notes.problems.append(f"{path}: section {name!r} is not one of the ten; kept as is")
            continue
        body = list(node.body)
        first = next((i for i, line in enumerate(body) if line.strip()), None)
        if first is not None and body[first].strip() == description(name):
            del body[first]
        elif first is not None and body[first].strip().startswith("_"):
            del body[first]
            notes.problems.append(f"{path}: the description line of {name!r} was changed")
        content = "\n".join(body).strip()
        if name in seen:
            notes.problems.append(f"{path}: section {name!r} appears twice; merged")
            content = f"{notes.sections[name]}\n\n{content}".strip()
        seen.append(name)
        notes.sections[name] = content
    missing = [n for n in NAMES if n not in seen]
    if missing:
        notes.problems.append(f"{path}: sections missing (read as empty): {', '.join(missing)}")
    return notes


def parse(text: str, path: str = "<notes>") -> dict[str, str]:
    """Section -> content, read tolerantly."""
    return read(text, path).sections

"""What in a memory file is the template's, not the memory's: it is never a search hit.

workmem's writers start files from templates: the notes file's italic prompt under each
heading ("_What was asked for and acceptance criteria_"), the starter paragraph of
``threads.md`` or ``archive.md``, the intro of ``MEMORY.md``, the metadata table of a
session snapshot ("Field | Value"), the relay snapshot's header. Indexed, they are what a
vague question matches best, since they are full of general words ("session", "files",
"decisions"), and they crowd the real entries out of the first hits.

What is recognised here is recognised exactly: the writers' own texts (read from the
modules that write them, so a changed template is followed) and the table header the
snapshot writer uses. A person's own paragraph under a heading is never dropped, even an
italic one, unless it is word for word a template's.
"""

from __future__ import annotations

import re
from functools import cache

_MARKS = re.compile(r"[*_`>]+")
_SPACES = re.compile(r"\s+")
#: The header of a snapshot's (and an archived session's) metadata table.
METADATA_HEADER = ("field", "value")
#: Fields of a metadata table whose values say what the session was about.
ABOUT_FIELDS = ("topic", "summary", "keywords")
#: The line ``MEMORY.md``'s intro gains when the user's name is known.
_USER_LINE = re.compile(r"^what .+ prefers and how they work goes under ### user\s*\.?$")
#: The first line of a relay snapshot's header block.
RELAY_HEADER = "auto-saved by session-relay"


def key(text: str) -> str:
    """``text`` as compared here: markup marks dropped, spaces evened, case folded."""
    return _SPACES.sub(" ", _MARKS.sub(" ", text)).strip().casefold()


@cache
def template_prompts() -> frozenset[str]:
    """The notes template's italic description lines, as ``key``s."""
    from ..notes.template import SECTIONS

    return frozenset(key(description) for _, description in SECTIONS)


@cache
def starter_lines() -> frozenset[str]:
    """Every line of the starter texts workmem writes above a file's first section."""
    from ..facts.memory_md import scaffold_text
    from ..journal.resumption import TEMPLATE as RESUMPTION
    from ..journal.templates import ARCHIVE, THREADS

    lines: set[str] = set()
    for text in (scaffold_text(), RESUMPTION, THREADS, ARCHIVE):
        for line in text.split("\n"):
            if line.strip() and not line.lstrip().startswith("#"):
                lines.add(key(line))
    return frozenset(lines)


def is_template_prompt(line: str) -> bool:
    """True for a notes section's italic prompt line (the template's, word for word)."""
    stripped = line.strip()
    if len(stripped) < 3 or stripped[0] not in "_*" or stripped[-1] not in "_*":
        return False
    return key(stripped) in template_prompts()


def is_starter_text(text: str) -> bool:
    """True when every line of ``text`` is a line of a starter text workmem wrote."""
    known = starter_lines()
    lines = [key(line) for line in text.split("\n") if line.strip()]
    return bool(lines) and all(line in known or _USER_LINE.match(line) for line in lines)


def is_relay_header(text: str) -> bool:
    """True for the relay snapshot's header block (time, model, context use)."""
    return key(text).startswith(RELAY_HEADER)


def is_metadata_header(cells: list[str]) -> bool:
    return tuple(cell.strip().casefold() for cell in cells) == METADATA_HEADER

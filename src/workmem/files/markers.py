"""Conflict markers: what a merge left unfinished, recognised as such wherever it is read.

A ``git merge`` of memory files without workmem's drivers (or a hand merge) leaves lines
like ``<<<<<<< HEAD``, ``=======`` and ``>>>>>>> branch`` in a file. A reader that does not
know them sees a broken table or broken JSON and says "no markdown table found"; a person
then cannot tell that both versions are still in the file, waiting. So every reader of a
structured file asks here first when it cannot read one, and says what it really is: an
unfinished merge, to settle with ``workmem doctor --fix``.

Free text can never produce these lines: ``freetext`` escapes them on write (``\\<<<<<<<``),
like headings and fences, and gives them back as written for display.

``split`` turns a file with markers back into the versions it holds (ours, theirs, and the
common ancestor when git wrote one, ``merge.conflictStyle = diff3``), so the file can be
merged by its kind's merge.
"""

from __future__ import annotations

import re

from ..errors import FormatError

#: git's markers are seven characters at the start of a line (``conflict-marker-size``).
_OPEN = re.compile(r"^<{7}(?:[ \t]|$)")
_BASE = re.compile(r"^\|{7}(?:[ \t]|$)")
_MIDDLE = re.compile(r"^={7}[ \t]*$")
_CLOSE = re.compile(r"^>{7}(?:[ \t]|$)")
#: A line that starts like a marker (what ``freetext`` escapes).
MARKER_START = re.compile(r"^(?:<{7}|>{7}|\|{7})(?:[ \t]|$)|^={7}[ \t]*$")


class UnfinishedMergeError(FormatError):
    """A memory file still holds a merge's conflict markers."""


def marker_line(text: str) -> int | None:
    """The first line (1-based) opening or closing a conflict, or None.

    Only ``<<<<<<<`` and ``>>>>>>>`` count: seven ``=`` alone is also a markdown underline.
    The substring test keeps the common case (no markers) to one scan of the text.
    """
    if "<<<<<<<" not in text and ">>>>>>>" not in text:
        return None
    for number, line in enumerate(text.split("\n"), start=1):
        if _OPEN.match(line) or _CLOSE.match(line):
            return number
    return None


UNFINISHED = "holds an unfinished merge: git's conflict markers, both versions still in it"
SETTLE = "`workmem doctor --fix` merges them"


def check_unfinished(text: str, path: str | None) -> None:
    """``UnfinishedMergeError`` naming ``path`` and the line when ``text`` holds markers."""
    line = marker_line(text)
    if line is not None:
        raise UnfinishedMergeError(f"{UNFINISHED}; {SETTLE}", path=path, line=line)


def split(text: str) -> tuple[str | None, str, str] | None:
    """(ancestor or None, ours, theirs) of a file with conflict blocks; None when it has
    no complete block (a marker without its partners cannot be split safely)."""
    lines = text.split("\n")
    ours: list[str] = []
    theirs: list[str] = []
    base: list[str] = []
    has_base = False
    state = "common"
    blocks = 0
    for line in lines:
        if state == "common":
            if _OPEN.match(line):
                state = "ours"
                continue
            if _CLOSE.match(line) or _BASE.match(line):
                return None
            ours.append(line)
            theirs.append(line)
            base.append(line)
        elif state == "ours":
            if _BASE.match(line):
                state, has_base = "base", True
            elif _MIDDLE.match(line):
                state = "theirs"
            elif _OPEN.match(line) or _CLOSE.match(line):
                return None
            else:
                ours.append(line)
        elif state == "base":
            if _MIDDLE.match(line):
                state = "theirs"
            elif _OPEN.match(line) or _CLOSE.match(line):
                return None
            else:
                base.append(line)
        else:  # theirs
            if _CLOSE.match(line):
                state = "common"
                blocks += 1
            elif _OPEN.match(line) or _MIDDLE.match(line):
                return None
            else:
                theirs.append(line)
    if state != "common" or blocks == 0:
        return None
    return ("\n".join(base) if has_base else None), "\n".join(ours), "\n".join(theirs)

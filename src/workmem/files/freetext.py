"""Free text inside structured markdown: kept readable, never turned into structure.

Every memory file is structure (headings, a table, frontmatter fences, workmem's own
``<!-- workmem:… -->`` markers) around free text that someone else wrote: an agent's summary,
a decision given on the command line, prose or tool output captured from a transcript.
Real agents write "## Summary" and "---" in their replies and paste tables and code; written
as they are, those lines would become sections, rows or fences that the file's reader then
refuses, or would forge a session entry or a reference. Every writer passes free text
through here first, so the rule is one rule:

- a line that would start a heading gets a backslash before its ``#`` (``\\## Summary``,
  which markdown shows as the text ``## Summary``), inside code fences too, since not every
  reader of every file knows fences;
- a line of only ``-``, ``=``, ``*`` or ``_`` (a frontmatter fence, a rule, a setext
  underline) gets a backslash;
- a code fence left open is closed at the end of the text, so it cannot swallow the
  headings that follow it in the file;
- ``<!--`` becomes ``<\\!--``, so free text can never open a comment or forge a marker;
- a line that starts like a merge's conflict marker (``<<<<<<<``, ``>>>>>>>``, ``|||||||``,
  ``=======``) gets a backslash, so pasted conflict text is never taken for an unfinished
  merge (``files.markers``) by a reader, by ``workmem sync`` or by git;
- line ends are LF, control characters go, trailing spaces go (a reader that strips them
  would otherwise read back something other than what was written).

``neutralize_line`` is the one-line form (a summary, a topic, a table cell's text): lines
are joined with spaces, then the same rules hold for its start. ``restore`` undoes the
escapes for display. Both are idempotent: neutralizing neutral text changes nothing.

Redact first, then cut: both redact the whole text (``workmem.redact``) before they fold
or clip it, and so do ``clip`` and ``shorten``, the one way any writer cuts free text. A
secret cut by "…" would be stored in part (19 of an AWS key's 20 characters), a piece no
detector recognises any more; redacted first, the cut can only fall in its marker, and
falls before it instead.
"""

from __future__ import annotations

import re

_HEADING = re.compile(r"^([ \t]{0,3})(#{1,6})(?=[ \t]|$)")
_RULE = re.compile(r"^([ \t]{0,3})([-=*_])(?:[ \t]*\2){2,}[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_COMMENT = "<!--"
_SAFE_COMMENT = "<\\!--"
_ESCAPED_HEADING = re.compile(r"^([ \t]{0,3})\\(#{1,6})(?=[ \t]|$)")
_ESCAPED_RULE = re.compile(r"^([ \t]{0,3})\\([-=*_](?:[ \t]*[-=*_]){2,}[ \t]*)$")
_MARKER = re.compile(r"^(?:<{7}|>{7}|\|{7})(?=[ \t]|$)")
_ESCAPED_MARKER = re.compile(r"^\\((?:<{7}|>{7}|\|{7})(?:[ \t]|$))")
_SPACE = re.compile(r"\s+")


def _clean(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text.replace("\t", "    "))


def _neutral_start(line: str) -> str:
    """The line with a would-be heading or fence-like rule at its start escaped."""
    line = _HEADING.sub(r"\1\\\2", line, count=1)
    if line[:1] in "<>|" and _MARKER.match(line):
        return "\\" + line
    return _RULE.sub(lambda m: f"{m.group(1)}\\{m.group(0)[len(m.group(1)) :]}", line, count=1)


_REDACTED = "[REDACTED"


def redacted(text: str) -> str:
    """``text`` with its secrets replaced (imported on first use: most text has none)."""
    from ..redact import redact

    return redact(text)[0]


def cut_at(text: str, width: int) -> int:
    """Where to cut ``text`` (already redacted) to keep at most ``width`` characters: never
    inside a redaction marker (the cut moves before it)."""
    if width >= len(text):
        return len(text)
    start = text.rfind("[", 0, width)
    if start >= 0 and text.startswith(_REDACTED, start) and not 0 <= text.find("]", start) < width:
        return start
    return width


def shorten(text: str, width: int, *, fold: bool = False) -> str:
    """``text`` in at most ``width`` characters, "…" at the end when cut; redacted first
    (then, with ``fold``, its whitespace folded to single spaces)."""
    clean = redacted(text)
    if fold:
        clean = " ".join(clean.split())
    if len(clean) <= width:
        return clean
    return clean[: cut_at(clean, max(width - 1, 0))].rstrip() + "…"


def clip(line: str, width: int) -> str:
    """``line`` cut to ``width`` characters, saying how much was cut; redacted first."""
    return _clip_clean(redacted(line), width)


def _clip_clean(line: str, width: int) -> str:
    if len(line) <= width:
        return line
    at = cut_at(line, width)
    return f"{line[:at].rstrip()} … ({len(line) - at:,} more characters)"


def neutralize_block(text: str, *, max_line: int | None = None) -> str:
    """Multi-line free text made safe to place inside a section of a markdown file."""
    lines: list[str] = []
    fence: str | None = None
    for raw in _clean(redacted(text)).split("\n"):
        line = raw.rstrip().replace(_COMMENT, _SAFE_COMMENT)
        if max_line is not None:
            line = _clip_clean(line, max_line)
        marker = _FENCE.match(line)
        if marker is not None:
            mark = marker.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark) :]:
                fence = None
        lines.append(_neutral_start(line))
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    if fence is not None:
        lines.append(fence)
    return "\n".join(lines)


def neutralize_line(text: str, *, limit: int | None = None) -> str:
    """Free text as one safe line: redacted, whitespace folded, start escaped, no trailing
    space; cut to ``limit`` characters with "…"."""
    flat = _SPACE.sub(" ", _clean(redacted(text))).strip().replace(_COMMENT, _SAFE_COMMENT)
    if limit is not None and len(flat) > limit:
        flat = flat[: cut_at(flat, max(limit - 1, 0))].rstrip() + "…"
    return _neutral_start(flat)


def restore(text: str) -> str:
    """The text as its writer wrote it (escapes undone), for showing it to a person."""
    out = []
    for line in text.split("\n"):
        line = _ESCAPED_HEADING.sub(r"\1\2", line, count=1)
        line = _ESCAPED_RULE.sub(r"\1\2", line, count=1)
        line = _ESCAPED_MARKER.sub(r"\1", line, count=1)
        out.append(line.replace(_SAFE_COMMENT, _COMMENT))
    return "\n".join(out)

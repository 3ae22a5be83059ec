"""Markdown as a person reads it: the one-line text a search snippet is cut from.

A chunk is the file's own text, markup and all: ``**Summary:**``, ``## Decisions``, table
pipes, and workmem's ``<!-- workmem:… -->`` markers, which are for programs and never meant
to be read. Shown as they are, a snippet of a daily-log entry starts with a 70-character
marker and a pair of asterisks. ``readable`` keeps the words and drops the markup, so every
face (``workmem search``, the web viewer, the MCP server) shows the same plain text. The
chunk's text itself (``workmem get``) stays exactly as the file has it.

Free text that workmem wrote escaped (``\\## Summary`` in a topic, ``<\\!--``) is shown
as its writer wrote it, through the same ``restore`` every reader uses.
"""

from __future__ import annotations

import re

from ..files.freetext import restore
from ..files.tables import is_separator, is_table_line, split_cells, unescape_cell

_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+|$)")
_CLOSING_HASHES = re.compile(r"[ \t]+#+[ \t]*$")
_QUOTE = re.compile(r"^ {0,3}(?:>[ \t]?)+")
_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[^`]*$")
_RULE = re.compile(r"^ {0,3}([-*_=])(?:[ \t]*\1){2,}[ \t]*$")
_IMAGE_OR_LINK = re.compile(r"!?\[([^\]\n]{0,300})\]\([^)\s]{0,2000}(?:\s+\"[^\"\n]{0,300}\")?\)")
# Inline spans are at most ``_SPAN`` characters long, so a line full of unmatched marks
# costs a bounded scan per mark instead of one to the end of the line.
_SPAN = 300
_STRONG = re.compile(rf"\*\*(?=\S)(.{{1,{_SPAN}}}?)(?<=\S)\*\*")
_EMPHASIS = re.compile(rf"(?<![\w*])\*(?=[^\s*])([^*\n]{{1,{_SPAN}}}?)(?<=[^\s*])\*(?![\w*])")
_UNDERSCORE = re.compile(rf"(?<![\w_])_(?=[^\s_])([^_\n]{{1,{_SPAN}}}?)(?<=[^\s_])_(?![\w_])")
_STRIKE = re.compile(rf"~~(?=\S)(.{{1,{_SPAN}}}?)(?<=\S)~~")
_CODE = re.compile(rf"(`+)(.{{1,{_SPAN}}}?)\1")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def readable(text: str) -> str:
    """``text`` as one line of plain words: markers gone, markup undone, escapes restored.

    Lines that were list items, headings or table rows are set apart with `` · ``; other
    lines are joined with a space, as the paragraph they are.
    """
    parts: list[str] = []
    for raw in _without_comments(text).split("\n"):
        line, starts_item = _line(raw)
        if not line:
            continue
        if parts and starts_item:
            parts.append("·")
        parts.append(line)
    return " ".join(parts)


def _without_comments(text: str) -> str:
    """``text`` with every closed ``<!-- … -->`` replaced by a space, in one pass (an
    unclosed one is left as it is, with the rest of the text)."""
    out: list[str] = []
    at = 0
    while (start := text.find("<!--", at)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out.append(text[at:start])
        out.append(" ")
        at = end + 3
    out.append(text[at:])
    return "".join(out)


def _line(raw: str) -> tuple[str, bool]:
    """One line's words, and whether it starts a new item (list item, heading, table row)."""
    if _FENCE.match(raw) or _RULE.match(raw):
        return "", False
    if raw.lstrip().startswith("|") and is_table_line(raw):
        if is_separator(raw):
            return "", False
        cells = [_inline(restore(unescape_cell(cell))) for cell in split_cells(raw)]
        return " · ".join(cell for cell in cells if cell), True
    heading = _HEADING.match(raw)
    if heading:
        return _inline(restore(_CLOSING_HASHES.sub("", raw[heading.end() :]))), True
    line = _QUOTE.sub("", raw)
    item = _ITEM.match(line)
    if item:
        line = line[item.end() :]
    return _inline(restore(line)), item is not None


def _inline(line: str) -> str:
    """Inline markup undone: links to their text, emphasis and code marks dropped.

    Underscores are left alone: in agents' notes they are far more often part of a name
    (``__init__``, ``snake_case``) than emphasis.
    """
    line = _BREAK.sub(" ", line)
    line = _IMAGE_OR_LINK.sub(r"\1", line)
    line = _CODE.sub(lambda m: m.group(2).strip(), line)
    line = _STRONG.sub(r"\1", line)
    line = _STRIKE.sub(r"\1", line)
    line = _EMPHASIS.sub(r"\1", line)
    return _SPACES.sub(" ", line).strip()

"""The markdown of memory files as HTML, rendered on the server, with no HTML let through.

Memory files use a small part of markdown: headings, lists (nested, numbered, with
``[ ]``/``[x]`` boxes), emphasis, inline code and fenced blocks, quotes, rules, pipe tables
and links. This renderer knows exactly that part, so nothing from a file reaches the page
except through ``html.escape``:

- every piece of text is escaped; HTML in a file (``<script>``, ``<img onerror=…>``) is
  shown as the text it is, never as markup; comments are text too, except workmem's own
  ``<!-- workmem:… -->`` markers, which are bookkeeping and left out;
- a link becomes ``<a>`` only for ``http``, ``https`` and ``mailto`` addresses (judged
  after stripping what a browser would ignore); any other link, ``javascript:`` above all,
  is shown as its source text;
- images are never loaded (the page's policy forbids it anyway): their text and address
  are shown as a link when the address is safe;
- backslash escapes work as markdown says, so free text workmem escaped on the way in
  (``\\## Draft``, ``<\\!--``) reads as it was written.

The work is linear in the text (no backtracking expressions) and nesting is capped, so a
hostile or huge file costs what its size says.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar

MAX_DEPTH = 8
#: the longest address a link or an autolink may have (a longer one stays text)
MAX_URL = 2048
SAFE_SCHEMES = ("http:", "https:", "mailto:")

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_QUOTE = re.compile(r"^ {0,3}> ?(.*)$")
_ITEM = re.compile(r"^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$")
_TABLE_RULE = re.compile(r"^ *\|? *:?-{1,}:? *(?:\| *:?-{1,}:? *)*\|? *$")
_MARKER = re.compile(r"^\s*<!--\s*workmem:.*-->\s*$")
_BOX = re.compile(r"^\[([ xX])\][ \t]+")
_PUNCT = r"""!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~"""
_ESCAPE = re.compile(r"\\([" + _PUNCT + r"])")
_IGNORED = re.compile(r"[\x00-\x20\x7f]")
#: how this render turns a relative address into a page of the viewer (or None)
_LOCAL: ContextVar[Callable[[str], str | None] | None] = ContextVar("local", default=None)


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def safe_url(url: str) -> str | None:
    """``url`` when a link may go there (http, https, mailto, or a page of the viewer the
    render was told of), else None."""
    probe = _IGNORED.sub("", html.unescape(url)).lower()
    if probe.startswith(SAFE_SCHEMES):
        return url
    local = _LOCAL.get()
    found = local(url) if local is not None and ":" not in probe else None
    return found if found is not None and found.startswith("/") else None


def _link(url: str, inner: str) -> str:
    outside = "" if url.startswith("/") else ' rel="noopener noreferrer nofollow"'
    return f'<a href="{esc(url)}"{outside}>{inner}</a>'


# ---- inline -------------------------------------------------------------------------------


def _brackets(text: str) -> dict[int, int]:
    """Each ``[`` of ``text`` -> the ``]`` that closes it (escaped ones aside), in one pass:
    looking for each one's close again would cost the square of a line of ``[``."""
    pairs: dict[int, int] = {}
    opened: list[int] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            opened.append(i)
        elif char == "]" and opened:
            pairs[opened.pop()] = i
        i += 1
    return pairs


def _link_end(text: str, start: int, pairs: dict[int, int]) -> tuple[str, str, int] | None:
    """At ``text[start] == "["``: (label, address, index after) of ``[label](address)``."""
    i = pairs.get(start)
    if i is None or i + 1 >= len(text) or text[i + 1] != "(":
        return None
    close = text.find(")", i + 2, i + 2 + MAX_URL)
    if close < 0:
        return None
    address = text[i + 2 : close].strip()
    if " " in address:
        address = address.split(" ", 1)[0]  # a title after the address is dropped
    return text[start + 1 : i], address.strip("<>"), close + 1


class _Closers:
    """Where emphasis of each mark may close in one text, found once per mark: a closer
    follows no space (and for ``_``, precedes no letter), whatever opened it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, list[int]] = {}

    def after(self, mark: str, start: int) -> int:
        """The first place ``mark`` closes at or after ``start``, or -1."""
        from bisect import bisect_left

        text = self.text
        if start >= len(text) or text[start].isspace():
            return -1
        places = self.found.get(mark)
        if places is None:
            places = []
            at = text.find(mark, 1)
            while at >= 0:
                after = at + len(mark)
                if not text[at - 1].isspace() and (
                    mark[0] != "_" or after >= len(text) or not text[after].isalnum()
                ):
                    places.append(at)
                at = text.find(mark, at + 1)
            self.found[mark] = places
        index = bisect_left(places, start)
        return places[index] if index < len(places) else -1


def inline(text: str, depth: int = 0) -> str:
    """One line (or paragraph) of markdown as escaped HTML."""
    out: list[str] = []
    plain: list[str] = []
    pairs = _brackets(text) if "[" in text else {}
    closers = _Closers(text)
    i = 0

    def flush() -> None:
        if plain:
            out.append(esc(_ESCAPE.sub(r"\1", "".join(plain))))
            plain.clear()

    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and text[i + 1] in _PUNCT:
            plain.append(text[i : i + 2])
            i += 2
            continue
        if char == "`":
            ticks = len(text[i:]) - len(text[i:].lstrip("`"))
            close = text.find("`" * ticks, i + ticks)
            if close > 0:
                flush()
                out.append(f"<code>{esc(text[i + ticks : close].strip())}</code>")
                i = close + ticks
                continue
        if (
            depth < MAX_DEPTH
            and char in "*_~"
            and (char != "_" or i == 0 or not text[i - 1].isalnum())
        ):
            mark = text[i : i + 2] if text[i : i + 2] == char * 2 else char
            if char == "~" and mark != "~~":
                plain.append(char)
                i += 1
                continue
            close = closers.after(mark, i + len(mark))
            if close > i + len(mark):
                flush()
                tag = {"**": "strong", "__": "strong", "~~": "del"}.get(mark, "em")
                inner = inline(text[i + len(mark) : close], depth + 1)
                out.append(f"<{tag}>{inner}</{tag}>")
                i = close + len(mark)
                continue
        image = char == "!" and text[i + 1 : i + 2] == "["
        if (char == "[" or image) and depth < MAX_DEPTH:
            found = _link_end(text, i + 1 if image else i, pairs)
            if found is not None:
                label, address, end = found
                url = safe_url(address)
                if url is not None:
                    flush()
                    shown = f"image: {label}" if image else label
                    out.append(_link(url, inline(shown, depth + 1)))
                    i = end
                    continue
                plain.append(text[i:end])  # an unsafe address: the source, as text
                i = end
                continue
        if char == "<" and text[i + 1 : i + 5] in ("http", "mail"):
            close = text.find(">", i, i + MAX_URL)
            url = safe_url(text[i + 1 : close]) if close > 0 else None
            if url is not None and " " not in url:
                flush()
                out.append(_link(url, esc(url)))
                i = close + 1
                continue
        plain.append(char)
        i += 1
    flush()
    return "".join(out)


# ---- blocks -------------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    row = line.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells, current, i = [], [], 0
    while i < len(row):
        if row[i] == "\\" and i + 1 < len(row) and row[i + 1] == "|":
            current.append("|")
            i += 2
            continue
        if row[i] == "|":
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(row[i])
        i += 1
    cells.append("".join(current).strip())
    return cells


def _table(lines: list[str], at: int) -> tuple[str, int] | None:
    """A pipe table starting at ``lines[at]`` (header, rule, rows), or None."""
    if at + 1 >= len(lines) or "|" not in lines[at] or not _TABLE_RULE.match(lines[at + 1]):
        return None
    header = _cells(lines[at])
    if len(_cells(lines[at + 1])) != len(header):
        return None
    end = at + 2
    rows = []
    while end < len(lines) and "|" in lines[end] and lines[end].strip():
        cells = _cells(lines[end])
        rows.append((cells + [""] * len(header))[: len(header)])
        end += 1
    head = "".join(f"<th>{inline(c)}</th>" for c in header)
    body = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>", end


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _list(lines: list[str], at: int, depth: int) -> tuple[str, int]:
    """A list starting at ``lines[at]``: items at its indent; lines indented further
    belong to the item above (its continuation, or a nested list). A blank line ends the
    list unless the next line carries it on."""
    first = _ITEM.match(lines[at])
    assert first is not None
    indent = len(first.group(1))
    ordered = first.group(2)[0].isdigit()
    items: list[list[str]] = []
    end = at
    while end < len(lines):
        line = lines[end]
        item = _ITEM.match(line)
        if item is not None and len(item.group(1)) == indent:
            if item.group(2)[0].isdigit() != ordered:
                break
            items.append([item.group(3) or ""])
        elif line.strip() and _indent(line) > indent:
            items[-1].append(line[min(_indent(line), indent + 2) :])
        elif not line.strip():
            following = lines[end + 1] if end + 1 < len(lines) else ""
            same = _ITEM.match(following)
            if not (following.strip() and (_indent(following) > indent or same)):
                break
            if same is not None and len(same.group(1)) < indent:
                break
        else:
            break
        end += 1
    tag = "ol" if ordered else "ul"
    rendered = []
    for head, *rest in items:
        box = _BOX.match(head)
        mark = ""
        if box is not None:
            checked = " checked" if box.group(1) in "xX" else ""
            mark = f'<input type="checkbox" disabled{checked}> '
            head = head[box.end() :]
        inner = inline(head)
        if rest:
            inner += render(rest, depth + 1) if depth < MAX_DEPTH else esc("\n".join(rest))
        rendered.append(f"<li>{mark}{inner}</li>")
    return f"<{tag}>{''.join(rendered)}</{tag}>", end


def _blocks(lines: list[str], depth: int) -> Iterator[str]:
    at = 0
    paragraph: list[str] = []

    def para() -> Iterator[str]:
        if paragraph:
            # lines of a paragraph flow together; two spaces or a backslash at a line's end
            # break it there, as markdown says
            parts = []
            for number, line in enumerate(paragraph):
                hard = line.endswith("  ") or (line.endswith("\\") and not line.endswith("\\\\"))
                text = line.strip().removesuffix("\\") if hard else line.strip()
                last = number == len(paragraph) - 1
                parts.append(inline(text) + ("" if last else "<br>" if hard else "\n"))
            yield "<p>" + "".join(parts) + "</p>"
            paragraph.clear()

    while at < len(lines):
        line = lines[at]
        fence = _FENCE.match(line)
        if fence is not None:
            yield from para()
            mark, info = fence.group(2), fence.group(3).strip()
            body = []
            at += 1
            while at < len(lines) and not lines[at].strip().startswith(mark):
                body.append(lines[at])
                at += 1
            at += 1
            lang = f' data-lang="{esc(info.split()[0])}"' if info else ""
            yield f"<pre><code{lang}>{esc(chr(10).join(body))}</code></pre>"
            continue
        if not line.strip() or _MARKER.match(line):
            yield from para()
            at += 1
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            yield from para()
            level = len(heading.group(1))
            title = line[heading.end() :].rstrip()
            closing = title.rstrip("#")
            if closing != title and (not closing or closing[-1] in " \t"):
                title = closing.rstrip()  # "## Title ##": the closing hashes go
            yield f"<h{level}>{inline(title)}</h{level}>"
            at += 1
            continue
        if _RULE.match(line):
            yield from para()
            yield "<hr>"
            at += 1
            continue
        if _QUOTE.match(line):
            yield from para()
            quoted = []
            while at < len(lines) and (found := _QUOTE.match(lines[at])):
                quoted.append(found.group(1))
                at += 1
            inner = render(quoted, depth + 1) if depth < MAX_DEPTH else esc("\n".join(quoted))
            yield f"<blockquote>{inner}</blockquote>"
            continue
        if _ITEM.match(line) and (not paragraph or not line.startswith(" ")):
            yield from para()
            block, at = _list(lines, at, depth)
            yield block
            continue
        table = _table(lines, at) if not paragraph else None
        if table is not None:
            block, at = table
            yield block
            continue
        paragraph.append(line)
        at += 1
    yield from para()


def render(
    text: str | list[str], depth: int = 0, *, local: Callable[[str], str | None] | None = None
) -> str:
    """``text`` (or its lines) as HTML; every character of it escaped (see the module).

    ``local`` maps a relative address (``memory/project_x.md``) to a page of the viewer
    (``/memory/project_x``), or to None to show it as text.
    """
    lines = text if isinstance(text, list) else text.replace("\r\n", "\n").split("\n")
    if local is None:
        return "".join(_blocks(lines, depth))
    token = _LOCAL.set(local)
    try:
        return "".join(_blocks(lines, depth))
    finally:
        _LOCAL.reset(token)

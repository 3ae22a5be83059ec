"""Cutting memory files into the pieces search returns.

A hit must be small enough to quote and precise enough to cite, so chunks follow the
structure people write: a table row (one board session), a list item with its nested
lines (one decision), a run of prose under a heading (one daily-log entry), one event of
``events.json``. Every chunk keeps its provenance (line range, date, session) so
``workmem get`` can point at the exact lines of the file that is the truth.

What a template wrote is left out (``boilerplate``): prompt lines, starter paragraphs,
metadata tables, empty section headings. A metadata table's topic is kept as what the
whole file is about (``Chunk.about``): it is searched with every chunk of the file and
names the session in a hit's title.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..errors import FormatError
from ..files.sections import is_placeholder_text
from ..files.tables import is_separator, is_table_line, split_cells, unescape_cell
from ..i18n import placeholders
from . import boilerplate, kinds
from .dates import first_date

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])\s+")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
#: A list item that only names what the items nested under it are ("- Decisions:").
_LABEL_ITEM = re.compile(r"^[-*+]\s+([^:\n]{1,40}?)\s*[:：]\s*$")
#: Prose longer than this is cut at line boundaries so a hit stays quotable.
MAX_CHUNK_CHARS = 1500
#: A single line longer than this is cut into pieces (all citing the same line).
MAX_LINE_CHARS = 4000


@dataclass
class Chunk:
    text: str
    line_start: int
    line_end: int
    title: str = ""
    headings: list[str] = field(default_factory=list)
    #: A list item or a table row: an entry of its own, whose neighbours are other entries.
    item: bool = False
    date: str | None = None
    session_id: str | None = None
    #: What the whole file is about (a session's topic), searched with the chunk.
    about: str = ""
    #: The label item this is nested under ("- Decisions:"), named in a hit's title only
    #: (as a heading it ranked worse on the natural questions' tuning part).
    group: str = ""


@dataclass
class _Section:
    level: int
    title: str
    line: int
    body: list[tuple[int, str]] = field(default_factory=list)


def chunk_file(file: kinds.MemoryFile, text: str) -> list[Chunk]:
    """All chunks of one file, in file order; raises ``FormatError`` on unreadable JSON."""
    if file.kind == kinds.EVENT:
        chunks = chunk_events(text, file.rel)
    elif file.kind == kinds.PENDING:
        from .pending import chunk_pending

        chunks = chunk_pending(text, file.rel)
    else:
        chunks = chunk_markdown(text, file.kind)
    for chunk in chunks:
        if file.kind == kinds.BOARD:
            continue  # each row carries its own date and session
        chunk.session_id = chunk.session_id or file.session_id
        chunk.date = file.date or chunk.date
    return chunks


def _frontmatter(lines: list[str]) -> tuple[dict[str, str], int]:
    """Simple ``key: value`` frontmatter, read as text (DESIGN.md: never round-trip YAML)."""
    if not lines or lines[0].strip() != "---":
        return {}, 0
    for end in range(1, min(len(lines), 200)):
        if lines[end].strip() in ("---", "..."):
            fields: dict[str, str] = {}
            for line in lines[1:end]:
                key, sep, value = line.partition(":")
                if sep and key.strip() and not key.startswith((" ", "\t")):
                    fields[key.strip().lower()] = value.strip().strip("\"'")
            return fields, end + 1
    return {}, 0


#: Kinds whose empty headings can be entries ("### 17:40 收工"); elsewhere an empty
#: heading is a template's section with nothing in it yet.
_HEADING_ENTRY_KINDS = frozenset({None, kinds.DAILY})
#: The notes file's section naming its session: what every chunk of the file is about.
SESSION_TITLE = "session title"


def chunk_markdown(text: str, kind: str | None = None) -> list[Chunk]:
    """The chunks of a markdown memory file; ``kind`` (``kinds``) says what it is."""
    lines = text.split("\n")
    meta, body_start = _frontmatter(lines)
    sections = _sections(lines, body_start)
    chunks: list[Chunk] = []
    stack: list[_Section] = []
    about: list[str] = []
    for index, section in enumerate(sections):
        while stack and stack[-1].level >= section.level and section.level > 0:
            stack.pop()
        if section.level > 0:
            stack.append(section)
        headings = [s.title for s in stack]
        found = _blocks(section.body, about)
        if section.title.casefold() == SESSION_TITLE and found:
            about.extend(chunk.text for chunk in found if chunk.text not in about)
        if section.level <= 1 and kind in kinds.PREAMBLE_KINDS:
            found = []  # the relay snapshot's header: time, model, context use
        if not found and section.level > 0 and kind in _HEADING_ENTRY_KINDS:
            following = sections[index + 1] if index + 1 < len(sections) else None
            if following is None or following.level <= section.level:
                found = [Chunk(section.title, section.line, section.line)]
        # A template's "None" says nothing; as a hit it would only crowd out real ones. A
        # starter paragraph sits above a file's first section, so only there is it looked for.
        found = [chunk for chunk in found if not is_placeholder_text(chunk.text)]
        if section.level <= 1:
            found = [chunk for chunk in found if not boilerplate.is_starter_text(chunk.text)]
        for chunk in found:
            chunk.headings = list(headings)
            chunk.title = chunk.title or (headings[-1] if headings else "")
            chunk.date = chunk.date or first_date(chunk.text) or _heading_date(headings)
            chunks.append(chunk)
    if meta:
        _apply_frontmatter(chunks, meta)
    if about:
        for chunk in chunks:
            chunk.about = " · ".join(about)
    return chunks


def _heading_date(headings: list[str]) -> str | None:
    for title in reversed(headings):
        found = first_date(title)
        if found:
            return found
    return None


def _apply_frontmatter(chunks: list[Chunk], meta: dict[str, str]) -> None:
    name = meta.get("name") or meta.get("title") or ""
    updated = first_date(meta.get("updated", "") or meta.get("date", ""))
    for chunk in chunks:
        if name and not chunk.headings:
            chunk.title = name
        if name:
            chunk.headings.insert(0, name)
        description = meta.get("description")
        if description and description not in chunk.headings:
            chunk.headings.insert(1 if name else 0, description)
        chunk.date = updated or chunk.date


def _sections(lines: list[str], start: int) -> list[_Section]:
    sections = [_Section(0, "", start + 1)]
    fenced = False
    for number in range(start, len(lines)):
        line = lines[number]
        if _FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading and heading.group(2).strip():
            sections.append(_Section(len(heading.group(1)), heading.group(2).strip(), number + 1))
        elif fenced or not boilerplate.is_template_prompt(line):
            sections[-1].body.append((number + 1, line))
    return sections


def _blocks(body: list[tuple[int, str]], about: list[str]) -> list[Chunk]:
    """Table rows, list items and prose runs of one section body; what a metadata table
    says the file is about goes into ``about``."""
    chunks: list[Chunk] = []
    prose: list[tuple[int, str]] = []
    index = 0
    fenced = False
    group = ""

    def flush() -> None:
        chunks.extend(_prose_chunks(prose))
        prose.clear()

    while index < len(body):
        number, line = body[index]
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or _FENCE.match(line):
            prose.append((number, line))
            index += 1
            continue
        if (
            is_table_line(line)
            and index + 1 < len(body)
            and is_separator(body[index + 1][1])
            and len(split_cells(line)) == len(split_cells(body[index + 1][1]))
        ):
            flush()
            if boilerplate.is_metadata_header(split_cells(line)):
                index = _metadata(body, index, about)
            else:
                index = _table_rows(body, index, chunks)
            continue
        if _ITEM.match(line):
            flush()
            if not line[:1].isspace():
                group = ""
            label = _LABEL_ITEM.match(line)
            if label and index + 1 < len(body) and _ITEM.match(body[index + 1][1]):
                group = label.group(1).strip() if body[index + 1][1][:1].isspace() else ""
            end = index + 1
            while end < len(body) and _continues_item(body, end):
                end += 1
            item = [raw for _, raw in body[index:end]]
            while item and not item[-1].strip():
                item.pop()
                end -= 1
            chunk = Chunk("\n".join(item).strip(), number, body[end - 1][0], item=True)
            chunk.group = group if line[:1].isspace() else ""
            chunks.append(chunk)
            index = max(end, index + 1)
            continue
        prose.append((number, line))
        index += 1
    flush()
    return chunks


def _continues_item(body: list[tuple[int, str]], at: int) -> bool:
    line = body[at][1]
    if not line.strip():
        # A blank line belongs to the item only if an indented line follows it.
        nxt = body[at + 1][1] if at + 1 < len(body) else ""
        return bool(nxt.strip()) and nxt[:1] in (" ", "\t") and not _ITEM.match(nxt)
    return line[:1] in (" ", "\t") and not _ITEM.match(line)


def _metadata(body: list[tuple[int, str]], start: int, about: list[str]) -> int:
    """A ``Field | Value`` table: no chunk; its topic (and summary, keywords) go to ``about``."""
    index = start + 2
    while index < len(body) and body[index][1].strip() and is_table_line(body[index][1]):
        cells = [unescape_cell(c).strip() for c in split_cells(body[index][1])]
        if len(cells) >= 2 and cells[0].casefold() in boilerplate.ABOUT_FIELDS:
            value = cells[1]
            if value and not placeholders.is_default(value) and value not in about:
                about.append(value)
        index += 1
    return index


def _table_rows(body: list[tuple[int, str]], start: int, out: list[Chunk]) -> int:
    header = [unescape_cell(c) for c in split_cells(body[start][1])]
    index = start + 2
    while index < len(body) and body[index][1].strip() and is_table_line(body[index][1]):
        number, line = body[index]
        cells = [unescape_cell(c) for c in split_cells(line)]
        filled = [(h, v) for h, v in zip(header, cells, strict=False) if v.strip()]
        # A board's placeholders (``未設定``, ``Not set`` …, in any language) say nothing:
        # left out of the row, and a Field | Value row holding only one is no chunk.
        pairs = [(h, v) for h, v in filled if not placeholders.is_default(v)]
        if len(pairs) < len(filled) and len(pairs) <= 1:
            index += 1
            continue
        text = "\n".join(f"{h}: {v}" for h, v in pairs)
        record = dict(pairs)
        lowered = {h.casefold(): v for h, v in record.items()}
        title = lowered.get("topic") or lowered.get("title") or (cells[0] if cells else "")
        sid = lowered.get("session id")
        if sid and lowered.get("topic"):
            title = f"{sid} · {lowered['topic']}"
        stamp = lowered.get("updated at") or lowered.get("date") or lowered.get("started at")
        chunk = Chunk(text, number, number, title=title.strip(), item=True)
        chunk.session_id = sid.strip() if sid else None
        chunk.date = first_date(stamp) if stamp else None
        out.append(chunk)
        index += 1
    return index


def _prose_chunks(lines: list[tuple[int, str]]) -> list[Chunk]:
    while lines and not lines[0][1].strip():
        lines = lines[1:]
    while lines and not lines[-1][1].strip():
        lines = lines[:-1]
    if not lines:
        return []
    pieces: list[tuple[int, str]] = []
    for number, line in lines:
        if len(line) <= MAX_LINE_CHARS:
            pieces.append((number, line))
        else:
            pieces.extend(
                (number, line[i : i + MAX_LINE_CHARS]) for i in range(0, len(line), MAX_LINE_CHARS)
            )
    chunks: list[Chunk] = []
    current: list[tuple[int, str]] = []
    size = 0
    for number, line in pieces:
        if current and size + len(line) > MAX_CHUNK_CHARS and _paragraph_break(current, line):
            chunks.append(_join(current))
            current, size = [], 0
        current.append((number, line))
        size += len(line) + 1
    if current:
        chunks.append(_join(current))
    return [c for c in chunks if c.text]


def _paragraph_break(current: list[tuple[int, str]], line: str) -> bool:
    """Cut at a blank line when possible; any line boundary once far over the limit."""
    size = sum(len(text) + 1 for _, text in current)
    return not current[-1][1].strip() or not line.strip() or size > 2 * MAX_CHUNK_CHARS


def _join(lines: list[tuple[int, str]]) -> Chunk:
    while lines and not lines[-1][1].strip():
        lines = lines[:-1]
    while lines and not lines[0][1].strip():
        lines = lines[1:]
    if not lines:
        return Chunk("", 0, 0)
    return Chunk("\n".join(t for _, t in lines).strip(), lines[0][0], lines[-1][0])


def _event_title(event: dict[str, object]) -> str:
    parts = [
        str(event[key]).strip()
        for key in ("event_type", "type", "action", "object_hint")
        if isinstance(event.get(key), str) and str(event[key]).strip()
    ]
    return " · ".join(dict.fromkeys(parts)) or str(event.get("id", "event"))


def load_json(text: str, rel: str) -> object:
    """A memory JSON file's data; ``FormatError`` naming the file and line when it is not
    JSON (an index refresh reports it and goes on with the other files)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"invalid JSON: {exc.msg}", path=rel, line=exc.lineno) from None


def chunk_events(text: str, rel: str = "memory/events.json") -> list[Chunk]:
    """One chunk per event of ``events.json`` (a list, or ``{"events": [...]}``)."""
    if not text.strip():
        return []
    data = load_json(text, rel)
    if isinstance(data, dict):
        events = data.get("events")
        match = re.search(r'"events"\s*:\s*\[', text)
        start = match.end() if match else -1
    else:
        events = data
        start = text.index("[") + 1 if isinstance(data, list) else -1
    if not isinstance(events, list):
        raise FormatError('expected a list of events or {"events": [...]}', path=rel)
    decoder = json.JSONDecoder()
    chunks: list[Chunk] = []
    position = start
    for event in events:
        begin, position = _next_value(text, decoder, position)
        if not isinstance(event, dict):
            continue
        body = event.get("text") or event.get("summary") or event.get("description")
        if not isinstance(body, str) or not body.strip():
            body = json.dumps(event, ensure_ascii=False)
        when = next(
            (
                str(event[key])
                for key in ("normalized_date", "date", "timestamp", "recorded_at")
                if event.get(key)
            ),
            "",
        )
        line_start = text.count("\n", 0, begin) + 1
        line_end = text.count("\n", 0, max(begin, position - 1)) + 1
        chunk = Chunk(body.strip(), line_start, line_end, title=_event_title(event))
        chunk.date = first_date(when)
        session = event.get("session_id") or event.get("session")
        chunk.session_id = session if isinstance(session, str) else None
        chunks.append(chunk)
    return chunks


def _next_value(text: str, decoder: json.JSONDecoder, position: int) -> tuple[int, int]:
    """Start and end offsets of the next array element after ``position``."""
    if position < 0:
        return 0, 0
    while position < len(text) and text[position] in " \t\r\n,":
        position += 1
    try:
        _, end = decoder.raw_decode(text, position)
    except json.JSONDecodeError:
        return position, position
    return position, end

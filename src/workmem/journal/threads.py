"""``memory/threads.md``: ongoing topics, each carrying enough state to resume without logs.

A thread is a ``##`` heading (its ID is the ``thread-…`` word in it, or the heading as a
slug) with ``### Current Position``, ``### Decisions``, ``### Open Questions`` and
``### Closed Questions``. People edit this file, so the reader accepts the shapes they
produce (other names for the parts, Chinese names, a ``**Current Position:** …`` line
instead of a section, unknown subsections, text before the first thread) and every edit
re-renders only the thread it changes; the others come back byte for byte.

Everything an agent hands in (a title, a status, a position, a question) is free text and
is neutralised first (``workmem.files.freetext``): a position can hold a ``## `` line, but
it can never open a thread or a part of one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import UsageError
from ..files.freetext import neutralize_block, neutralize_line, shorten
from ..files.outline import join_lines, parse_outline
from ..files.sections import item_key

POSITION = "Current Position"
DECISIONS = "Decisions"
OPEN = "Open Questions"
CLOSED = "Closed Questions"
PARTS = (POSITION, DECISIONS, OPEN, CLOSED)
_ALIASES = {
    POSITION: {
        "current position",
        "position",
        "current state",
        "state",
        "where we are",
        "目前進度",
        "目前进度",
        "現況",
        "现况",
        "當前位置",
        "当前位置",
    },
    DECISIONS: {
        "decisions",
        "key decisions",
        "decided",
        "decision log",
        "決定",
        "决定",
        "決策",
        "决策",
    },
    OPEN: {
        "open questions",
        "open",
        "questions",
        "open issues",
        "待解決",
        "待解决",
        "未決問題",
        "未决问题",
        "開放問題",
        "开放问题",
    },
    CLOSED: {
        "closed questions",
        "closed",
        "resolved",
        "answered",
        "resolved questions",
        "已解決",
        "已解决",
        "已關閉",
        "已关闭",
    },
}
_ID_IN = re.compile(r"\b(thread-[\w][\w.-]*)", re.UNICODE)
_INLINE_POSITION = re.compile(
    r"^\s*(?:[-*]\s+)?\**\s*(?:current position|position)"
    r"\s*(?:\*\*\s*:|:\s*\*\*|:)\s*(?P<text>.*)$",
    re.IGNORECASE,
)
_TOUCHED = re.compile(r"^\s*\**\s*last touched\s*:", re.IGNORECASE)
_THREAD_ID = re.compile(r"^[\w][\w.-]{0,119}$", re.UNICODE)


def check_thread_id(thread_id: str) -> str:
    cleaned = thread_id.strip()
    if not _THREAD_ID.match(cleaned):
        raise UsageError(
            f"invalid thread ID {thread_id!r}: use letters, digits, '-', '_' or '.', "
            "e.g. thread-auth-redesign"
        )
    return cleaned


def slug(title: str) -> str:
    words = re.findall(r"[\w]+", title.casefold(), re.UNICODE)
    return "-".join(words)[:120] or "thread"


def part_of(title: str) -> str | None:
    key = " ".join(title.replace(":", " ").split()).casefold()
    for part, names in _ALIASES.items():
        if key in names:
            return part
    return None


@dataclass
class Part:
    title: str
    heading: str
    body: list[str] = field(default_factory=list)

    def items(self) -> list[str]:
        return [line.strip()[2:].strip() for line in self.body if line.strip()[:2] in ("- ", "* ")]

    def text(self) -> str:
        return "\n".join(self.body).strip()


@dataclass
class Thread:
    heading: str
    title: str
    head: list[str] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    changed: bool = False

    @property
    def id(self) -> str:
        found = _ID_IN.search(self.title)
        return found.group(1) if found else slug(self.title)

    @property
    def name(self) -> str:
        """The title without the ID, for people ("Project Alpha API")."""
        rest = _ID_IN.sub("", self.title).strip(" -—:·|[]()`")
        return rest or self.id

    def part(self, which: str) -> Part | None:
        return next((p for p in self.parts if part_of(p.title) == which), None)

    def ensure_part(self, which: str) -> Part:
        found = self.part(which)
        if found is not None:
            return found
        lines = self.parts[-1].body if self.parts else self.head
        if lines and lines[-1].strip():
            lines.append("")
        created = Part(which, f"### {which}", [""])
        self.parts.append(created)
        return created

    def position(self) -> str:
        found = self.part(POSITION)
        if found is not None:
            return found.text()
        for line in self.head:
            match = _INLINE_POSITION.match(line)
            if match and match.group("text").strip():
                return match.group("text").strip().strip("*").strip()
        return ""

    def status(self) -> str:
        for line in self.head:
            match = re.match(r"^\s*\**\s*status\s*:\s*\**\s*(?P<v>[^·*|]+)", line, re.IGNORECASE)
            if match:
                return match.group("v").strip()
        return ""

    def last_touched(self) -> str:
        for line in self.head:
            if _TOUCHED.match(line):
                found = re.search(r"\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2})?", line)
                return found.group(0) if found else ""
        return ""

    def lines(self) -> list[str]:
        out = [self.heading, *self.head]
        for part in self.parts:
            out.append(part.heading)
            out.extend(part.body)
        return out

    def text(self) -> str:
        return "\n".join(self.lines()).strip("\n")

    def header_line(self) -> str:
        """One line for the loader's list of threads."""
        status = self.status()
        position = shorten(self.position(), 160, fold=True)  # redacted, then cut
        open_part = self.part(OPEN)
        opened = len(open_part.items()) if open_part is not None else 0
        bits = [f"**{self.id}**"]
        if self.name != self.id:
            bits.append(self.name)
        if status:
            bits.append(f"({status})")
        line = "- " + " ".join(bits)
        if position:
            line += f": {position}"
        if opened:
            line += f" [{opened} open question{'s' if opened != 1 else ''}]"
        return line


@dataclass
class ThreadsDoc:
    preamble: list[str] = field(default_factory=list)
    threads: list[Thread] = field(default_factory=list)
    trailing_newline: bool = True

    @classmethod
    def parse(cls, text: str) -> ThreadsDoc:
        outline = parse_outline(text, (2, 3))
        threads = [
            Thread(
                t.heading, t.title, t.body, [Part(p.title, p.heading, p.body) for p in t.children]
            )
            for t in outline.nodes
        ]
        return cls(outline.preamble, threads, outline.trailing_newline)

    def render(self) -> str:
        lines = list(self.preamble)
        for thread in self.threads:
            lines.extend(thread.lines())
        return join_lines(lines, self.trailing_newline)

    def get(self, thread_id: str) -> Thread | None:
        wanted = thread_id.strip().casefold()
        for thread in self.threads:
            if thread.id.casefold() == wanted or slug(thread.title) == wanted:
                return thread
        return None

    def ensure(self, thread_id: str, title: str | None = None) -> Thread:
        found = self.get(thread_id)
        if found is not None:
            return found
        if self.threads:
            last = self.threads[-1]
            holder = last.parts[-1].body if last.parts else last.head
        else:
            holder = self.preamble
        if holder and holder[-1].strip():
            holder.append("")
        name = neutralize_line(title) if title else ""
        heading = f"## {thread_id}" + (f" — {name}" if name else "")
        thread = Thread(heading, heading[3:], ["", "Status: active", ""], changed=True)
        self.threads.append(thread)
        return thread


def stored_position(text: str) -> str:
    """A position as it is stored (and as ``Thread.position`` reads it back)."""
    return neutralize_block(text)


def stored_item(text: str) -> str:
    """A decision or question as one neutral list-item line."""
    return neutralize_line(text)


def set_position(thread: Thread, text: str) -> str:
    """Replace the Current Position; returns the old one (the caller logs it, never drops it)."""
    old = thread.position()
    new = stored_position(text)
    if not new or " ".join(new.split()) == " ".join(old.split()):
        return old
    found = thread.part(POSITION)
    if found is None:
        for index, line in enumerate(thread.head):
            inline = _INLINE_POSITION.match(line)
            if inline and inline.group("text").strip():
                del thread.head[index]
                break
        found = Part(POSITION, f"### {POSITION}", [])
        thread.parts.insert(0, found)
        if thread.head and thread.head[-1].strip():
            thread.head.append("")
    found.body = ["", *new.split("\n"), ""]
    thread.changed = True
    return old


#: a cross-reference at the end of an item (seed 004: ``[ref: memory/2026-03-20.md#decisions]``)
_REF = re.compile(r"\s*\[ref: [^\]\n]*\]\s*$")


def _key(item: str) -> str:
    """An item's identity, its cross-reference aside: the same decision noted on two days
    is one decision."""
    return item_key(_REF.sub("", item))


def add_items(thread: Thread, which: str, items: list[str], *, ref: str | None = None) -> list[str]:
    """Append list items to a part, skipping ones already there; returns what was added.

    ``ref`` (a daily log and its section) is written after each new item, so a thread
    points back to the log that recorded it, as the log points to the thread."""
    added: list[str] = []
    wanted = [stored_item(i) for i in items if i and i.strip()]
    if not wanted:
        return added
    part = thread.ensure_part(which)
    present = {_key(i) for i in part.items()}
    body = part.body
    while body and not body[-1].strip():
        body.pop()
    if not body:
        body.append("")
    for item in wanted:
        if _key(item) in present:
            continue
        present.add(_key(item))
        written = f"{item} [ref: {ref}]" if ref else item
        body.append(f"- {written}")
        added.append(written)
    body.append("")
    if added:
        thread.changed = True
    return added


def close_questions(thread: Thread, questions: list[str], day: str) -> list[str]:
    """Move questions from Open to Closed (dated); ones never opened are simply recorded."""
    closed: list[str] = []
    open_part = thread.part(OPEN)
    for question in [stored_item(q) for q in questions if q and q.strip()]:
        key = item_key(question)
        if open_part is not None:
            for index, line in enumerate(open_part.body):
                stripped = line.strip()
                if stripped[:2] in ("- ", "* ") and item_key(stripped[2:]) == key:
                    del open_part.body[index]
                    break
        closed.extend(add_items(thread, CLOSED, [f"{question} (closed {day})"]))
    if closed:
        thread.changed = True
    return closed


def touch(thread: Thread, when: str, *, ref: str | None = None) -> None:
    """Date the thread's last session; ``ref`` names the daily log that recorded it."""
    line = f"Last touched: {when}" + (f" [ref: {ref}]" if ref else "")
    for index, existing in enumerate(thread.head):
        if _TOUCHED.match(existing):
            if existing != line:
                thread.head[index] = line
                thread.changed = True
            return
    insert_at = 1 if thread.head and not thread.head[0].strip() else 0
    for index, existing in enumerate(thread.head):
        if re.match(r"^\s*\**\s*status\s*:", existing, re.IGNORECASE):
            insert_at = index + 1
    thread.head.insert(insert_at, line)
    thread.changed = True

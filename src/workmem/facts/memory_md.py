"""MEMORY.md as one file: the tiers of seed 004 on top, the typed index of seed 000 inside.

DESIGN.md settles the disagreement between the seeds: ``## Active`` (with ``### Project``,
``### Feedback``, ``### User``, ``### Reference``), then ``## Fading``, then
``## Maintenance Log``. People edit this file by hand, so the model here is a lossless
outline: every line belongs to exactly one place (the preamble, a tier's intro, or a
``###`` subsection) and ``render()`` gives back the same text byte for byte. Edits touch
only the place they own; everything else is carried through untouched.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..errors import ConflictError
from ..files.outline import parse_outline

ACTIVE = "Active"
FADING = "Fading"
MAINTENANCE_LOG = "Maintenance Log"
TIERS = (ACTIVE, FADING, MAINTENANCE_LOG)
#: The typed subsections of ``## Active``, in the order of seed 000's index.
SUBSECTIONS = ("Project", "Feedback", "User", "Reference")
#: Claude Code loads this many lines of MEMORY.md; the file is kept under it.
MAX_LINES = 200

_HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<title>.*?)[ \t]*#*[ \t]*$")
_SPACE = re.compile(r"\s+")


def norm_title(title: str) -> str:
    return _SPACE.sub(" ", title).strip().casefold()


def _heading(line: str) -> tuple[int, str] | None:
    match = _HEADING.match(line)
    if match is None:
        return None
    return len(match.group("hashes")), match.group("title")


@dataclass
class Subsection:
    """A ``###`` heading and the lines under it (deeper headings stay in the body)."""

    title: str
    heading: str
    body: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join(self.body).strip("\n")


@dataclass
class Tier:
    """A ``##`` section: intro lines, then its ``###`` subsections."""

    title: str
    heading: str
    intro: list[str] = field(default_factory=list)
    subs: list[Subsection] = field(default_factory=list)

    def sub(self, title: str) -> Subsection | None:
        wanted = norm_title(title)
        return next((s for s in self.subs if norm_title(s.title) == wanted), None)

    def ensure_sub(self, title: str) -> Subsection:
        found = self.sub(title)
        if found is not None:
            return found
        _end_with_blank(self.subs[-1].body if self.subs else self.intro)
        created = Subsection(title, f"### {title}", [""])
        self.subs.append(created)
        return created

    def lines(self) -> list[str]:
        out = [self.heading, *self.intro]
        for sub in self.subs:
            out.append(sub.heading)
            out.extend(sub.body)
        return out

    def text(self) -> str:
        """Everything under the heading, subsections included."""
        return "\n".join(self.lines()[1:]).strip("\n")


def _end_with_blank(lines: list[str]) -> None:
    if not lines or lines[-1].strip():
        lines.append("")


@dataclass
class MemoryDoc:
    """The outline of MEMORY.md; ``parse(text).render() == text`` for any text."""

    preamble: list[str] = field(default_factory=list)
    tiers: list[Tier] = field(default_factory=list)
    trailing_newline: bool = True

    @classmethod
    def parse(cls, text: str) -> MemoryDoc:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        outline = parse_outline(text, (2, 3), heading=_heading, paired_fences=True)
        tiers = [
            Tier(
                tier.title,
                tier.heading,
                tier.body,
                [Subsection(s.title, s.heading, s.body) for s in tier.children],
            )
            for tier in outline.nodes
        ]
        return cls(outline.preamble, tiers, outline.trailing_newline)

    def render(self) -> str:
        lines = list(self.preamble)
        for tier in self.tiers:
            lines.extend(tier.lines())
        text = "\n".join(lines)
        return text + "\n" if self.trailing_newline and text else text

    def tier(self, title: str) -> Tier | None:
        wanted = norm_title(title)
        return next((t for t in self.tiers if norm_title(t.title) == wanted), None)

    def ensure_tier(self, title: str) -> Tier:
        """The tier, created in its canonical place (Active, Fading, Log) when missing."""
        found = self.tier(title)
        if found is not None:
            return found
        created = Tier(title, f"## {title}", [""])
        order = [norm_title(t) for t in TIERS]
        rank = order.index(norm_title(title)) if norm_title(title) in order else len(order)
        position = len(self.tiers)
        for index, tier in enumerate(self.tiers):
            known = norm_title(tier.title)
            if known in order and order.index(known) > rank:
                position = index
                break
        previous = self.tiers[position - 1] if position > 0 else None
        if previous is not None:
            _end_with_blank(previous.subs[-1].body if previous.subs else previous.intro)
        elif self.preamble:
            _end_with_blank(self.preamble)
        self.tiers.insert(position, created)
        return created


@dataclass(frozen=True)
class MemoryTiers:
    """What the loader reads: Active by subsection, Fading and the Maintenance Log as text."""

    active: dict[str, str]
    fading: str
    maintenance_log: str
    #: Text under ``## Active`` before its first ``###`` (free-text entries may live there).
    active_intro: str = ""


def scaffold_text(agent_name: str | None = None, user_name: str | None = None) -> str:
    """A fresh MEMORY.md: the tiers, the four typed subsections, and one line on the rules."""
    from ..files.freetext import neutralize_line

    agent_name = neutralize_line(agent_name) if agent_name else None
    user_name = neutralize_line(user_name) if user_name else None
    who = f" of {agent_name}" if agent_name else ""
    lines = [
        f"# Long-term memory{who}",
        "",
        "Curated facts that outlive a session. `## Active` is read at every session start;",
        "`## Fading` holds entries not confirmed lately; entries that fade out move to",
        "`memory/archive.md`, never deleted. Typed memories (`memory/<type>_<topic>.md`) are",
        f"indexed under Active by type. Keep this file under {MAX_LINES} lines.",
    ]
    if user_name and user_name.strip():
        lines.append(f"What {user_name.strip()} prefers and how they work goes under `### User`.")
    lines.append("")
    lines.append(f"## {ACTIVE}")
    lines.append("")
    for title in SUBSECTIONS:
        lines.extend([f"### {title}", ""])
    lines.extend([f"## {FADING}", "", f"## {MAINTENANCE_LOG}", ""])
    return "\n".join(lines)


def has_tiers(text: str) -> bool:
    """True when the file already has both ``## Active`` and ``## Fading`` (seed 004's test)."""
    doc = MemoryDoc.parse(text)
    return doc.tier(ACTIVE) is not None and doc.tier(FADING) is not None


def _demote(line: str) -> str:
    """``## X`` becomes ``### X`` (and so on) so legacy sections nest under Active."""
    found = _heading(line)
    if found is None or found[0] >= 6:
        return line
    return "#" + line


def _wrap_untiered(doc: MemoryDoc) -> MemoryDoc:
    """Put everything that is not a title or an existing tier under a new ``## Active``."""
    title: list[str] = []
    rest = list(doc.preamble)
    while rest and not rest[0].strip():
        title.append(rest.pop(0))
    if rest and (_heading(rest[0]) or (0, ""))[0] == 1:
        title.append(rest.pop(0))
    kept_tiers = [
        t
        for t in doc.tiers
        if norm_title(t.title) in (norm_title(FADING), norm_title(MAINTENANCE_LOG))
    ]
    moved: list[str] = list(rest)
    for tier in doc.tiers:
        if tier in kept_tiers:
            continue
        moved.extend(_demote(line) for line in tier.lines())
    body = "\n".join(moved).strip("\n")
    text = "\n".join(title).rstrip("\n")
    text = (text + "\n\n" if text else "") + f"## {ACTIVE}\n\n"
    if body:
        text += body + "\n\n"
    for tier in kept_tiers:
        text += "\n".join(tier.lines()).rstrip("\n") + "\n\n"
    return MemoryDoc.parse(text.rstrip("\n") + "\n")


def _content_lines(text: str) -> Counter[str]:
    """Non-blank lines with heading marks dropped, for the nothing-lost check."""
    counts: Counter[str] = Counter()
    for line in text.replace("\r\n", "\n").split("\n"):
        found = _heading(line)
        value = found[1] if found else line
        key = _SPACE.sub(" ", value).strip()
        if key:
            counts[key] += 1
    return counts


def check_nothing_lost(old: str, new: str) -> list[str]:
    """Lines of ``old`` (headings by their title) that ``new`` no longer has."""
    missing = _content_lines(old) - _content_lines(new)
    return sorted(missing)


def ensure_tiers(text: str) -> str:
    """The same memory with the tiers in place; untiered content is wrapped under Active.

    Missing tiers and typed subsections are added; nothing is removed or reordered except
    that legacy ``##`` sections move one level down to sit inside ``## Active``.
    """
    if not text.strip():
        return scaffold_text()
    doc = MemoryDoc.parse(text)
    if doc.tier(ACTIVE) is None:
        doc = _wrap_untiered(doc)
    active = doc.ensure_tier(ACTIVE)
    for title in SUBSECTIONS:
        active.ensure_sub(title)
    for title in (FADING, MAINTENANCE_LOG):
        doc.ensure_tier(title)
    doc.trailing_newline = True
    result = doc.render()
    lost = check_nothing_lost(text, result)
    if lost:  # a bug, never the user's fault: refuse rather than drop their memory
        raise ConflictError(f"adding tiers to MEMORY.md would lose {len(lost)} line(s): {lost[:3]}")
    return result


def read_tiers(text: str) -> MemoryTiers:
    """The tiers as text; an untiered legacy file is read as if it had been wrapped."""
    doc = MemoryDoc.parse(text if has_tiers(text) else ensure_tiers(text))
    active = doc.tier(ACTIVE)
    fading = doc.tier(FADING)
    log = doc.tier(MAINTENANCE_LOG)
    return MemoryTiers(
        active={sub.title: sub.text() for sub in active.subs} if active else {},
        fading=fading.text() if fading else "",
        maintenance_log=log.text() if log else "",
        active_intro="\n".join(active.intro).strip("\n") if active else "",
    )

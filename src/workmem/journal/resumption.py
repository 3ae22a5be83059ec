"""``memory/resumption.md``: the first-person handoff the next session reads second.

One note, rewritten at each session end; the note it replaces is already in that
session's daily-log entry, so nothing is lost. Two agents ending at nearly the same time
must not erase each other: when the note on disk was written by a session that ended after
this one began, it is kept below the new note as a parallel session's handoff.
A hand-written note (no workmem marker) is returned to the caller to keep in the log.

The note is free text: it is neutralised (``workmem.files.freetext``) so that a line of it
can never open the parallel-session section or forge the marker; ``restore`` gives it back
as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import WriteError
from ..files.freetext import neutralize_block, neutralize_line
from ..files.store import Store
from .paths import JournalPaths

TITLE = "# Resumption"
PARALLEL = "## Also from a parallel session"
_MARKER = re.compile(
    r"<!--\s*workmem:resumption\s+session=(?P<n>\d+)\s+ended=(?P<ended>[\d\- :]+?)"
    r"(?:\s+agent=(?P<agent>\S+))?\s*-->"
)

TEMPLATE = f"""{TITLE}

*No session has ended yet. At the end of each session `workmem end` (or
`MemoryWriter.end_session`) replaces this with a first-person note to the next session:
where things stand, what to pick up first, what to watch out for.*
"""


@dataclass
class Resumption:
    note: str
    session: int | None = None
    ended: str | None = None
    agent: str | None = None
    parallel: list[str] = field(default_factory=list)

    @property
    def written_by_workmem(self) -> bool:
        return self.session is not None


def parse(text: str) -> Resumption:
    match = _MARKER.search(text)
    if match is None:
        body = text.strip()
        if body.startswith(TITLE):
            body = body[len(TITLE) :].strip()
        return Resumption(note=body)
    after = text[match.end() :]
    main, _, parallel = after.partition(f"\n{PARALLEL}\n")
    lines = main.strip().split("\n")
    if lines and lines[0].startswith("*Session "):
        lines = lines[1:]
    notes = [p.strip() for p in parallel.split(f"\n{PARALLEL}\n") if p.strip()] if parallel else []
    return Resumption(
        note="\n".join(lines).strip(),
        session=int(match.group("n")),
        ended=match.group("ended").strip(),
        agent=match.group("agent"),
        parallel=notes,
    )


_MARKER_UNSAFE = re.compile(r"[^\w.@+-]+", re.UNICODE)


def marker_name(agent: str) -> str:
    """The agent's name as one word the marker can hold (no spaces, no ``-->``)."""
    return _MARKER_UNSAFE.sub("-", agent).strip("-") or "agent"


def stored_note(note: str) -> str:
    """The note as it is stored: neutral lines, no trailing spaces (what ``parse`` returns)."""
    return neutralize_block(note)


def render(
    note: str, session: int, ended: str, agent: str, mood: str | None, parallel: list[str]
) -> str:
    mood_text = neutralize_line(mood) if mood else ""
    header = f"*Session {session} ended {ended} ({neutralize_line(agent)})" + (
        f" · mood: {mood_text}" if mood_text else ""
    )
    parts = [
        TITLE,
        "",
        f"<!-- workmem:resumption session={session} ended={ended} agent={marker_name(agent)} -->",
        header + "*",
        "",
        stored_note(note),
        "",
    ]
    for other in parallel:
        parts.extend([PARALLEL, "", stored_note(other), ""])
    return "\n".join(parts)


def write(
    store: Store,
    paths: JournalPaths,
    *,
    note: str,
    session: int,
    ended: str,
    agent: str,
    mood: str | None,
    began_after_session: int | None,
) -> Resumption | None:
    """Replace the note; returns the previous one when it was hand-written (to log it).

    ``began_after_session`` is the session count when this session began: a note on disk
    from a later session came from a parallel agent and is kept.
    """
    previous: list[Resumption] = []

    def change(current: str | None) -> str:
        old = parse(current) if current and current.strip() else None
        previous[:] = [old] if old else []
        parallel: list[str] = []
        if (
            old is not None
            and old.written_by_workmem
            and old.session is not None
            and began_after_session is not None
            and old.session > began_after_session
            and old.session != session
        ):
            header = f"*Session {old.session} ended {old.ended} ({old.agent or 'agent'})*"
            parallel = [f"{header}\n\n{old.note}", *old.parallel]
        return render(note, session, ended, agent, mood, parallel)

    def verify(text: str) -> None:
        reread = parse(text)
        if reread.session != session or reread.note != stored_note(note):
            raise WriteError(f"{store.show(paths.resumption)}: note did not verify")

    store.update(paths.resumption, change, verify=verify)
    old = previous[0] if previous else None
    return old if old is not None and hand_written(old) else None


def hand_written(found: Resumption) -> bool:
    """A note a person (or another tool) wrote: no workmem marker, not the starter text."""
    note = found.note.strip()
    return not found.written_by_workmem and bool(note) and not note.startswith(_TEMPLATE_START)


_TEMPLATE_START = "*No session has ended yet."

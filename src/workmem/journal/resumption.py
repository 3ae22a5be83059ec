"""``memory/resumption.md``: the first-person handoff the next session reads second.

One note, rewritten at each session end; the note it replaces is already in that
session's daily-log entry, so nothing is lost. Two agents ending at nearly the same time
must not erase each other: when the note on disk was written by a session that ended after
this one began, it is kept below the new note as a parallel session's handoff.
A hand-written note (no workmem marker) is returned to the caller to keep in the log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import WriteError
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


def render(
    note: str, session: int, ended: str, agent: str, mood: str | None, parallel: list[str]
) -> str:
    header = f"*Session {session} ended {ended} ({agent})" + (f" · mood: {mood}" if mood else "")
    parts = [
        TITLE,
        "",
        f"<!-- workmem:resumption session={session} ended={ended} agent={agent} -->",
        header + "*",
        "",
        note.strip(),
        "",
    ]
    for other in parallel:
        parts.extend([PARALLEL, "", other.strip(), ""])
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
        if reread.session != session or " ".join(reread.note.split()) != " ".join(note.split()):
            raise WriteError(f"{store.show(paths.resumption)}: note did not verify")

    store.update(paths.resumption, change, verify=verify)
    old = previous[0] if previous else None
    if old is not None and not old.written_by_workmem and old.note and not _is_template(old.note):
        return old
    return None


def _is_template(note: str) -> bool:
    return note.startswith("*No session has ended yet.")

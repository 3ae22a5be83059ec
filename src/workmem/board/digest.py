"""What a session did and what comes next, in a few lines, from the files it already has.

A person opening a session (in the viewer, or an agent through ``session_show``) wants
the top of it first: the summary, what is done, what is next, the last request. Those are
spread over two files with two owners: the board snapshot (Next Actions, items marked
``[done]`` under Superseded / Resolved, Files / Artifacts) and the running notes kept by the
extractor (Current State's in-progress, pending and done lines, the Worklog). This module
only reads them; nothing is inferred that neither file says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..files.freetext import restore

if TYPE_CHECKING:
    from ..files.store import Store
    from .inspect import SessionView

#: how many of each list a digest keeps (the files hold the rest)
LIMIT = 8
_MARK = re.compile(r"^\[(done|resolved|superseded)\]\s*", re.IGNORECASE)
_WHERE = re.compile(r"\s*\((Next Actions|Open Questions|Decisions)\)\s*$")
_STATE = re.compile(r"^-\s*(In progress|Pending|Done \(\d+\)|Last request)\s*:\s*(.+)$")


@dataclass
class SessionDigest:
    summary: str = ""
    done: list[str] = field(default_factory=list)
    next: list[str] = field(default_factory=list)
    last_request: str = ""
    files: list[str] = field(default_factory=list)
    #: the latest Worklog lines of the notes (what was asked and what the agent ran)
    recent: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.done or self.next or self.last_request or self.files or self.recent)

    def to_dict(self) -> dict[str, object]:
        return {
            "summary": self.summary,
            "done": self.done,
            "next": self.next,
            "last_request": self.last_request,
            "files": self.files,
            "recent": self.recent,
        }


def _add(items: list[str], text: str) -> None:
    value = " ".join(restore(text).split())
    if value and value not in items and len(items) < LIMIT:
        items.append(value)


def _from_snapshot(digest: SessionDigest, text: str) -> None:
    from .snapshot import FILES, NEXT_ACTIONS, SUPERSEDED, section_items

    for item in section_items(text, SUPERSEDED):
        if item.lower().startswith("[done]"):
            _add(digest.done, _WHERE.sub("", _MARK.sub("", item)))
    for item in section_items(text, NEXT_ACTIONS):
        if not _MARK.match(item):
            _add(digest.next, item)
    for item in section_items(text, FILES):
        _add(digest.files, item)


def _from_notes(digest: SessionDigest, text: str) -> None:
    from ..notes.template import read

    sections = read(text).sections
    for line in sections.get("Current State", "").splitlines():
        found = _STATE.match(line.strip())
        if found is None:
            continue
        label, value = found.groups()
        if label == "Last request":
            digest.last_request = " ".join(restore(value).split())
        elif label.startswith("Done"):
            for part in value.split("; "):
                _add(digest.done, part)
        else:
            _add(digest.next, f"{label}: {value}" if label == "In progress" else value)
    worklog = [ln.strip()[2:] for ln in sections.get("Worklog", "").splitlines() if ln.strip()]
    for line in worklog[-5:]:
        _add(digest.recent, line)


def session_digest(store: Store, view: SessionView) -> SessionDigest:
    """The digest of the session ``view`` shows (its snapshot and its notes, read fresh)."""
    from ..notes.workflow import notes_path

    digest = SessionDigest()
    if view.row is not None:
        from ..i18n.placeholders import is_summary

        summary = " ".join(restore(view.row.to_dict()["summary"]).split())
        digest.summary = "" if is_summary(summary) else summary
    if view.snapshot:
        _from_snapshot(digest, view.snapshot)
    current = store.read_text(notes_path(store.workspace, view.session_id))
    if current is not None:
        _from_notes(digest, current[0])
    return digest

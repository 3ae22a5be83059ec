"""A session end's account: which files it wrote so far, and the check after it wrote them.

Kept apart from the end itself (``ending``): what a person reads when an end stops
part-way, and what is re-read before an end reports success.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from ..errors import WorkmemError, WriteError
from . import resumption
from .daily import has_end_marker
from .entry import has_marker
from .journal import Journal


class Progress:
    """Which of an end's files are written so far, to say so exactly when a step fails."""

    def __init__(self, journal: Journal, planned: list[Path]) -> None:
        self.journal = journal
        self.planned = planned
        self.written: list[Path] = []

    def done(self, path: Path) -> None:
        if path not in self.written:
            self.written.append(path)

    def failed(self, exc: BaseException) -> WorkmemError:
        show = self.journal.show
        wrote = ", ".join(show(p) for p in self.written) or "nothing yet"
        left = [show(p) for p in self.planned if p not in self.written]
        if left:
            where = (
                f"written {wrote}; not written {', '.join(left)} (state.json holds only the "
                "reserved session number)"
            )
        else:
            where = f"every file was written ({wrote}) but the check after writing failed"
        message = (
            f"{exc}. The session end stopped part-way: {where}. Run `workmem end` again to "
            "finish it; a corrected text replaces this attempt's daily-log entry."
        )
        if isinstance(exc, WorkmemError):
            exc.args = (message,)
            return exc
        return WriteError(message)


def verify_end(
    journal: Journal,
    number: int,
    token: str,
    days: list[date],
    stale: list[str],
    notes: list[dict[str, Any]],
    note_text: str,
) -> None:
    paths = journal.paths
    log = journal.text(paths.daily_log(days[0])) or ""
    if not has_marker(log, token):
        raise WriteError(f"{journal.show(paths.daily_log(days[0]))}: session entry missing")
    for day in days:
        text = log if day == days[0] else journal.text(paths.daily_log(day)) or ""
        if any(has_end_marker(text, t) for t in stale):
            raise WriteError(f"{journal.show(paths.daily_log(day))}: a replaced attempt remains")
    res_text = journal.text(paths.resumption) or ""
    res = resumption.parse(res_text)
    kept = resumption.stored_note(note_text) in res_text
    if res.session is None or (res.session <= number and not kept):
        raise WriteError(f"{journal.show(paths.resumption)}: the new note is not there")
    ids = {e.id for e in journal.ledger().events}
    events = [n["event_id"] for n in notes if n.get("kind") == "event"]
    missing = [event for event in events if event not in ids]
    if missing:
        raise WriteError(f"{journal.show(paths.events)}: events {missing} are missing")

"""Phase 0 of seed 002: inherit the verbatim tail of the last sessions.

The last three sessions of this workspace (the current one excluded), each with its last
three rounds (a user message and the assistant's reply) as they were said, tool traffic
left out; a session that ended more than 24 hours ago is still included, with the gap
noted. A transcript that cannot be read is skipped with a note: inheritance never blocks
a session from starting. Every word passes the redactor before it is shown or saved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import WorkmemError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..transcripts.model import Round, TranscriptRef

GAP_HOURS = 24.0
MAX_MESSAGE_CHARS = 2000
_ORDINALS = ("Last Session", "Session -2", "Session -3", "Session -4", "Session -5")


@dataclass
class SessionTail:
    """The last rounds of one earlier session, with how long ago it ended."""

    session_id: str
    platform: str
    path: Path
    ended: datetime | None
    rounds: list[Round]
    gap_hours: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "platform": self.platform,
            "path": str(self.path),
            "ended": self.ended.isoformat(sep=" ", timespec="minutes") if self.ended else None,
            "gap_hours": self.gap_hours,
            "rounds": [
                {"user": r.user.text if r.user else None, "assistant": r.reply} for r in self.rounds
            ],
        }


@dataclass
class Inheritance:
    """Phase 0's result: the tails found, and notes on what could not be read."""

    generated: datetime
    tails: list[SessionTail] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "generated": self.generated.isoformat(sep=" ", timespec="minutes"),
            "sessions": [t.to_dict() for t in self.tails],
            "notes": self.notes,
        }


def collect_tails(
    refs: list[TranscriptRef],
    *,
    now: datetime,
    sessions: int = 3,
    rounds: int = 3,
    exclude: set[Path] | None = None,
) -> Inheritance:
    """The last ``rounds`` rounds of the ``sessions`` newest transcripts not excluded."""
    skip = {p.absolute() for p in (exclude or set())}
    result = Inheritance(generated=now)
    for ref in refs:
        if len(result.tails) >= sessions:
            break
        if ref.path.absolute() in skip:
            continue
        from ..transcripts.read import read_transcript  # once there is a transcript to read

        try:
            transcript = read_transcript(ref.path, ref.platform)
        except WorkmemError as exc:
            result.notes.append(f"skipped {ref.path.name}: {exc}")
            continue
        tail = transcript.rounds()[-rounds:]
        if not tail:
            continue
        ended = transcript.ended or datetime.fromtimestamp(ref.modified)
        gap = (now - ended).total_seconds() / 3600
        result.tails.append(
            SessionTail(
                session_id=transcript.session_id or ref.session_id,
                platform=transcript.platform,
                path=ref.path,
                ended=ended,
                rounds=tail,
                gap_hours=round(gap, 1) if gap > GAP_HOURS else None,
            )
        )
    return result


def _verbatim(text: str, limit: int) -> str:
    """A message as said, redacted and then cut (``freetext.clip``: never a piece of a
    secret, never inside a redaction's marker)."""
    from ..files.freetext import clip

    return clip(text.strip(), limit)


def render_tails(inheritance: Inheritance, *, max_chars: int = MAX_MESSAGE_CHARS) -> list[str]:
    lines: list[str] = []
    for index, tail in enumerate(inheritance.tails):
        name = _ORDINALS[index] if index < len(_ORDINALS) else f"Session -{index + 1}"
        when = tail.ended.strftime("%Y-%m-%d %H:%M") if tail.ended else "date unknown"
        lines += [f"## 📎 {name} Conversation Tail ({tail.session_id}, {when})", ""]
        if tail.gap_hours is not None:
            lines += [f"> ⏳ Time gap: this session ended ~{tail.gap_hours:g} h ago.", ""]
        for round_ in tail.rounds:
            if round_.user is not None:
                lines.append(f"**[User]** {_verbatim(round_.user.text, max_chars)}")
            if round_.reply:
                lines.append(f"**[Assistant]** {_verbatim(round_.reply, max_chars)}")
        lines.append("")
    return lines


def render_inheritance(inheritance: Inheritance, carry_forward: list[str]) -> str:
    """The seed's "Session Relay — Conversation Context" document."""
    count = len(inheritance.tails)
    lines = [
        "# Session Relay — Conversation Context",
        f"> Generated: {inheritance.generated.isoformat(timespec='seconds')}",
        f"> Sources: last {count} session{'s' if count != 1 else ''}",
        "",
    ]
    if not inheritance.tails:
        lines += ["No earlier session of this workspace was found.", ""]
    lines += render_tails(inheritance)
    lines += ["## 📋 Carry-Forward State", "", *(carry_forward or ["- Nothing carried forward."])]
    for note in inheritance.notes:
        lines.append(f"<!-- {note} -->")
    return "\n".join(lines).rstrip("\n") + "\n"

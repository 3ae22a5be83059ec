"""The Context Window Guardian (seed 000): how full the window is and what to do about it.

There is one reading of usage: the relay's. In a workspace, the transcript is the one
named, else the current session's, found and read exactly as ``workmem relay status``
finds and reads it (``workmem.relay.workflows.status``: the platform's recorded token
counts where it has them, the configured window), so the two commands never disagree.
Only when the agent gives its own counts, or no transcript is found, does the seed's rough
formula apply: ``user_turns x 800 + tool_results x 1500 + responses x 600``, over the
platform's usual window from the seed's list. The zone and its action come from
``workmem.relay.zones.zone_for`` with the ``wrap`` (40/50/75/80 %) or ``relay``
(60/75/85 %) profile.

A compaction overrides the zone: the seed says a compacted session has already lost
context and must save at once. Until a memory file is written after the last compaction,
the report is "compacted: save now", however low the usage reads after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import UsageError, WorkmemError
from ..root import Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..transcripts.model import Transcript

PER_USER_TURN = 800
PER_TOOL_RESULT = 1500
PER_RESPONSE = 600
#: Seed 000's "common context windows"; "most others: ~64K-200K" -> the middle, 128K.
SEED_WINDOWS = {
    "claude-code": 200_000,
    "cursor": 128_000,
    "codex": 128_000,
    "gemini": 1_000_000,
}
OTHER_WINDOW = 128_000
LONG_SESSION_TURNS = 100


def estimate_tokens(user_turns: int, tool_results: int, responses: int) -> int:
    for name, value in (
        ("user turns", user_turns),
        ("tool results", tool_results),
        ("responses", responses),
    ):
        if value < 0:
            raise UsageError(f"{name} cannot be negative")
    return user_turns * PER_USER_TURN + tool_results * PER_TOOL_RESULT + responses * PER_RESPONSE


@dataclass(frozen=True)
class ContextReport:
    used_tokens: int
    window: int
    percent: float
    source: str
    model: str | None
    profile: str
    zone: str
    level: int
    action: str
    message: str
    method: str
    #: Seed 000's edge case: 100+ turns is likely past 50 % whatever the estimate says.
    note: str = ""
    transcript: str | None = None
    compactions: int = 0
    #: when the last compaction happened, and whether memory was saved after it
    compacted_at: str | None = None
    saved_since_compaction: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


COMPACTED_MESSAGE = (
    "🔴 Compacted: the context was already compressed ({when}); save everything important "
    "to memory now (workmem wrap --checkpoint), before more is lost."
)


def context_report(
    *,
    workspace: Workspace | None = None,
    transcript: Path | None = None,
    session: str | None = None,
    platform: str | None = None,
    profile: str = "wrap",
    user_turns: int = 0,
    tool_results: int = 0,
    responses: int = 0,
    window: int | None = None,
    home: Path | None = None,
) -> ContextReport:
    """The guardian's report. ``platform`` reads the transcript (detected when None);
    the formula's window uses it too."""
    from ..relay.zones import zone_for

    if window is not None and window <= 0:
        raise UsageError("the context window must be a positive number of tokens")
    counted = bool(user_turns or tool_results or responses)
    used = total = 0
    source, model, path = "estimated", None, None
    read: Transcript | None = None
    if workspace is not None and (transcript is not None or not counted):
        from ..relay.workflows import status

        relay = status(
            workspace, transcript=transcript, session=session, platform=platform, home=home
        )
        if relay.usage is not None and relay.transcript is not None:
            usage, path = relay.usage, relay.transcript
            total = window or usage.window
            used, source, model = usage.used_tokens, usage.source, usage.model
    elif transcript is not None:
        from ..relay.usage import usage_of
        from ..transcripts.read import read_transcript

        read = read_transcript(transcript, platform)
        usage = usage_of(read, window)
        used, total, source, model, path = (
            usage.used_tokens,
            usage.window,
            usage.source,
            usage.model,
            transcript,
        )
    if path is not None:
        method = f"transcript {path.name}"
    else:
        used = estimate_tokens(user_turns, tool_results, responses)
        total = window or SEED_WINDOWS.get(platform or "", OTHER_WINDOW)
        method = (
            f"estimate: {user_turns}×{PER_USER_TURN} + {tool_results}×{PER_TOOL_RESULT} "
            f"+ {responses}×{PER_RESPONSE}"
        )
        if workspace is not None and transcript is None and not counted:
            method += " (no transcript found for this workspace; give --transcript or counts)"
    percent = round(100.0 * used / total, 1) if total else 0.0
    zone = zone_for(percent, profile)
    from ..i18n import language_for
    from ..relay.zones import zone_message

    message = zone_message(zone, language_for(workspace))
    zone_name, level, action = zone.name, zone.level, zone.action
    note = ""
    if user_turns >= LONG_SESSION_TURNS and zone.level < 2:
        note = (
            f"{user_turns} turns: a very long session is likely past 50% on most platforms; "
            "save a checkpoint if none was made (workmem wrap --checkpoint)."
        )
    compaction = _compaction(path, platform, workspace, read) if path is not None else None
    compactions, compacted_at, saved = compaction or (0, None, None)
    if compactions and saved is False:
        when = f"at {compacted_at}" if compacted_at else "time not recorded"
        zone_name, level, action = "compacted", 3, "save-now"
        message = COMPACTED_MESSAGE.format(when=when)
    elif compactions:
        after = (
            "memory was saved after the last one"
            if saved
            else "save now if nothing was saved since the last one"
        )
        note = (note + " " if note else "") + f"Compacted {compactions} time(s): {after}."
    return ContextReport(
        used_tokens=used,
        window=total,
        percent=percent,
        source=source,
        model=model,
        profile=profile,
        zone=zone_name,
        level=level,
        action=action,
        message=message,
        method=method,
        note=note,
        transcript=str(path) if path is not None else None,
        compactions=compactions,
        compacted_at=compacted_at,
        saved_since_compaction=saved,
    )


def _compaction(
    path: Path, platform: str | None, workspace: Workspace | None, read: Transcript | None
) -> tuple[int, str | None, bool | None] | None:
    """(compactions, when the last one happened, memory saved since) for a transcript.

    The transcript is read whole only when it has a compaction at all (the relay's
    incremental summary says so without reading it again).
    """
    if read is None and workspace is not None:
        from ..relay.restore import relay_store
        from ..transcripts.incremental import TranscriptTail

        if not TranscriptTail(relay_store(workspace)).update(path, platform).summary.compactions:
            return None
    from ..transcripts.model import parse_time
    from ..transcripts.read import read_transcript

    read = read or read_transcript(path, platform)
    if not read.compactions:
        return None
    moments = [parse_time(c.time) for c in read.compactions]
    moments += [m.timestamp for m in read.messages if m.kind == "compact_summary"]
    known = [m for m in moments if m is not None]
    last = max(known) if known else read.started
    saved = None if workspace is None else _saved_after(workspace, last)
    shown = last.strftime("%Y-%m-%d %H:%M") if last and known else None
    return len(read.compactions), shown, saved


#: Files a session start or a read writes too: not a save of what the session learned.
_NOT_SAVES = frozenset({"index.md", "log-index.md"})


def _only_scaffold(path: Path, text: str) -> bool:
    """The file still holds what ``workmem init`` wrote (a starter file, or a MEMORY.md
    with empty tiers): creating it saved nothing the session learned."""
    from ..journal.templates import starter_texts

    starter = starter_texts().get(path.name)
    if starter is not None and path.parent.name == "memory":
        return text.strip() == starter.strip()
    if path.name == "MEMORY.md":
        from ..facts.memory_md import read_tiers

        try:
            tiers = read_tiers(text)
        except WorkmemError:
            return False
        bodies = [*tiers.active.values(), tiers.fading, tiers.maintenance_log]
        return not any(body.strip() for body in bodies)
    return False


def _saved_after(workspace: Workspace, moment: datetime | None) -> bool:
    """True when a memory file (MEMORY.md, a typed memory, a log, a snapshot) was written
    after ``moment`` with something in it: files ``init`` scaffolded and nobody has written
    to since do not count."""
    if moment is None:
        return False
    cutoff = moment.timestamp()
    memory = workspace.memory_dir
    candidates = [workspace.root / "MEMORY.md"]
    for folder in (memory, memory / "sessions"):
        if folder.is_dir():
            candidates += [
                p
                for p in folder.iterdir()
                if p.suffix in (".md", ".json") and p.name not in _NOT_SAVES
            ]
    from ..files.store import Store

    store = Store(workspace, read_only=True)
    for candidate in candidates:
        try:
            if candidate.stat().st_mtime <= cutoff:
                continue
            current = store.read_text(candidate)
        except (OSError, WorkmemError):
            continue
        if current is not None and not _only_scaffold(candidate, current[0]):
            return True
    return False

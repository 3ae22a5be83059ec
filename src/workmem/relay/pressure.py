"""Context pressure in a running session: what the prompt hook saves and says in each zone.

The session-wrap and relay designs' tables, done by the hook once it has read the usage:

=====================  ==============================================  =====================
usage                  save                                            said to the agent
=====================  ==============================================  =====================
60-75 % (relay warm)   the handoff snapshot, merged (once per 5        nothing
                       points of growth)
~50 % (checkpoint)     session notes and snapshot; no maintenance      tell the user a
                                                                       checkpoint was saved
55-75 % (active        the checkpoint, if the usage jumped past it     keep replies concise
management)
~75 % (full save,      notes, snapshot, handoff snapshot rewritten     what is left; record
relay hot)             (and the HEARTBEAT line), memory maintenance    lessons; tell the user
                                                                       to go on in a new
                                                                       session
> 80 % (critical)      notes and snapshot                              keep replies minimal
> 85 % (relay          the handoff snapshot force-saved, with its      tell the user now, in
critical)              daily-log entry                                 their language, and
                                                                       end every reply with
                                                                       the warning line
=====================  ==============================================  =====================

Repeats: the session-wrap design says not to nag a user who ignores the 75 % alert, the
relay design puts its warning on every reply past 85 %. So each zone is acted on and
announced once per rise (a compaction that brings the usage down lets it rise again);
past 85 % the agent is asked once to end every reply with the warning line, and given the
line again only when the percentage it shows has gone up.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..files.store import Store
    from ..root import Workspace
    from .usage import ContextUsage

STATE = "hook-zones.json"
#: the wrap zones that call for a save, in the order the usage reaches them
ORDER = ("checkpoint", "active-management", "full-save", "critical")
#: a reading this many points under the last one means the context was compacted
RESET_DROP = 10.0
#: transcripts remembered in the state file (the oldest are forgotten)
KEEP_TRANSCRIPTS = 50
#: items of what is left shown to the agent
LEFT_SHOWN = 10
WRAP_COMMAND = "workmem wrap --from-file -"

Log = Callable[[str, BaseException], None]


@dataclass
class Step:
    """What this prompt reached: wrap zones newly reached, and the warning line due."""

    risen: list[str] = field(default_factory=list)
    #: "first" (ask for the line on every reply), "higher" (the line, with a higher
    #: percentage), or None
    footer: str | None = None


def advance(
    store: Store, transcript: Path, wrap_name: str, relay_level: int, percent: float
) -> Step:
    """Record what this transcript reached; say what is new (under the state file's lock,
    so two hooks at once act once)."""
    step = Step()
    key = str(transcript)
    path = store.workspace.state_dir / STATE

    def change(text: str | None) -> str:
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        seen = data.pop(key, None)
        seen = seen if isinstance(seen, dict) else {}
        zones = [z for z in seen.get("zones", []) if isinstance(z, str)]
        last = seen.get("percent")
        told = seen.get("footer")
        if isinstance(last, (int, float)) and last - percent >= RESET_DROP:
            zones, told = [], None  # compacted: every zone can be reached again
        reached = ORDER[: ORDER.index(wrap_name) + 1] if wrap_name in ORDER else ()
        step.risen = [z for z in reached if z not in zones]
        shown = round(percent)
        if relay_level >= 3:
            if not isinstance(told, int):
                step.footer = "first"
            elif shown > told:
                step.footer = "higher"
            told = max(shown, told) if isinstance(told, int) else shown
        data[key] = {"zones": [*zones, *step.risen], "percent": percent, "footer": told}
        for old in list(data)[:-KEEP_TRANSCRIPTS]:
            del data[old]
        return json.dumps(data, ensure_ascii=False, sort_keys=False) + "\n"

    store.update(path, change)
    return step


def respond(
    workspace: Workspace,
    store: Store,
    *,
    transcript: Path,
    platform: str | None,
    usage: ContextUsage,
    session: Callable[[], str | None],
    home: Path | None = None,
    log: Log | None = None,
) -> str | None:
    """Do this prompt's saves for the zone reached and say what the agent should know
    (None below every threshold: the common case costs nothing more)."""
    from .zones import zone_for

    relay = zone_for(usage.percent, "relay")
    wrap = zone_for(usage.percent, "wrap")
    if relay.level == 0 and wrap.name not in ORDER:
        return None
    step = advance(store, transcript, wrap.name, relay.level, usage.percent)
    from ..i18n import language_for

    language = language_for(workspace)
    head = f"[workmem] Context {usage.percent:.0f}% ({usage.source})"
    messages: list[str] = []
    if step.risen:
        said = _wrap_step(
            workspace, step.risen, transcript, platform, session(), home, language, log
        )
        messages.append(f"{head}: {said}")
    if relay.level >= 1:
        # The relay's own saves: warm merges, hot rewrites (and the HEARTBEAT line),
        # critical force-saves, each at most once per zone and per 5 points.
        from .workflows import status

        status(workspace, transcript=transcript, platform=platform, apply=True, home=home)
    if step.footer is not None:
        from .zones import critical_footer

        footer = critical_footer(usage.percent, language)
        if step.footer == "first":
            messages.append(
                f"{head}: past 85%; progress is saved. Tell the user now, in their "
                "language, and end each of your replies with this line until the context is "
                f"compacted or a new session starts:\n{footer}"
            )
        else:
            messages.append(f"{head}: end your replies with this line from now on:\n{footer}")
    return "\n\n".join(messages) or None


def _wrap_step(
    workspace: Workspace,
    risen: list[str],
    transcript: Path,
    platform: str | None,
    sid: str | None,
    home: Path | None,
    language: str,
    log: Log | None,
) -> str:
    """The save and the words of the highest wrap zone newly reached."""
    from ..i18n import text

    if "full-save" in risen:
        saved = _save(workspace, sid, transcript, platform, home, "full-save", log, relay=True)
        upkeep = _maintain(workspace, log)
        left = _left(workspace, sid, transcript, platform)
        said = [
            f"nearly full. workmem ran the full save ({saved}) and memory maintenance ({upkeep}).",
            *left,
            "Record anything this session learned that should outlive it (decisions, "
            f"preferences, lessons) with `{WRAP_COMMAND}`.",
            f'Tell the user, in their language: "{text(language, "zone.full_save")}"',
            "If the user goes on here, keep replies minimal and save at each milestone; "
            "this alert is not repeated.",
        ]
        if "critical" in risen:
            said.append("Past 80%: keep every reply minimal.")
        return "\n".join(said)
    if "critical" in risen:
        saved = _save(workspace, sid, transcript, platform, home, "emergency", log)
        return (
            f"critical. workmem saved what it can ({saved}): the goal, what is done and what "
            "is not. Keep every reply minimal and save anything not yet saved before the "
            "context is compacted."
        )
    saved = _save(workspace, sid, transcript, platform, home, "checkpoint", log)
    said = []
    if "checkpoint" in risen:
        said.append(
            f"past half. workmem saved a checkpoint ({saved}; maintenance waits for the full "
            "save at about 75%). "
            f'Tell the user, in their language: "{text(language, "zone.checkpoint")}"'
        )
    if "active-management" in risen:
        said.append(
            "From here keep replies concise, prefer targeted reads and do not re-read "
            "files already in context."
        )
    return " ".join(said)


def _save(
    workspace: Workspace,
    sid: str | None,
    transcript: Path,
    platform: str | None,
    home: Path | None,
    reason: str,
    log: Log | None,
    *,
    relay: bool = False,
) -> str:
    """One save of the session's parts (and the handoff snapshot); what it saved, in words."""
    from ..continuity.save import NOTES, RELAY, SNAPSHOT, save_session

    parts = (NOTES, SNAPSHOT, RELAY) if relay else (NOTES, SNAPSHOT)
    report = save_session(
        workspace,
        session_id=sid,
        transcript=transcript,
        platform=platform,
        reason=reason,
        parts=parts,
        home=home,
        log=log,
    )
    names = {NOTES: "session notes", SNAPSHOT: "session snapshot", RELAY: "handoff snapshot"}
    done = ", ".join(names[p] for p in parts if p in report.done) or "nothing"
    if report.failed:
        done += f"; failed: {', '.join(sorted(report.failed))} (see `workmem doctor`)"
    return f"saved {done}"


def _maintain(workspace: Workspace, log: Log | None) -> str:
    """Seed-000 maintenance of the long-term memories (dedup, compress, staleness, index)."""
    from ..facts.maintain import maintain

    try:
        report = maintain(workspace)
    except Exception as exc:  # a save that worked is not undone by a failed upkeep
        if log is not None:
            log("maintenance", exc)
        return f"failed: {type(exc).__name__}, see `workmem doctor`"
    stale = len(report.stale)
    return f"compressed {len(report.compressed)}, merged {len(report.merged)}, marked stale {stale}"


def _left(
    workspace: Workspace, sid: str | None, transcript: Path, platform: str | None
) -> list[str]:
    """What is left to do: the plan's open steps, the session snapshot's next actions and
    open questions. Lines for the agent; says so when nothing is recorded."""
    items = what_is_left(workspace, sid, transcript, platform)
    if not items:
        return [
            "What is left: no open plan step, next action or open question is recorded; "
            "say what is left in your own words before you go on."
        ]
    lines = ["What is left (your plan and the session snapshot):"]
    lines += [f"- {item}" for item in items[:LEFT_SHOWN]]
    if len(items) > LEFT_SHOWN:
        lines.append(f"- … and {len(items) - LEFT_SHOWN} more")
    return lines


def what_is_left(
    workspace: Workspace, sid: str | None, transcript: Path, platform: str | None
) -> list[str]:
    from ..files.freetext import neutralize_line
    from ..files.sections import item_key
    from ..transcripts.facts import extract_facts

    found: list[str] = []
    try:
        from ..continuity.save import read_for_save

        facts = extract_facts(read_for_save(transcript, platform))
        found += facts.plan_items("in_progress") + facts.plan_items("pending")
    except Exception:  # an unreadable transcript: the snapshot may still say
        pass
    if sid:
        found += _snapshot_open(workspace, sid)
    kept: list[str] = []
    keys: set[str] = set()
    for item in found:
        key = item_key(item)
        if key and key not in keys:
            keys.add(key)
            kept.append(neutralize_line(item, limit=200))
    return kept


def _snapshot_open(workspace: Workspace, sid: str) -> list[str]:
    from ..board.snapshot import NEXT_ACTIONS, OPEN_QUESTIONS, section_items
    from ..errors import WorkmemError
    from ..files.sections import strip_marker
    from ..files.store import Store

    try:
        current = Store(workspace, read_only=True).read_text(workspace.snapshot_file(sid))
    except WorkmemError:
        return []
    if current is None:
        return []
    items = section_items(current[0], NEXT_ACTIONS) + section_items(current[0], OPEN_QUESTIONS)
    return [i for i in items if strip_marker(i)[0] is None]  # done or superseded: not left

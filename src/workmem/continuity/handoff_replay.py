"""The handoff benchmark's replays: a recorded session worked up to a cut, then a new
session of any platform starting in the same project.

The first session (platform P1) is replayed turn by turn through P1's own hooks: its
session start, then for each turn the person's prompt (the transcript as it stood then)
and, once the agent's reply is finished, P1's turn-end event (Claude Code and Codex
``Stop``, Gemini CLI ``AfterAgent``, Cursor ``stop``; OpenClaw's ``message:sent`` only if
workmem subscribes to it), compactions where the recording had them. The turn in flight at
the cut has its prompt and no turn end: the agent was still working. Replaying every turn
of a long session costs a hook or two each, so at most ``MAX_TURNS`` are replayed: the
first, and the last ones before the cut; the turns between are skipped (no hooks), but the
transcript still holds them for every later hook to read.

Then a new session of platform P2 starts: a fresh platform session id and an empty
transcript in P2's layout, its session start (``startup``), and its first prompt
"continue where we left off" written into its transcript before the prompt's hook. What
reaches P2's model from those two hooks, in P2's own reply format, is the handoff.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

from . import hook_shapes as shapes
from .layouts import Placed, add_prompt, new_session, transcript_path
from .sandbox import Sandbox
from .truth import Recording, Said

MAX_TURNS = 6
FIRST_PROMPT = "continue where we left off"
#: seconds between the first session's last activity and the new session's start
GAPS = {"ended": 10 * 60, "never-ended": 25 * 60, "parallel": 60}
CASES = tuple(GAPS)
#: the session end runs this long after the last activity, before the new session
END_AFTER = 30


@dataclass
class Turn:
    prompt: Said
    #: the line where the agent's reply to it ended; None while it was still working
    end: int | None
    #: the agent's last words in the turn (what a turn-end payload carries)
    reply: str = ""


def turns_before(rec: Recording, cut: int) -> list[Turn]:
    """The turns begun at or before ``cut``: each from a prompt to the line before the next."""
    prompts = [p for p in rec.prompts if p.line <= cut]
    turns: list[Turn] = []
    for number, prompt in enumerate(prompts):
        nxt = prompts[number + 1].line if number + 1 < len(prompts) else None
        end = nxt - 1 if nxt is not None else None
        last = end if end is not None else cut
        said = [s.text for s in rec.said if prompt.line < s.line <= last and s.role != "user"]
        turns.append(Turn(prompt, end, said[-1] if said else ""))
    return turns


def chosen_turns(turns: list[Turn], limit: int = MAX_TURNS) -> tuple[list[Turn], int]:
    """At most ``limit`` turns: the first and the last ones; and how many were skipped."""
    if len(turns) <= limit:
        return turns, 0
    kept = [turns[0], *turns[len(turns) - limit + 1 :]]
    return kept, len(turns) - len(kept)


@dataclass
class Source:
    """The first session, replayed up to its cut in ``box``."""

    rec: Recording
    cut: int
    box: Sandbox
    placed: Placed
    transcript: Path
    #: when its transcript was last written (the cut)
    last: float
    turns: int = 0
    skipped: int = 0


def _payload(
    platform: str,
    step: str,
    session_id: str,
    transcript: Path,
    root: Path,
    text: str | None = None,
    source: str = "startup",
) -> dict[str, object]:
    return shapes.payload(
        platform,
        step,
        session_id=session_id,
        transcript=transcript,
        root=root,
        text=text,
        source=source,
    )


def replay_source(
    box: Sandbox,
    rec: Recording,
    cut: int,
    *,
    max_turns: int = MAX_TURNS,
    seed_cache: Path | None = None,
    finished: bool = False,
) -> Source:
    """Seed the memory, then replay the session's turns up to ``cut`` through its hooks
    (``finished``: the agent's last reply was complete at the cut, so its turn ended)."""
    platform, sid = rec.platform, rec.session_id
    placed = Placed(rec, box.home, box.root)
    first = rec.time_at(0)
    last = rec.time_at(cut)
    if first is None or last is None:
        raise ValueError(f"{rec.path.name} says nowhere when it happened")
    box.seed_memory(first - 86400, seed_cache)
    turns, skipped = chosen_turns(turns_before(rec, cut), max_turns)
    if finished and turns and turns[-1].end is None:
        turns[-1].end = cut
    opening = turns[0].prompt.line - 1 if turns else 0
    path = placed.write(max(opening, 0), first)
    box.hook(platform, shapes.START, _payload(platform, shapes.START, sid, path, box.root), first)
    compactions = [c for c in rec.compactions if 0 <= c.cut_line <= cut]
    for turn in turns:
        for point in [c for c in compactions if c.cut_line < turn.prompt.line]:
            _compaction(box, placed, rec, point.cut_line)
            compactions.remove(point)
        at = turn.prompt.line
        placed.write(at, rec.time_at(at))
        data = _payload(platform, shapes.PROMPT, sid, path, box.root, turn.prompt.text)
        box.hook(platform, shapes.PROMPT, data, rec.time_at(at))
        if turn.end is not None:
            placed.write(turn.end, rec.time_at(turn.end))
            data = _payload(platform, shapes.TURN_END, sid, path, box.root, turn.reply)
            box.hook(platform, shapes.TURN_END, data, rec.time_at(turn.end))
    for point in compactions:
        _compaction(box, placed, rec, point.cut_line)
    placed.write(cut, last)
    return Source(rec, cut, box, placed, path, last, len(turns), skipped)


def _compaction(box: Sandbox, placed: Placed, rec: Recording, line: int) -> None:
    """The platform compacted here: its pre-compact hook, then its session start again."""
    platform, sid, moment = rec.platform, rec.session_id, rec.time_at(line)
    path = placed.write(line, moment)
    box.hook(
        platform, shapes.COMPACT, _payload(platform, shapes.COMPACT, sid, path, box.root), moment
    )
    if platform in ("claude-code", "codex"):
        data = _payload(platform, shapes.START, sid, path, box.root, source="compact")
        box.hook(platform, shapes.START, data, moment, label="resume")


def end_source(source: Source) -> None:
    """The first session ends now (its session-end hook, kept in the foreground)."""
    rec, box = source.rec, source.box
    data = _payload(rec.platform, shapes.END, rec.session_id, source.transcript, box.root)
    box.hook(rec.platform, shapes.END, data, source.last + END_AFTER, foreground=True)


@dataclass
class Arrival:
    """What a new session of ``platform`` was given at its start and first prompt."""

    platform: str
    session_id: str
    start: str = ""
    prompt: str = ""
    times: dict[str, float] = field(default_factory=dict)

    @property
    def context(self) -> str:
        return "\n\n".join(part for part in (self.start, self.prompt) if part.strip())


def arrive(box: Sandbox, platform: str, moment: float, seed: str) -> Arrival:
    """A new ``platform`` session starts in the project at ``moment``: its start, then its
    first prompt five seconds later."""
    sid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"workmem-handoff/{seed}/{platform}"))
    path = transcript_path(platform, box.home, box.root, sid, moment)
    new_session(platform, path, sid, box.root, moment)
    before = dict(box.times)
    out = box.hook(
        platform, shapes.START, _payload(platform, shapes.START, sid, path, box.root), moment
    )
    arrival = Arrival(platform, sid)
    arrival.start = shapes.model_context(platform, shapes.START, out or "", box.root)
    asked = moment + 5
    add_prompt(platform, path, sid, box.root, FIRST_PROMPT, asked)
    data = _payload(platform, shapes.PROMPT, sid, path, box.root, FIRST_PROMPT)
    out = box.hook(platform, shapes.PROMPT, data, asked)
    arrival.prompt = shapes.model_context(platform, shapes.PROMPT, out or "", box.root)
    arrival.times = {k: v - before.get(k, 0.0) for k, v in box.times.items() if v != before.get(k)}
    return arrival

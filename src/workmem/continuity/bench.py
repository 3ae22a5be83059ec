"""``workmem bench continuity``: does the context after a compaction hold what comes next?

For every recorded session under a folder (Claude Code, Codex, Gemini CLI and OpenClaw
transcripts, each detected by its records), cut it at
points where the agent had work in flight, replay the part before the cut through the hooks
in a fresh HOME and memory root, and score what the post-compaction session start gives
back against what the transcript itself shows the agent needed next: the open plan items,
the last request, the files it went back to. Two baselines run on the same cuts: the raw
tail of the conversation at the same size, and, where the platform compacted the session
itself, its own summary. Beside the score: the plan marks' precision, lines the context
repeats, whether the long-term memories seeded before the replay reach the session start
(their content, not their names), and the tokens at the start and at the resume; every
figure also per platform.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import NotFoundError
from .measures import Precision, memory_present, plan_precision, repeated_lines
from .replay import SEED_ACTIVE, SEED_FEEDBACK, replay
from .score import Parts, score
from .truth import Recording, read_recording

NEXT_CALLS = 25
MIN_CALLS_AFTER = 8
#: without a plan: cuts at 1/2 and 3/4 of the calls, each with at least this many after it
SPREAD_MIN_AFTER = 4
#: the seeded long-term memories whose content a session start should hold
SEEDED = {"MEMORY.md Active entry": SEED_ACTIVE, "feedback memory": SEED_FEEDBACK}


@dataclass
class Truth:
    plan: list[str]
    request: str | None
    files: list[str]


@dataclass
class Cut:
    file: str
    line: int
    kind: str  # "plan", "spread" or "compact"
    truth: Truth
    platform: str = ""
    tokens: int = 0
    parts: Parts = field(default_factory=Parts)
    tail: Parts = field(default_factory=Parts)
    compact: Parts | None = None
    compact_tokens: int | None = None
    times: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    context: str = ""
    start_context: str = ""
    start_tokens: int = 0
    precision: Precision = field(default_factory=Precision)
    repeats: list[str] = field(default_factory=list)
    start_repeats: list[str] = field(default_factory=list)
    memory: dict[str, bool] = field(default_factory=dict)

    def to_dict(self, *, with_context: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": self.file,
            "platform": self.platform,
            "line": self.line + 1,
            "kind": self.kind,
            "tokens": self.tokens,
            "score": self.parts.score,
            "parts": self.parts.to_dict(),
            "tail_score": self.tail.score,
            "tail": self.tail.to_dict(),
            "compact_score": self.compact.score if self.compact else None,
            "compact_tokens": self.compact_tokens,
            "plan_precision": self.precision.to_dict(),
            "repeated_lines": self.repeats,
            "start_tokens": self.start_tokens,
            "start_repeated_lines": self.start_repeats,
            "memory_at_start": self.memory,
            "hook_seconds": {k: round(v, 3) for k, v in self.times.items()},
            "failures": self.failures,
            "truth": {
                "plan": self.truth.plan,
                "request": self.truth.request,
                "files": self.truth.files,
            },
        }
        if with_context:
            data["context"] = self.context
            data["start_context"] = self.start_context
        return data


def transcripts_under(data: Path) -> list[Path]:
    """JSON Lines transcripts, and Gemini CLI's single JSON chats, under ``data``."""
    if data.is_file():
        return [data]
    found = [*data.rglob("*.jsonl"), *data.rglob("*.json")]
    return sorted(p for p in found if p.is_file())


def recordings_under(data: Path) -> tuple[list[Recording], dict[str, str]]:
    """Every session under ``data`` that can be read, and why the others cannot."""
    found: list[Recording] = []
    unreadable: dict[str, str] = {}
    for path in transcripts_under(data):
        try:
            found.append(read_recording(path))
        except (OSError, ValueError) as exc:
            unreadable[str(path)] = str(exc)[:200]
    return found, unreadable


def truth_at(rec: Recording, line: int) -> Truth:
    plan = rec.plan_at(line) or []
    open_items = [text for text, status in plan if status in ("in_progress", "pending")]
    before = {f for s in rec.steps if s.end_line <= line for f in s.files}
    after = [s for s in rec.steps if s.line > line][:NEXT_CALLS]
    again = {f for s in after for f in s.files}
    return Truth(open_items, rec.request_at(line), sorted(before & again))


def _spread(candidates: list[int], count: int) -> list[int]:
    if len(candidates) <= count:
        return candidates
    return [candidates[int((i + 0.5) * len(candidates) / count)] for i in range(count)]


def cut_points(rec: Recording, count: int) -> list[tuple[int, str]]:
    """Up to ``count`` (line, kind): after plan updates with an item in progress, else at
    1/2 and 3/4 of the tool calls."""
    ends = {s.line: s.end_line for s in rec.steps}
    candidates: list[int] = []
    for line, state in rec.plans:
        if not any(status == "in_progress" for _, status in state):
            continue
        cut = max(line, ends.get(line, line))
        if sum(1 for s in rec.steps if s.line > cut) >= MIN_CALLS_AFTER and cut not in candidates:
            candidates.append(cut)
    if candidates:
        return [(line, "plan") for line in _spread(candidates, count)]
    steps = rec.steps
    cuts: list[tuple[int, str]] = []
    for n, d in ((1, 2), (3, 4)):
        at = len(steps) * n // d - 1
        if at >= 0 and len(steps) - at - 1 >= SPREAD_MIN_AFTER:
            cuts.append((steps[at].end_line, "spread"))
    return cuts[: max(count, 0)]


def _tail_text(rec: Recording, line: int, tokens: int) -> str:
    from ..retrieval.tokens import count_tokens

    kept: list[str] = []
    used = 0
    for said in reversed([s for s in rec.said if s.line <= line]):
        cost = count_tokens(said.text)
        if used + cost > tokens:
            room = tokens - used
            if room > 0:
                kept.append(said.text[-room * 3 :])
            break
        kept.append(said.text)
        used += cost
    return "\n\n".join(reversed(kept))


def run_cut(
    rec: Recording, line: int, kind: str, budget: int, seed_cache: Path | None = None
) -> Cut:
    from ..retrieval.tokens import count_tokens

    truth = truth_at(rec, line)
    cut = Cut(rec.path.name, line, kind, truth, rec.platform)
    done = replay(rec, line, truth.request, budget=budget, seed_cache=seed_cache)
    cut.context, cut.times, cut.failures = done.context, done.times, done.failures
    cut.tokens = count_tokens(done.context)
    cut.parts = score(truth.plan, truth.request, truth.files, done.context)
    tail = _tail_text(rec, line, cut.tokens)
    cut.tail = score(truth.plan, truth.request, truth.files, tail)
    cut.precision = plan_precision(rec.plan_at(line), done.context)
    cut.repeats = repeated_lines(done.context)
    cut.start_context = done.start_context
    cut.start_tokens = count_tokens(done.start_context)
    cut.start_repeats = repeated_lines(done.start_context)
    cut.memory = memory_present(done.start_context, SEEDED)
    return cut


def run(
    data: Path, *, cuts: int = 3, budget: int = 2000, with_context: bool = False
) -> dict[str, Any]:
    """Every cut of every transcript under ``data``, and the summary of them all."""
    import tempfile

    from ..retrieval.tokens import count_tokens

    results: list[Cut] = []
    recordings, unreadable = recordings_under(data)
    without_cut: list[str] = []
    with tempfile.TemporaryDirectory(prefix="workmem-seeds-") as seeds:
        cache = Path(seeds)
        for rec in recordings:
            points = cut_points(rec, cuts)
            if not points and not rec.compactions:
                without_cut.append(rec.path.name)
            for line, kind in points:
                results.append(run_cut(rec, line, kind, budget, cache))
            for point in rec.compactions:
                if point.cut_line < 0 or not point.summary.strip():
                    continue
                cut = run_cut(rec, point.cut_line, "compact", budget, cache)
                cut.compact = score(
                    cut.truth.plan, cut.truth.request, cut.truth.files, point.summary
                )
                cut.compact_tokens = count_tokens(point.summary)
                results.append(cut)
    if not results:
        raise NotFoundError(_nothing_to_cut(data, without_cut, unreadable))
    summary = summarize(results, budget)
    summary["platforms"] = {
        platform: summarize([c for c in results if c.platform == platform], budget, short=True)
        for platform in sorted({r.platform for r in recordings})
    }
    for platform, part in summary["platforms"].items():
        part["transcripts"] = sum(1 for r in recordings if r.platform == platform)
    summary["without_cut"] = without_cut
    summary["unreadable"] = unreadable
    return {
        "cuts": [c.to_dict(with_context=with_context) for c in results],
        "summary": summary,
    }


def _nothing_to_cut(data: Path, without_cut: list[str], unreadable: dict[str, str]) -> str:
    """Why a folder gave no cut at all, session by session."""
    reasons = [f"{name}: too few tool calls" for name in without_cut]
    reasons += [f"{Path(name).name}: {why}" for name, why in unreadable.items()]
    found = "; ".join(reasons[:8]) or "no .jsonl or .json transcript in it"
    return f"no session under {data} could be cut ({found})"


def is_empty(context: str) -> bool:
    """Nothing but the session ID line: the agent learns nothing of its work."""
    lines = [line for line in context.strip().splitlines() if line.strip()]
    return not [line for line in lines if not line.startswith("Your Memory Session ID is:")]


def mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 3) if values else None


def _precision(cuts: list[Cut]) -> dict[str, Any]:
    marks = sum(c.precision.marks for c in cuts)
    opens = sum(c.precision.open_marks for c in cuts)
    done = sum(c.precision.done_items for c in cuts)
    return {
        "plan_precision": round(sum(c.precision.correct for c in cuts) / marks, 3)
        if marks
        else None,
        "open_precision": round(sum(c.precision.open_correct for c in cuts) / opens, 3)
        if opens
        else None,
        "done_shown_done": round(sum(c.precision.done_shown_done for c in cuts) / done, 3)
        if done
        else None,
        "done_shown_open": sum(c.precision.done_shown_open for c in cuts),
    }


def memory_share(found: list[dict[str, bool]]) -> dict[str, float | None]:
    """Per seeded memory: the share of starts whose context holds its content."""
    names = sorted({name for one in found for name in one})
    return {name: mean([1.0 if one.get(name) else 0.0 for one in found]) for name in names}


def summarize(results: list[Cut], budget: int, *, short: bool = False) -> dict[str, Any]:
    scored = [c for c in results if c.parts.score is not None]
    tokens = [c.tokens for c in results]
    starts = [c.start_tokens for c in results]
    compacts = [c for c in results if c.compact is not None and c.compact.score is not None]

    def part(name: str, cuts: list[Cut], attr: str = "parts") -> float | None:
        values = [getattr(getattr(c, attr), name) for c in cuts]
        return mean([v for v in values if v is not None])

    summary: dict[str, Any] = {
        "transcripts": len({c.file for c in results}),
        "cuts": len(results),
        "score": mean([c.parts.score for c in scored if c.parts.score is not None]),
        "plan": part("plan", results),
        "request": part("request", results),
        "files": part("files", results),
        "tail_score": mean([c.tail.score for c in scored if c.tail.score is not None]),
        "empty_contexts": sum(1 for c in results if is_empty(c.context)),
        "cuts_with_failures": sum(1 for c in results if c.failures),
        "tokens_median": statistics.median(tokens) if tokens else 0,
        "tokens_max": max(tokens) if tokens else 0,
        "start_tokens_median": statistics.median(starts) if starts else 0,
        "start_tokens_max": max(starts) if starts else 0,
        "over_budget": sum(1 for t in tokens if t > budget),
        **_precision(results),
        "repeated_lines": sum(len(c.repeats) for c in results),
        "start_repeated_lines": sum(len(c.start_repeats) for c in results),
        "memory_at_start": memory_share([c.memory for c in results]),
    }
    if short:
        return summary
    hooks: dict[str, dict[str, float]] = {}
    for label in ("startup", "prompt", "pre-compact", "resume"):
        times = sorted(c.times[label] for c in results if label in c.times)
        if times:
            hooks[label] = {
                "median": round(statistics.median(times), 3),
                "max": round(times[-1], 3),
            }
    summary.update(
        budget=budget,
        compact_cuts=len(compacts),
        compact_score=mean(
            [c.compact.score for c in compacts if c.compact and c.compact.score is not None]
        ),
        workmem_at_compact_cuts=mean(
            [c.parts.score for c in compacts if c.parts.score is not None]
        ),
        compact_tokens_median=(
            statistics.median([c.compact_tokens or 0 for c in compacts]) if compacts else None
        ),
        hook_seconds=hooks,
    )
    return summary

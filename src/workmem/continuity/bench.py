"""``workmem bench continuity``: does the context after a compaction hold what comes next?

For every recorded session under a folder (Claude Code JSONL or Codex rollouts), cut it at
points where the agent had work in flight, replay the part before the cut through the hooks
in a fresh HOME and memory root, and score what the post-compaction session start gives
back against what the transcript itself shows the agent needed next: the open plan items,
the last request, the files it went back to. Two baselines run on the same cuts: the raw
tail of the conversation at the same size, and, where the platform compacted the session
itself, its own summary.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .replay import replay
from .score import Parts, score
from .truth import Recording, read_recording

NEXT_CALLS = 25
MIN_CALLS_AFTER = 8
NO_PLAN_MIN_CALLS = 16


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
    tokens: int = 0
    parts: Parts = field(default_factory=Parts)
    tail: Parts = field(default_factory=Parts)
    compact: Parts | None = None
    compact_tokens: int | None = None
    times: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    context: str = ""

    def to_dict(self, *, with_context: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": self.file,
            "line": self.line + 1,
            "kind": self.kind,
            "tokens": self.tokens,
            "score": self.parts.score,
            "parts": self.parts.to_dict(),
            "tail_score": self.tail.score,
            "tail": self.tail.to_dict(),
            "compact_score": self.compact.score if self.compact else None,
            "compact_tokens": self.compact_tokens,
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
        return data


def transcripts_under(data: Path) -> list[Path]:
    if data.is_file():
        return [data]
    return sorted(p for p in data.rglob("*.jsonl") if p.is_file())


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
    """(line, kind): after plan updates with an item in progress, else at 1/2 and 3/4."""
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
    if len(steps) < NO_PLAN_MIN_CALLS:
        return []
    return [(steps[len(steps) * n // d - 1].end_line, "spread") for n, d in ((1, 2), (3, 4))]


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


def run_cut(rec: Recording, line: int, kind: str, budget: int) -> Cut:
    from ..retrieval.tokens import count_tokens

    truth = truth_at(rec, line)
    cut = Cut(rec.path.name, line, kind, truth)
    done = replay(rec, line, truth.request, budget=budget)
    cut.context, cut.times, cut.failures = done.context, done.times, done.failures
    cut.tokens = count_tokens(done.context)
    cut.parts = score(truth.plan, truth.request, truth.files, done.context)
    tail = _tail_text(rec, line, cut.tokens)
    cut.tail = score(truth.plan, truth.request, truth.files, tail)
    return cut


def run(data: Path, *, cuts: int = 3, budget: int = 2000) -> dict[str, Any]:
    """Every cut of every transcript under ``data``, and the summary of them all."""
    from ..retrieval.tokens import count_tokens

    results: list[Cut] = []
    for path in transcripts_under(data):
        rec = read_recording(path)
        for line, kind in cut_points(rec, cuts):
            results.append(run_cut(rec, line, kind, budget))
        for point in rec.compactions:
            if point.cut_line < 0 or not point.summary.strip():
                continue
            cut = run_cut(rec, point.cut_line, "compact", budget)
            cut.compact = score(cut.truth.plan, cut.truth.request, cut.truth.files, point.summary)
            cut.compact_tokens = count_tokens(point.summary)
            results.append(cut)
    return {"cuts": [c.to_dict() for c in results], "summary": summarize(results, budget)}


def is_empty(context: str) -> bool:
    """Nothing but the session ID line: the agent learns nothing of its work."""
    lines = [line for line in context.strip().splitlines() if line.strip()]
    return not [line for line in lines if not line.startswith("Your Memory Session ID is:")]


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 3) if values else None


def summarize(results: list[Cut], budget: int) -> dict[str, Any]:
    scored = [c for c in results if c.parts.score is not None]
    tokens = [c.tokens for c in results]
    compacts = [c for c in results if c.compact is not None and c.compact.score is not None]

    def part(name: str, cuts: list[Cut], attr: str = "parts") -> float | None:
        values = [getattr(getattr(c, attr), name) for c in cuts]
        return _mean([v for v in values if v is not None])

    hooks: dict[str, dict[str, float]] = {}
    for label in ("startup", "prompt", "pre-compact", "resume"):
        times = sorted(c.times[label] for c in results if label in c.times)
        if times:
            hooks[label] = {
                "median": round(statistics.median(times), 3),
                "max": round(times[-1], 3),
            }
    return {
        "transcripts": len({c.file for c in results}),
        "cuts": len(results),
        "score": _mean([c.parts.score for c in scored if c.parts.score is not None]),
        "plan": part("plan", results),
        "request": part("request", results),
        "files": part("files", results),
        "tail_score": _mean([c.tail.score for c in scored if c.tail.score is not None]),
        "empty_contexts": sum(1 for c in results if is_empty(c.context)),
        "cuts_with_failures": sum(1 for c in results if c.failures),
        "tokens_median": statistics.median(tokens) if tokens else 0,
        "tokens_max": max(tokens) if tokens else 0,
        "over_budget": sum(1 for t in tokens if t > budget),
        "budget": budget,
        "compact_cuts": len(compacts),
        "compact_score": _mean(
            [c.compact.score for c in compacts if c.compact and c.compact.score is not None]
        ),
        "workmem_at_compact_cuts": _mean(
            [c.parts.score for c in compacts if c.parts.score is not None]
        ),
        "compact_tokens_median": (
            statistics.median([c.compact_tokens or 0 for c in compacts]) if compacts else None
        ),
        "hook_seconds": hooks,
    }

"""``workmem bench handoff``: does a new session, in any agent, pick up the work?

Each recorded session (platform P1) is cut mid-task as ``bench continuity`` cuts it and
replayed up to the cut through P1's hooks (``handoff_replay``). Then, for each case, a new
session of each target platform P2 starts in the same project and says "continue where we
left off"; what reaches its model at its start and first prompt is scored against what the
transcript shows came next (plan items, last request, files in play: ``score``):

- ended: P1's session-end hook ran, and the new session starts 10 minutes later;
- never-ended: no session end (a crash, a closed terminal, a usage limit); the new
  session starts 25 minutes after P1's last activity;
- parallel: P1 is still running (its transcript written a minute before the new start).
  Here the measure is the leak: the share of P1's open plan items that the new session is
  given as plan items of its own (target 0; a one-line mention of the other session is
  allowed).

The first session is replayed once per cut; each case and each target starts from a copy
of its sandbox. Beside the score: empty contexts, tokens (start plus first prompt), plan
precision, repeated lines, the seeded long-term memories' content at the start, and the
account the session end leaves (board summary, snapshots, resumption note, daily log)
against the plan: at the cut (ended case) and at the end of the whole recording.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bench import SEEDED, Truth, cut_points, is_empty, recordings_under, truth_at
from .handoff_replay import CASES, GAPS, MAX_TURNS, arrive, end_source, replay_source
from .handoff_report import summarize
from .layouts import TARGETS
from .measures import (
    Agreement,
    Precision,
    account_agreement,
    account_documents,
    leaked_items,
    memory_present,
    plan_precision,
    repeated_lines,
)
from .sandbox import Sandbox, scratch
from .score import Parts, score
from .truth import Recording


@dataclass
class Arrived:
    """One new session of ``target`` after one cut of one recorded session, in one case."""

    file: str
    source: str
    target: str
    case: str
    line: int
    kind: str
    truth: Truth
    parts: Parts = field(default_factory=Parts)
    tokens: int = 0
    start_tokens: int = 0
    empty: bool = False
    precision: Precision = field(default_factory=Precision)
    repeats: list[str] = field(default_factory=list)
    memory: dict[str, bool] = field(default_factory=dict)
    leaked: list[str] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    start: str = ""
    prompt: str = ""

    def to_dict(self, *, with_context: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": self.file,
            "source": self.source,
            "target": self.target,
            "case": self.case,
            "line": self.line + 1,
            "kind": self.kind,
            "score": self.parts.score,
            "parts": self.parts.to_dict(),
            "tokens": self.tokens,
            "start_tokens": self.start_tokens,
            "empty": self.empty,
            "plan_precision": self.precision.to_dict(),
            "repeated_lines": self.repeats,
            "memory_at_start": self.memory,
            "leaked_plan_items": self.leaked,
            "hook_seconds": {k: round(v, 3) for k, v in self.times.items()},
            "failures": self.failures,
            "truth": {
                "plan": self.truth.plan,
                "request": self.truth.request,
                "files": self.truth.files,
            },
        }
        if with_context:
            data.update(start_context=self.start, prompt_context=self.prompt)
        return data


@dataclass
class SourceResult:
    """Everything measured from one cut of one recorded session."""

    file: str
    platform: str
    line: int
    kind: str
    arrivals: list[Arrived] = field(default_factory=list)
    agreement: Agreement | None = None
    turns: int = 0
    skipped_turns: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "platform": self.platform,
            "line": self.line + 1,
            "kind": self.kind,
            "turns_replayed": self.turns,
            "turns_skipped": self.skipped_turns,
            "account_at_cut": self.agreement.to_dict() if self.agreement else None,
            "seconds": round(self.seconds, 2),
            "failures": self.failures,
        }


def _new_failures(box: Sandbox, failures_before: int, log_before: int) -> list[str]:
    return box.failures[failures_before:] + box.hook_log()[log_before:]


def run_source(
    rec: Recording,
    line: int,
    kind: str,
    targets: Iterable[str],
    *,
    cases: Iterable[str] = CASES,
    max_turns: int = MAX_TURNS,
    seed_cache: Path | None = None,
    inprocess: bool = False,
) -> SourceResult:
    """Replay one cut of ``rec`` once, then every case and target from copies of it."""
    from ..retrieval.tokens import count_tokens

    started = time.perf_counter()
    result = SourceResult(rec.path.name, rec.platform, line, kind)
    truth = truth_at(rec, line)
    plan = rec.plan_at(line)
    with tempfile.TemporaryDirectory(prefix="workmem-handoff-", dir=scratch()) as tmp:
        box = Sandbox.create(Path(tmp) / "box", inprocess=inprocess)
        source = replay_source(box, rec, line, max_turns=max_turns, seed_cache=seed_cache)
        result.turns, result.skipped_turns = source.turns, source.skipped
        result.failures = box.failures + box.hook_log()
        after_source = Path(tmp) / "after-source"
        box.keep(after_source)
        for number, case in enumerate(cases):
            if number:  # the first case starts from the state the replay left as it is
                box.restore(after_source)
            if case == "ended":
                failures_before, log_before = len(box.failures), len(box.hook_log())
                end_source(source)
                result.failures += _new_failures(box, failures_before, log_before)
                documents = account_documents(box.root / "memory")
                result.agreement = account_agreement(plan, documents)
            case_state = Path(tmp) / f"case-{case}"
            box.keep(case_state)
            for position, target in enumerate(targets):
                if position:  # the first target starts from the case's state as it is
                    box.restore(case_state)
                failures_before, log_before = len(box.failures), len(box.hook_log())
                moment = source.last + GAPS[case]
                arrival = arrive(box, target, moment, f"{rec.path.name}/{line}/{case}")
                one = Arrived(rec.path.name, rec.platform, target, case, line, kind, truth)
                context = arrival.context
                one.start, one.prompt, one.times = arrival.start, arrival.prompt, arrival.times
                one.parts = score(truth.plan, truth.request, truth.files, context)
                one.tokens = count_tokens(context)
                one.start_tokens = count_tokens(arrival.start)
                one.empty = is_empty(context)
                one.precision = plan_precision(plan, context)
                one.repeats = repeated_lines(context)
                one.memory = memory_present(arrival.start, SEEDED)
                if case == "parallel":
                    one.leaked = leaked_items(truth.plan, context)
                one.failures = _new_failures(box, failures_before, log_before)
                result.arrivals.append(one)
            shutil.rmtree(case_state)
    result.seconds = time.perf_counter() - started
    return result


@dataclass
class EndAccount:
    """The account a whole recorded session leaves at its end, against its final plan."""

    file: str
    platform: str
    agreement: Agreement
    failures: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "platform": self.platform,
            **self.agreement.to_dict(),
            "failures": self.failures,
        }


def run_end_account(
    rec: Recording,
    *,
    max_turns: int = MAX_TURNS,
    seed_cache: Path | None = None,
    inprocess: bool = False,
) -> EndAccount:
    """Replay the whole recording, end it, and read what it left against its final plan."""
    last = len(rec.lines) - 1
    with tempfile.TemporaryDirectory(prefix="workmem-handoff-end-", dir=scratch()) as tmp:
        box = Sandbox.create(Path(tmp) / "box", inprocess=inprocess)
        source = replay_source(
            box, rec, last, max_turns=max_turns, seed_cache=seed_cache, finished=True
        )
        end_source(source)
        documents = account_documents(box.root / "memory")
        failures = box.failures + box.hook_log()
    agreement = account_agreement(rec.plan_at(last), documents)
    return EndAccount(rec.path.name, rec.platform, agreement, failures)


@dataclass
class Plan:
    """What one run covers."""

    sources: list[tuple[Recording, int, str]]
    targets: list[str]
    accounts: list[Recording]
    skipped: dict[str, str] = field(default_factory=dict)


def plan_run(
    data: Path,
    *,
    cuts: int = 1,
    all_pairs: bool = False,
    targets: list[str] | None = None,
    sessions_per_platform: int | None = 1,
) -> Plan:
    """The cuts to replay. By default one session per source platform (the first by name
    with a cut) and one cut each; ``all_pairs`` takes every session."""
    recordings, unreadable = recordings_under(data)
    skipped = {path: f"unreadable: {why}" for path, why in unreadable.items()}
    per_platform: dict[str, int] = {}
    sources: list[tuple[Recording, int, str]] = []
    accounts: list[Recording] = []
    for rec in recordings:
        if rec.time_at(0) is None:
            skipped[rec.path.name] = "no times in the recording"
            continue
        points = cut_points(rec, cuts)
        if not points:
            skipped[rec.path.name] = "too few tool calls for a cut with work after it"
            continue
        taken = per_platform.get(rec.platform, 0)
        if not all_pairs and sessions_per_platform is not None and taken >= sessions_per_platform:
            continue
        per_platform[rec.platform] = taken + 1
        sources += [(rec, line, kind) for line, kind in points]
        if rec.plans:
            accounts.append(rec)
    return Plan(sources, list(targets or TARGETS), accounts, skipped)


def _pool(workers: int, inprocess: bool) -> Executor:
    """Threads when each hook is its own process; processes when hooks run in-process
    (each worker runs its replays in its own main thread, one at a time)."""
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    if not inprocess:
        return ThreadPoolExecutor(max_workers=workers)
    if workers <= 1:
        return _Here()
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)


class _Here(Executor):
    """Runs each job at once, in this thread (in-process hooks need the main thread)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


def run(
    data: Path,
    *,
    cuts: int = 1,
    all_pairs: bool = False,
    targets: list[str] | None = None,
    workers: int = 2,
    inprocess: bool = True,
    max_turns: int = MAX_TURNS,
    with_context: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every planned cut, case and target; the report with its summary."""
    started = time.perf_counter()
    plan = plan_run(data, cuts=cuts, all_pairs=all_pairs, targets=targets)
    if not plan.sources:
        from ..errors import NotFoundError

        found = "; ".join(f"{Path(k).name}: {v}" for k, v in list(plan.skipped.items())[:8])
        raise NotFoundError(
            f"no session under {data} could be cut ({found or 'no transcript in it'})"
        )
    results: list[SourceResult] = []
    with tempfile.TemporaryDirectory(prefix="workmem-seeds-", dir=scratch()) as seeds:
        common: dict[str, Any] = {
            "max_turns": max_turns,
            "seed_cache": Path(seeds),
            "inprocess": inprocess,
        }
        with _pool(max(1, workers), inprocess) as pool:
            cut_jobs = [
                pool.submit(run_source, rec, line, kind, plan.targets, **common)
                for rec, line, kind in plan.sources
            ]
            end_jobs = [pool.submit(run_end_account, rec, **common) for rec in plan.accounts]
            for job in cut_jobs:
                results.append(job.result())
                if progress:
                    done = results[-1]
                    progress(f"{done.file} line {done.line + 1}: {done.seconds:.1f} s")
            ends = [job.result() for job in end_jobs]
    arrivals = [a for r in results for a in r.arrivals]
    summary = summarize(results, ends)
    summary.update(
        seconds=round(time.perf_counter() - started, 1),
        workers=workers,
        inprocess=inprocess,
        all_pairs=all_pairs,
        skipped=plan.skipped,
    )
    return {
        "sources": [r.to_dict() for r in results],
        "cuts": [a.to_dict(with_context=with_context) for a in arrivals],
        "accounts_at_end": [e.to_dict() for e in ends],
        "summary": summary,
    }

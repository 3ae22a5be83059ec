"""The handoff benchmark's summary: per case, per pair of platforms, against the targets,
and the plain-text report whose last lines are that summary."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

from .bench import mean, memory_share

if TYPE_CHECKING:
    from .handoff_bench import Arrived, EndAccount, SourceResult
    from .measures import Agreement

TOKEN_TARGET = 3000
SCORE_TARGET = 0.95


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def stats(arrivals: list[Arrived], *, short: bool = False) -> dict[str, Any]:
    """The figures of a group of new sessions."""
    tokens = sorted(a.tokens for a in arrivals)
    scored = [a.parts.score for a in arrivals if a.parts.score is not None]

    def part(name: str) -> float | None:
        values = [getattr(a.parts, name) for a in arrivals]
        return mean([v for v in values if v is not None])

    opened = sum(len(a.truth.plan) for a in arrivals)
    leaked = sum(len(a.leaked) for a in arrivals)
    figures: dict[str, Any] = {
        "new_sessions": len(arrivals),
        "score": mean(scored),
        "plan": part("plan"),
        "request": part("request"),
        "files": part("files"),
        "empty_contexts": sum(1 for a in arrivals if a.empty),
        #: contexts with not one plan item, request word or file of the work (score 0)
        "nothing_of_the_work": sum(1 for a in arrivals if a.parts.score == 0.0),
        "tokens_median": statistics.median(tokens) if tokens else 0,
        "tokens_max": tokens[-1] if tokens else 0,
        "leak": _ratio(leaked, opened) if any(a.case == "parallel" for a in arrivals) else None,
    }
    if short:
        return figures
    marks = sum(a.precision.marks for a in arrivals)
    starts = sorted(a.start_tokens for a in arrivals)
    figures.update(
        over_token_target=sum(1 for t in tokens if t > TOKEN_TARGET),
        start_tokens_median=statistics.median(starts) if starts else 0,
        plan_precision=_ratio(sum(a.precision.correct for a in arrivals), marks),
        done_shown_open=sum(a.precision.done_shown_open for a in arrivals),
        repeated_lines=sum(len(a.repeats) for a in arrivals),
        contexts_with_repeats=sum(1 for a in arrivals if a.repeats),
        memory_at_start=memory_share([a.memory for a in arrivals]),
        leaked_items=leaked,
        open_items=opened,
        sessions_with_leak=sum(1 for a in arrivals if a.leaked),
        with_failures=sum(1 for a in arrivals if a.failures),
    )
    return figures


def accounts(agreements: list[Agreement]) -> dict[str, Any]:
    """Many sessions' accounts together: the share of plan states given right, how much
    of the plan they name, and how many call a finished plan "in progress"."""
    documents: dict[str, dict[str, int]] = {}
    for one in agreements:
        for name, counts in one.documents.items():
            into = documents.setdefault(name, {"named": 0, "checked": 0, "agree": 0, "items": 0})
            for key in ("named", "checked", "agree"):
                into[key] += counts[key]
            into["items"] += one.items
    checked = sum(d["checked"] for d in documents.values())
    finished = [a for a in agreements if a.items and a.finished]
    return {
        "sessions": len(agreements),
        "agreement": _ratio(sum(d["agree"] for d in documents.values()), checked),
        "named": {name: _ratio(d["named"], d["items"]) for name, d in documents.items()},
        "finished_plans": len(finished),
        "finished_called_in_progress": sum(1 for a in finished if a.finished_called_in_progress),
    }


def summarize(results: list[SourceResult], ends: list[EndAccount]) -> dict[str, Any]:
    from .handoff_replay import CASES

    arrivals = [a for r in results for a in r.arrivals]
    platforms: dict[str, int] = {}
    for _file, platform in {(r.file, r.platform) for r in results}:
        platforms[platform] = platforms.get(platform, 0) + 1
    cases = {case: stats([a for a in arrivals if a.case == case]) for case in CASES}
    pairs: dict[str, dict[str, Any]] = {}
    for source, target in sorted({(a.source, a.target) for a in arrivals}):
        pair = [a for a in arrivals if (a.source, a.target) == (source, target)]
        pairs[f"{source} -> {target}"] = {
            case: stats([a for a in pair if a.case == case], short=True) for case in CASES
        }
    hooks: dict[str, dict[str, float]] = {}
    for label in ("start", "prompt", "turn-end", "end"):
        times = sorted(a.times[label] for a in arrivals if label in a.times)
        if times:
            hooks[f"new session {label}"] = {
                "median": round(statistics.median(times), 3),
                "max": round(times[-1], 3),
            }
    return {
        "sessions": dict(sorted(platforms.items())),
        "cuts": len(results),
        "targets": sorted({a.target for a in arrivals}),
        "new_sessions": len(arrivals),
        "turns_replayed": sum(r.turns for r in results),
        "turns_skipped": sum(r.skipped_turns for r in results),
        "source_failures": sum(1 for r in results if r.failures)
        + sum(1 for e in ends if e.failures),
        "cases": cases,
        "pairs": pairs,
        "account_at_cut": accounts([r.agreement for r in results if r.agreement]),
        "account_at_end": accounts([e.agreement for e in ends]),
        "targets_met": _targets(cases),
        "hook_seconds": hooks,
    }


def _targets(cases: dict[str, dict[str, Any]]) -> dict[str, bool | None]:
    def at_least(case: str) -> bool | None:
        value = cases[case]["score"]
        return None if value is None else value >= SCORE_TARGET

    every = [c for c in cases.values() if c["new_sessions"]]
    parallel = cases["parallel"]
    return {
        "ended_score": at_least("ended"),
        "never_ended_score": at_least("never-ended"),
        # A running session's work must not be handed over: "nothing of the work" is the
        # right answer there; an empty context (only the ID) is wrong in every case.
        "no_empty_context": all(
            c["empty_contexts"] == 0 and (c is parallel or c["nothing_of_the_work"] == 0)
            for c in every
        )
        if every
        else None,
        "tokens": all(c["tokens_max"] <= TOKEN_TARGET for c in every) if every else None,
        "parallel_no_leak": None if parallel["leak"] is None else parallel["leaked_items"] == 0,
        "memory_content_at_start": all(
            share == 1.0 for c in every for share in c["memory_at_start"].values()
        )
        if every
        else None,
        "no_repeats": all(c["repeated_lines"] == 0 for c in every) if every else None,
    }


def _f(value: object, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _pair(first: object, second: object) -> str:
    return f"{first}/{second}"


def _yes(value: bool | None) -> str:
    return "n/a" if value is None else ("yes" if value else "NO")


def pair_lines(report: dict[str, Any]) -> list[str]:
    """One line per platform pair and case."""
    lines = [
        f"{'first -> new session':28} {'case':12} {'n':>3} {'score':>5} {'plan':>5} "
        f"{'req':>5} {'files':>5} {'empty/0':>7} {'tok med':>7} {'tok max':>7} {'leak':>5}"
    ]
    for pair, per_case in report["summary"]["pairs"].items():
        for case, s in per_case.items():
            if not s["new_sessions"]:
                continue
            lines.append(
                f"{pair:28} {case:12} {s['new_sessions']:>3} {_f(s['score']):>5} "
                f"{_f(s['plan']):>5} {_f(s['request']):>5} {_f(s['files']):>5} "
                f"{_pair(s['empty_contexts'], s['nothing_of_the_work']):>7} "
                f"{_f(s['tokens_median'], 0):>7} {s['tokens_max']:>7} "
                f"{_f(s['leak']):>5}"
            )
    return lines


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The summary: at most 12 lines, the last ones of the text report."""
    s = report["summary"]
    sessions = ", ".join(f"{p} {n}" for p, n in s["sessions"].items()) or "none"
    scope = "every session" if s["all_pairs"] else "one session per platform (--all-pairs: all)"
    lines = [
        f"handoff: {s['cuts']} cuts of {sessions}; {scope}; "
        f"{s['new_sessions']} new sessions in {', '.join(s['targets'])}; "
        f"{s['seconds']} s, {s['workers']} workers",
        f"{'case':12} {'score':>5} {'plan':>5} {'req':>5} {'files':>5} {'empty/0':>7} "
        f"{'tokens med/max':>14} {'precision':>9} {'repeats':>7} {'memory':>13} {'leak':>5}",
    ]
    for case, c in s["cases"].items():
        memory = "/".join(_f(v) for v in c["memory_at_start"].values()) or "-"
        lines.append(
            f"{case:12} {_f(c['score']):>5} {_f(c['plan']):>5} {_f(c['request']):>5} "
            f"{_f(c['files']):>5} {_pair(c['empty_contexts'], c['nothing_of_the_work']):>7} "
            f"{_f(c['tokens_median'], 0) + '/' + str(c['tokens_max']):>14} "
            f"{_f(c['plan_precision']):>9} {c['repeated_lines']:>7} {memory:>13} "
            f"{_f(c['leak']):>5}"
        )
    for label, key in (("at the cut", "account_at_cut"), ("at the end", "account_at_end")):
        a = s[key]
        named = ", ".join(f"{k} {_f(v)}" for k, v in a["named"].items())
        lines.append(
            f"account {label} ({a['sessions']} sessions): states right {_f(a['agreement'])}; "
            f"plan items named: {named or '-'}; finished plans called in progress: "
            f"{a['finished_called_in_progress']} of {a['finished_plans']}"
        )
    t = s["targets_met"]
    lines.append(
        f"targets: ended >= {SCORE_TARGET} {_yes(t['ended_score'])}, never-ended >= "
        f"{SCORE_TARGET} {_yes(t['never_ended_score'])}, no empty context "
        f"{_yes(t['no_empty_context'])}, <= {TOKEN_TARGET} tokens {_yes(t['tokens'])}, "
        f"parallel leak 0 {_yes(t['parallel_no_leak'])}, memory content at start "
        f"{_yes(t['memory_content_at_start'])}, no repeated lines {_yes(t['no_repeats'])}"
    )
    lines.append(
        "empty/0 = contexts with only the session ID / with nothing of the work (score 0); "
        "memory = share of starts holding the MEMORY.md Active entry / the feedback memory"
    )
    return lines[-12:]

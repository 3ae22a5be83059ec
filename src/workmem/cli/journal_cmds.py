"""``workmem init | migrate | note | event | end | load``: the working memory's face (seed 004).

Each handler parses its arguments, calls one function of ``workmem.journal`` and prints the
result; long texts (the summary, the resumption note) come from ``-`` (stdin) or ``@file``.
``python -m workmem.cli.journal_cmds …`` runs these commands on their own.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..errors import UsageError
from .inputs import text_arg
from .output import emit_json, say, wants_json

COMMANDS = ("init", "migrate", "note", "event", "end", "load")


def _root(args: argparse.Namespace) -> str | None:
    return getattr(args, "root", None)


def _pairs(values: list[str] | None, option: str) -> list[tuple[str, str]]:
    out = []
    for value in values or []:
        name, sep, text = value.partition("=")
        if not sep or not name.strip() or not text.strip():
            raise UsageError(f"{option} takes THREAD-ID=TEXT, got {value!r}")
        out.append((name.strip(), text.strip()))
    return out


def _writer(args: argparse.Namespace) -> Any:
    from ..journal.writer import MemoryWriter

    return MemoryWriter(_root(args), session_key=getattr(args, "session", None))


def cmd_init(args: argparse.Namespace) -> int:
    from ..journal.scaffold import init

    report = init(
        _root(args),
        agent_name=args.agent_name,
        user_name=args.user_name,
        force_scaffold=args.force_scaffold,
    )
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    say(f"Working memory in {report.root}")
    for path in report.created:
        say(f"  created {path}")
    for path in report.existing:
        say(f"  kept    {path} (exists)")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from ..journal.migrate import migrate

    report = migrate(_root(args), dry_run=args.dry_run, skip_agent_patch=args.skip_agent_patch)
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    found = report.detection
    say(("Plan (dry run, nothing written)" if report.dry_run else "Migrated") + f": {report.root}")
    memory = "no MEMORY.md"
    if found.memory_md:
        memory = "MEMORY.md" + ("" if found.memory_tiered else " (untiered)")
    say(
        f"  found: {found.agent_file or 'no AGENT.md'}, {memory}, "
        f"{found.daily_logs} daily log(s); missing: {', '.join(found.missing) or 'nothing'}"
    )
    for step in report.steps:
        say(f"  {step.action:<14} {step.path:<28} {step.detail}")
    if not report.dry_run and not report.changed:
        say("  nothing to do: already migrated")
    return 0


def _note_result(args: argparse.Namespace, note: dict[str, Any], headline: str) -> int:
    if wants_json(args):
        emit_json({"ok": True, "note": note})
    else:
        say(headline)
    return 0


def cmd_note(args: argparse.Namespace) -> int:
    writer = _writer(args)
    kind = args.kind
    if kind == "thread":
        note = writer.note_thread_touched(args.text)
        return _note_result(args, note, f"Noted: thread {note['thread']} touched")
    text = text_arg(args.text) or ""
    if kind == "decision":
        note = writer.note_decision(text, text_arg(args.why) or "", thread=args.thread)
    elif kind == "question":
        note = writer.note_open_question(text, thread=args.thread)
    else:
        note = writer.note_pattern(text)
    return _note_result(args, note, f"Noted {kind}: {note['text']}")


def cmd_event_add(args: argparse.Namespace) -> int:
    event = _writer(args).note_event(
        args.type,
        text_arg(args.text) or "",
        action=args.action,
        object_hint=args.object,
        normalized_date=args.date,
        date_text=args.date_text,
        session_date=args.on,
    )
    if wants_json(args):
        emit_json({"ok": True, "event": event.to_json()})
        return 0
    when = event.normalized_date or f"no date (kept: {event.date_text or 'none'})"
    say(f"Recorded {event.id}: {event.type} on {when}")
    return 0


def cmd_event_find(args: argparse.Namespace) -> int:
    from ..journal.loader import MemoryLoader

    result = MemoryLoader(_root(args)).phase_4_event_lookup(
        args.query, limit=args.limit, budget_tokens=args.budget
    )
    if wants_json(args):
        emit_json(
            {
                "ok": True,
                "text": result.text,
                "tokens": result.total_tokens,
                "events": result.items,
                "metadata": result.metadata,
            }
        )
        return 0
    say(result.text.rstrip() if result else f"No events match “{args.query}”.")
    return 0


def _end_payload(args: argparse.Namespace) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    if args.from_json:
        loaded = json.loads(text_arg(args.from_json) or "{}")
        if not isinstance(loaded, dict):
            raise UsageError("--from-json must hold a JSON object")
        payload.update(loaded)
    updates: dict[str, dict[str, Any]] = dict(payload.get("thread_updates") or {})
    if args.updates_json:
        extra = json.loads(text_arg(args.updates_json) or "{}")
        if not isinstance(extra, dict):
            raise UsageError("--updates-json must hold a JSON object of thread updates")
        updates.update(extra)
    for thread_id, text in _pairs(args.position, "--position"):
        updates.setdefault(thread_id, {})["current_position"] = text
    for option, key in (
        ("open", "new_open_questions"),
        ("close", "closed_questions"),
        ("decision", "new_decisions"),
    ):
        for thread_id, text in _pairs(getattr(args, option), f"--{option}"):
            updates.setdefault(thread_id, {}).setdefault(key, []).append(text)
    summary = text_arg(args.summary) or payload.get("session_summary") or payload.get("summary")
    note = text_arg(args.resumption) or payload.get("resumption_note") or payload.get("resumption")
    return {
        "session_summary": summary or "",
        "resumption_note": note or "",
        "thread_updates": updates,
        "mood": args.mood or payload.get("mood"),
    }


def cmd_end(args: argparse.Namespace) -> int:
    if [args.summary, args.resumption, args.from_json, args.updates_json].count("-") > 1:
        raise UsageError("only one option can read standard input ('-')")
    try:
        payload = _end_payload(args)
    except json.JSONDecodeError as exc:
        raise UsageError(f"invalid JSON: {exc}") from None
    report = _writer(args).end_session(**payload)
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    if report.already_done:
        say(f"Session already ended with this content (session {report.session}); nothing written.")
        return 0
    say(f"Session {report.session} ended {report.ended}; {report.notes} note(s) written.")
    if report.resumed:
        say("  finished an end that had stopped part-way (its daily-log entry replaced)")
    for path in report.files:
        say(f"  wrote {path}")
    if report.threads_touched:
        say(f"  threads: {', '.join(report.threads_touched)}")
    if report.flags:
        say(f"  flags: {', '.join(report.flags)}")
    if report.redactions:
        say(f"  {report.redactions} secret(s) replaced before writing")
    return 0


def cmd_load(args: argparse.Namespace) -> int:
    from ..journal.budget import BudgetConfig
    from ..journal.loader import MemoryLoader

    loader = MemoryLoader(_root(args))
    overrides = {
        k: getattr(args, k)
        for k in ("total", "orient", "anchor", "context", "deep")
        if getattr(args, k) is not None
    }
    budget = (
        BudgetConfig.from_mapping(overrides, loader.journal.settings.budget) if overrides else None
    )
    message = text_arg(args.message) or ""
    context = loader.load_session_context(message, budget)
    if wants_json(args):
        emit_json(
            {
                "ok": True,
                "text": context.text,
                "total_tokens": context.total_tokens,
                "metadata": context.metadata,
            }
        )
        return 0
    sys.stdout.write(context.text if context.text.endswith("\n") else context.text + "\n")
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    ini = subparsers.add_parser("init", parents=[common], help="scaffold the memory files")
    ini.add_argument("--agent-name")
    ini.add_argument("--user-name")
    ini.add_argument("--force-scaffold", action="store_true", help="scaffold a legacy workspace")
    ini.set_defaults(handler=cmd_init)

    mig = subparsers.add_parser("migrate", parents=[common], help="upgrade a legacy workspace")
    mig.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    mig.add_argument("--skip-agent-patch", action="store_true", help="leave AGENT.md alone")
    mig.set_defaults(handler=cmd_migrate)

    session = argparse.ArgumentParser(add_help=False)
    session.add_argument(
        "--session", metavar="KEY", help="session key (default $WORKMEM_SESSION_ID)"
    )

    note = subparsers.add_parser("note", parents=[common], help="note something during a session")
    kinds = note.add_subparsers(dest="kind", metavar="KIND", required=True)
    dec = kinds.add_parser("decision", parents=[common, session], help="a decision and why")
    dec.add_argument("text", help="the decision ('-' for stdin)")
    dec.add_argument("--why", help="the reasoning")
    dec.add_argument("--thread", help="thread the decision belongs to")
    que = kinds.add_parser("question", parents=[common, session], help="an open question")
    que.add_argument("text")
    que.add_argument("--thread")
    pat = kinds.add_parser("pattern", parents=[common, session], help="a pattern noticed")
    pat.add_argument("text")
    thr = kinds.add_parser("thread", parents=[common, session], help="a thread was touched")
    thr.add_argument("text", metavar="THREAD-ID")
    for sub in (dec, que, pat, thr):
        sub.set_defaults(handler=cmd_note)

    event = subparsers.add_parser("event", parents=[common], help="the dated event ledger")
    verbs = event.add_subparsers(dest="verb", metavar="VERB", required=True)
    add = verbs.add_parser("add", parents=[common, session], help="record an event")
    add.add_argument("--type", required=True, help="purchase, meeting, issue, milestone, …")
    add.add_argument("--text", required=True, help="what the user said ('-' for stdin)")
    add.add_argument("--action")
    add.add_argument("--object", help="object hint, e.g. 'white adidas sneakers'")
    add.add_argument("--date", help="the date if already known, YYYY-MM-DD")
    add.add_argument("--date-text", help="the date as said ('last Tuesday', '上週二')")
    add.add_argument("--on", help="the day it was said (default: today), YYYY-MM-DD")
    add.set_defaults(handler=cmd_event_add)
    find = verbs.add_parser("find", parents=[common], help="events for a question")
    find.add_argument("query")
    find.add_argument("--limit", type=int, default=20)
    find.add_argument("--budget", type=int, default=None, help="token cap for the text")
    find.set_defaults(handler=cmd_event_find)

    end = subparsers.add_parser(
        "end", parents=[common, session], help="end the session: write everything"
    )
    end.add_argument("--summary", help="what happened ('-' stdin, '@file')")
    end.add_argument("--resumption", help="first-person note to the next session ('-', '@file')")
    end.add_argument("--mood")
    end.add_argument(
        "--position", action="append", metavar="ID=TEXT", help="a thread's new position"
    )
    end.add_argument("--open", action="append", metavar="ID=TEXT", help="a new open question")
    end.add_argument("--close", action="append", metavar="ID=TEXT", help="a question now closed")
    end.add_argument("--decision", action="append", metavar="ID=TEXT", help="a thread decision")
    end.add_argument("--updates-json", metavar="FILE", help="thread updates as JSON ('-', '@file')")
    end.add_argument(
        "--from-json", metavar="FILE", help="everything as one JSON object ('-', '@file')"
    )
    end.set_defaults(handler=cmd_end)

    load = subparsers.add_parser("load", parents=[common], help="the 4-phase context for a message")
    load.add_argument("message", nargs="?", default="", help="the user's first message ('-' stdin)")
    for phase in ("total", "orient", "anchor", "context", "deep"):
        load.add_argument(f"--{phase}", type=int, default=None, metavar="TOKENS")
    load.set_defaults(handler=cmd_load)


def main(argv: Sequence[str] | None = None) -> int:
    """Run these commands alone (before they are registered in ``workmem.cli.COMMANDS``)."""
    import os

    from . import common_options
    from .output import run_handler

    common = common_options()
    parser = argparse.ArgumentParser(prog="workmem", parents=[common])
    register(parser.add_subparsers(dest="command", metavar="COMMAND", required=True), common)
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if getattr(args, "now", None):
        os.environ["WORKMEM_NOW"] = args.now
    return run_handler(args.handler, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

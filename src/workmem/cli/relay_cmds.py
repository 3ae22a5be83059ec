"""``workmem relay inherit|snapshot|restore|archive|status``: seed 002's face."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .inputs import read_file, text_arg
from .output import emit_json, say, wants_json


def _workspace(args: argparse.Namespace) -> Any:
    from ..root import open_workspace

    return open_workspace(getattr(args, "root", None))


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _notes(args: argparse.Namespace) -> Any:
    from ..relay.template import SnapshotNotes

    notes = (
        SnapshotNotes.from_markdown(read_file(args.from_file))
        if args.from_file
        else SnapshotNotes()
    )
    if args.in_progress:
        notes.in_progress = (text_arg(args.in_progress) or "").strip()
    for key in ("completed", "pending", "decisions", "files", "preferences", "gotchas", "commands"):
        getattr(notes, key).extend(getattr(args, key) or [])
    return notes


def cmd_inherit(args: argparse.Namespace) -> int:
    from ..relay.workflows import inherit

    text, inheritance, written = inherit(
        _workspace(args),
        sessions=args.sessions,
        rounds=args.rounds,
        platform=args.platform,
        exclude=[Path(p) for p in args.exclude or []],
        save=args.save,
    )
    if wants_json(args):
        emit_json(
            {"ok": True, "text": text, "saved": str(written) if written else None}
            | inheritance.to_dict()
        )
        return 0
    sys.stdout.write(text)
    if written:
        say(f"\n(saved to {written})")
    return 0


def cmd_snapshot(args: argparse.Namespace) -> int:
    from ..relay.workflows import snapshot

    result = snapshot(
        _workspace(args),
        _notes(args),
        transcript=_path(args.transcript),
        session=args.session,
        platform=args.platform,
        mode=args.mode,
        force=args.force,
    )
    if wants_json(args):
        emit_json({"ok": True, **result.to_dict()})
        return 0
    if not result.written:
        say(f"No snapshot: {result.skipped_reason}")
        return 0
    usage = result.usage
    context = (
        f" at {usage.percent:g}% context ({result.zone.name if result.zone else '?'})"
        if usage
        else ""
    )
    say(f"Saved {result.path} ({result.mode}, {result.words} words){context}")
    if result.daily_log:
        say(f"  synced to {result.daily_log}")
    if result.heartbeat_added:
        say("  added the HEARTBEAT.md line")
    if result.secrets_removed:
        say(f"  removed {result.secrets_removed} secret(s)")
    for note in result.notes:
        say(f"  note: {note}")
    if result.warning:
        say(result.warning)
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from ..relay.workflows import restore

    result = restore(
        _workspace(args),
        fresh=args.fresh,
        keep=args.keep,
        platform=args.platform,
        exclude=[Path(p) for p in args.exclude or []],
    )
    if wants_json(args):
        emit_json({"ok": True, **result.to_dict()})
        return 0
    if args.fresh:
        where = f" to {result.archived_to}" if result.archived_to else " (there was none)"
        say(f"Fresh start: snapshot archived{where}.")
        return 0
    sys.stdout.write(result.text)
    return 0


def cmd_archive(args: argparse.Namespace) -> int:
    from ..clock import now
    from ..config import load_settings
    from ..files.store import Store
    from ..relay.archive import archive_snapshot

    workspace = _workspace(args)
    store = Store(workspace, lock_timeout=load_settings(workspace).board.lock_timeout)
    target = archive_snapshot(store, now())
    if wants_json(args):
        emit_json({"ok": True, "archived_to": str(target) if target else None})
        return 0
    say(f"Archived to {target}" if target else "No relay snapshot to archive.")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from ..relay.workflows import status

    workspace = _workspace(args)
    report = status(
        workspace,
        transcript=_path(args.transcript),
        session=args.session,
        platform=args.platform,
        profile=args.profile,
        apply=args.apply,
    )
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    if report.usage is None or report.zone is None:
        say("No transcript found for this workspace: context usage unknown.")
    else:
        u = report.usage
        say(
            f"Context {u.used_tokens:,}/{u.window:,} ({u.percent:g}%, {u.source})"
            f" — {report.zone.name}"
        )
        from ..i18n import language_for
        from ..relay.zones import zone_message

        say(zone_message(report.zone, language_for(workspace)))
    say(f"Snapshot: {'saved' if report.snapshot_exists else 'none'}; archives: {report.archives}")
    if report.heartbeat:
        say("HEARTBEAT.md has the relay line.")
    if report.action is not None:
        say(f"Saved a {report.action.mode} snapshot ({report.action.words} words).")
    if report.warning:
        say(report.warning)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    top = subparsers.add_parser(
        "relay", parents=[common], help="session relay: hand over to the next session"
    )
    verbs = top.add_subparsers(dest="verb", metavar="VERB", required=True)

    def source(p: argparse.ArgumentParser) -> None:
        p.add_argument("--transcript", metavar="F", help="transcript file (default: current)")
        p.add_argument("--session", metavar="ID", help="platform session id of the transcript")
        p.add_argument("--platform", help="claude-code, codex, gemini, cursor or openclaw")

    inh = verbs.add_parser("inherit", parents=[common], help="last sessions' conversation tails")
    inh.add_argument("--platform")
    inh.add_argument("--sessions", type=int, default=3)
    inh.add_argument("--rounds", type=int, default=3)
    inh.add_argument("--exclude", action="append", metavar="F", help="transcript to leave out")
    inh.add_argument("--save", action="store_true", help="also write memory/relay-context.md")
    inh.set_defaults(handler=cmd_inherit)

    snap = verbs.add_parser("snapshot", parents=[common], help="save memory/relay-snapshot.md")
    source(snap)
    snap.add_argument("--mode", choices=["auto", "full", "incremental"], default="auto")
    snap.add_argument("--force", action="store_true", help="save even a very short session")
    snap.add_argument("--from-file", metavar="F", help="markdown with the sections, '-' = stdin")
    snap.add_argument("--in-progress", metavar="TEXT", help="what you were doing ('-', '@file')")
    for flag, dest in (
        ("--completed", "completed"),
        ("--pending", "pending"),
        ("--decision", "decisions"),
        ("--file", "files"),
        ("--preference", "preferences"),
        ("--gotcha", "gotchas"),
        ("--command", "commands"),
    ):
        snap.add_argument(flag, dest=dest, action="append", metavar="TEXT")
    snap.set_defaults(handler=cmd_snapshot)

    res = verbs.add_parser("restore", parents=[common], help="tails + snapshot for a new session")
    res.add_argument("--platform")
    res.add_argument("--fresh", action="store_true", help="archive the snapshot and start clean")
    res.add_argument("--keep", action="store_true", help="do not archive the consumed snapshot")
    res.add_argument("--exclude", action="append", metavar="F", help="transcript to leave out")
    res.set_defaults(handler=cmd_restore)

    arc = verbs.add_parser("archive", parents=[common], help="move the snapshot to relay-archive/")
    arc.set_defaults(handler=cmd_archive)

    st = verbs.add_parser("status", parents=[common], help="context usage, zone, snapshot state")
    source(st)
    st.add_argument("--profile", choices=["relay", "wrap"], default="relay")
    st.add_argument("--apply", action="store_true", help="do the zone's action now")
    st.set_defaults(handler=cmd_status)

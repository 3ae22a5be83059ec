"""``workmem sync``, ``workmem sync init`` / ``uninit`` and ``workmem merge-driver``: memory
on several machines, through git or through a cloud folder."""

from __future__ import annotations

import argparse
from typing import Any

from .output import emit_json, say, wants_json


def _workspace(args: argparse.Namespace) -> Any:
    from ..root import open_workspace

    return open_workspace(getattr(args, "root", None))


def cmd_init(args: argparse.Namespace) -> int:
    from ..sync.setup import init_sync

    report = init_sync(_workspace(args), dry_run=args.dry_run)
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    verb = "would change" if report.dry_run else "changed"
    if report.changes:
        say(
            f"Sync set up ({verb}):"
            if not report.dry_run
            else "Sync set-up, dry run (nothing written):"
        )
        for change in report.changes:
            say(f"  {verb} {change}")
    else:
        say("Sync is already set up; nothing to change.")
    for note in report.notes:
        say(f"  note: {note}")
    if not report.dry_run:
        say("Run `workmem sync` to share the memory (on its own branch, 'workmem').")
    return 0


def cmd_uninit(args: argparse.Namespace) -> int:
    from ..sync.unsetup import uninit_sync

    report = uninit_sync(_workspace(args), dry_run=args.dry_run)
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    verb = "would" if report.dry_run else ""
    if not (report.restored or report.removed):
        say("Sync is not set up here; nothing to undo.")
    else:
        say("Sync set-up undone:" if not report.dry_run else "Undo, dry run (nothing written):")
    for shown in report.restored:
        say(f"  {verb + ' ' if verb else ''}put back {shown} as it was")
    for shown in report.removed:
        say(f"  {verb + ' ' if verb else ''}removed {shown}")
    for note in report.notes:
        say(f"  note: {note}")
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    workspace = _workspace(args)
    if args.merge_copies:
        return _merge_copies(args, workspace)
    from ..sync.git_sync import sync

    report = sync(workspace, message=args.message)
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 1 if report.conflicts else 0
    if report.offline:
        say("Offline: memory committed locally; it goes out at the next `workmem sync`.")
    elif report.no_remote:
        say(f"Memory committed on branch '{report.branch}' (no remote to push to).")
    else:
        merged = " merged the other machines' memory," if report.merged else ""
        tries = f" (after {report.attempts} tries)" if report.attempts > 1 else ""
        say(f"Synced:{merged} pushed to {report.remote}/{report.branch}{tries}.")
    if report.exported:
        say(f"  sent {len(report.exported)} changed file(s)")
    added, deleted = set(report.added), set(report.deleted)
    changed = [p for p in report.imported if p not in added and p not in deleted]
    for label, paths in (
        ("new from the other machines", report.added),
        ("changed by the other machines", changed),
        ("deleted on the other machines", report.deleted),
    ):
        if paths:
            more = f" and {len(paths) - 5} more" if len(paths) > 5 else ""
            say(f"  {label}: {len(paths)} file(s): {', '.join(paths[:5])}{more}")
    for conflict in report.conflicts:
        say(f"  conflict: {conflict} (`workmem doctor` lists it until you settle it)")
    for refused in report.refused:
        say(f"  skipped: {refused}")
    for note in report.notes:
        say(f"  note: {note}")
    return 1 if report.conflicts else 0


def _merge_copies(args: argparse.Namespace, workspace: Any) -> int:
    from ..sync.copies import merge_copies

    report = merge_copies(workspace)
    if wants_json(args):
        emit_json({"ok": not report.problems, **report.to_dict()})
        return 1 if report.problems or report.conflicts else 0
    if not report.merged and not report.problems:
        say("No conflict copies found.")
    for item in report.merged:
        say(f"Merged {item['copy']} ({item['service']}) into {item['into']}")
        say(f"  the copy was moved to {item['archived']}")
    for note in report.notes:
        say(f"  {note}")
    for conflict in report.conflicts:
        say(f"  conflict: {conflict}")
    for problem in report.problems:
        say(f"  problem: {problem}")
    return 1 if report.problems or report.conflicts else 0


def cmd_merge_driver(args: argparse.Namespace) -> int:
    from ..sync.driver import main

    return main(args.kind, args.base, args.ours, args.theirs, args.path)


def register(subparsers: argparse._SubParsersAction[Any], common: argparse.ArgumentParser) -> None:
    sync = subparsers.add_parser(
        "sync",
        parents=[common],
        help="share memory: commit, merge other machines' memory, push",
        description=(
            "Commit the memory files on their own branch, merge what other machines pushed "
            "(file by file, by row, section and entry), push, and bring the result back. "
            "With --merge-copies: merge a cloud folder's conflict copies instead."
        ),
    )
    sync.add_argument("--message", "-m", help="commit message (default: machine and time)")
    sync.add_argument(
        "--merge-copies",
        action="store_true",
        help="merge cloud-folder conflict copies into their files and archive the copies",
    )
    sync.set_defaults(handler=cmd_sync)
    actions = sync.add_subparsers(dest="sync_action", metavar="ACTION")
    init = actions.add_parser(
        "init",
        parents=[common],
        help="set up git for memory: attributes, merge drivers, ignores (idempotent)",
    )
    init.add_argument("--dry-run", action="store_true", help="show the changes, write nothing")
    init.set_defaults(handler=cmd_init)
    uninit = actions.add_parser(
        "uninit",
        parents=[common],
        help="undo sync init: each file back as it was, drivers removed (memory kept)",
    )
    uninit.add_argument("--dry-run", action="store_true", help="show the changes, write nothing")
    uninit.set_defaults(handler=cmd_uninit)

    driver = subparsers.add_parser(
        "merge-driver",
        parents=[common],
        help="merge one memory file for git (set up by `workmem sync init`)",
    )
    driver.add_argument("kind", help="file kind: board, sections, log, events, state, …")
    driver.add_argument("base", help="%%O: the common ancestor's version")
    driver.add_argument("ours", help="%%A: this side's version; the result is written here")
    driver.add_argument("theirs", help="%%B: the other side's version")
    driver.add_argument("path", nargs="?", default="memory file", help="%%P: the file's path")
    driver.set_defaults(handler=cmd_merge_driver)

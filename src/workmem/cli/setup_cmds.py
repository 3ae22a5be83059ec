"""``workmem setup [--platform P …] [--dry-run] [--uninstall]``: the face of ``platforms.setup``."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import Any

from .output import emit_json, say, wants_json

#: How each kind of step reads in the summary, by action.
_VERBS = {
    "created": "created",
    "added": "added",
    "removed": "removed",
    "updated": "updated",
    "would-update": "would update",
    "would-create": "would create",
    "would-add": "would add",
    "would-remove": "would remove",
    "unchanged": "unchanged",
    "skipped": "skipped",
    "manual": "by hand",
}


def _platforms(values: list[str] | None) -> list[str]:
    return [name.strip() for value in values or [] for name in value.split(",") if name.strip()]


def cmd_setup(args: argparse.Namespace) -> int:
    from ..platforms.setup import setup
    from ..root import find_root

    root = find_root(getattr(args, "root", None))
    report = setup(
        root,
        platforms=_platforms(args.platform),
        home=Path(args.home).expanduser() if args.home else None,
        agent_name=args.agent_name,
        command=args.command,
        scope=args.scope,
        dry_run=args.dry_run,
        uninstall=args.uninstall,
    )
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    _print(report)
    return 0


def _print(report: Any) -> None:
    verb = "Removing workmem from" if report.uninstall else "Setting up workmem in"
    say(f"{verb} {report.root}" + (" (dry run: nothing is written)" if report.dry_run else ""))
    if not report.uninstall:
        say("  agents: " + ", ".join(f"{name} ({why})" for _, name, why in report.platforms))
    if report.command is not None:
        say(f"  hooks run: {report.command.command} ({report.command.source})")
    say("")
    names = {key: name for key, name, _ in report.platforms}
    for step in report.steps:
        if step.action == "unchanged" and report.changed:
            continue
        what = (
            f"{names.get(step.platform, step.platform)} {step.part}" if step.platform else step.part
        )
        files = ", ".join(step.files)
        detail = f" ({step.detail})" if step.detail and step.action != "manual" else ""
        where = f": {files}" if files else ""
        say(f"  {_VERBS.get(step.action, step.action):<13} {what}{where}{detail}")
    if report.dry_run:
        _print_changes(report)
    for warning in report.warnings:
        say("\n" + textwrap.fill(f"Note: {warning}", width=96, subsequent_indent="  "))
    if report.user_steps:
        say("\nStill to do by you:")
        for line in report.user_steps:
            first, *rest = line.split("\n")
            say(textwrap.fill(first, width=96, initial_indent="  - ", subsequent_indent="    "))
            for more in rest:
                say(more)
    if report.commit:
        say("\n" + textwrap.fill(report.commit, width=96, subsequent_indent="  "))
    say("")
    if report.dry_run:
        say("Dry run: nothing was written." if report.changed else "Nothing would change.")
    elif not report.changed:
        state = "is not set up here" if report.uninstall else "is already set up here"
        say(f"Nothing to change: workmem {state} (checked on disk).")
    else:
        say("Done: every change above was read back from disk.")


def _print_changes(report: Any) -> None:
    import difflib

    for step in report.steps:
        for name, (before, after) in step.changes.items():
            diff = difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                fromfile=f"{name} (now)",
                tofile=f"{name} (after)",
            )
            say("\n" + "".join(diff).rstrip("\n"))


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "setup",
        parents=[common],
        help="set workmem up for this project: memory, hooks, boot directive, git-ignore",
        description=(
            "Set workmem up for the current project: the memory root (with workmem.toml), "
            "hooks for each agent found here (or named with --platform), the boot directive "
            "where an agent needs one, and memory/.workmem/ ignored by git. Running it again "
            "changes nothing; --uninstall takes hooks and directives out and keeps every "
            "memory file."
        ),
    )
    p.add_argument(
        "--platform",
        action="append",
        metavar="P",
        help="claude-code, codex, cursor, gemini, openclaw (or another agent for the boot "
        "directive only); repeat or separate with commas (default: detected)",
    )
    p.add_argument("--agent-name", help="the agent name in session IDs (kept in workmem.toml)")
    p.add_argument(
        "--command",
        metavar="PATH",
        help="absolute path of the workmem the hooks run (default: workmem on PATH)",
    )
    p.add_argument(
        "--scope",
        choices=["project", "user"],
        default="project",
        help="hooks for this project only, or for every project of this user",
    )
    p.add_argument("--home", help="home folder for detection and user scope (default: yours)")
    p.add_argument("--dry-run", action="store_true", help="show the changes, write nothing")
    p.add_argument(
        "--uninstall", action="store_true", help="remove hooks and directives; keep memory files"
    )
    p.set_defaults(handler=cmd_setup)

"""``workmem handoff [SESSION]``: the last session's work for whoever picks it up."""

from __future__ import annotations

import argparse
import os
from typing import Any

from .output import emit_json, say, wants_json


def cmd_handoff(args: argparse.Namespace) -> int:
    from ..continuity.handoff import handoff
    from ..root import open_workspace

    workspace = open_workspace(getattr(args, "root", None))
    current = args.as_id or os.environ.get("WORKMEM_SESSION_ID") or None
    done = handoff(
        workspace,
        args.session,
        current=current,
        link=bool(args.continue_ and current),
        budget=args.budget,
        explicit=True,
    )
    if wants_json(args):
        emit_json(done.to_dict())
        return 0 if not (args.continue_ and not done.linked) else 1
    say(done.briefing.text)
    if args.continue_:
        if done.linked:
            say(f"\n{current} now continues from {done.source} (recorded on both sides).")
        else:
            reason = done.link_problem or "name this session with --as ID"
            say(f"\nNot linked: {reason}.")
            return 1
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    cmd = subparsers.add_parser(
        "handoff",
        parents=[common],
        help="the last session's work (or one named by ID or topic), to pick it up",
        description=(
            "The work of the most recent session that did not end (else the most recent "
            "one): its outcome, plan, last request, files in play, decisions, errors, last "
            "reply, commands, and whether the repository moved since its last save."
        ),
    )
    cmd.add_argument("session", nargs="?", help="a session ID, the agent's own id, or topic words")
    cmd.add_argument(
        "--continue",
        dest="continue_",
        action="store_true",
        help="record that this session continues from it (Continues From / Referenced By)",
    )
    cmd.add_argument("--as", dest="as_id", help="this session's ID (default $WORKMEM_SESSION_ID)")
    cmd.add_argument("--budget", type=int, help="tokens at most (default [hooks] handoff_tokens)")
    cmd.set_defaults(handler=cmd_handoff)

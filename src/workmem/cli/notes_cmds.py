"""``workmem notes [--session ID] [--transcript F] [--view]`` and ``workmem notes seed``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .output import emit_json, say, wants_json


def _workspace(args: argparse.Namespace) -> Any:
    from ..root import open_workspace

    return open_workspace(getattr(args, "root", None))


def _transcript(args: argparse.Namespace) -> Path | None:
    return Path(args.transcript) if getattr(args, "transcript", None) else None


def cmd_notes(args: argparse.Namespace) -> int:
    from ..notes import workflow

    workspace = _workspace(args)
    if args.verb == "seed":
        text = workflow.compaction_seed(workspace, args.session, _transcript(args))
        if wants_json(args):
            emit_json({"ok": True, "seed": text})
        else:
            sys.stdout.write(text)
        return 0
    if args.detach:
        pid = workflow.run_detached(
            workspace,
            session_id=args.session,
            transcript=_transcript(args),
            platform=args.platform,
            gated=args.gated,
        )
        if wants_json(args):
            emit_json({"ok": True, "detached": pid})
        else:
            say(f"Extractor started in the background (pid {pid}).")
        return 0
    if not args.view:
        result = workflow.update_notes(
            workspace,
            session_id=args.session,
            transcript=_transcript(args),
            platform=args.platform,
            gated=args.gated,
            extractor=args.extractor,
        )
        if result.failed:
            if wants_json(args):
                emit_json({"ok": False, **result.to_dict()})
            else:
                sys.stderr.write(f"workmem: notes unchanged: {result.failed}\n")
            return 1
        if not result.ran:
            if wants_json(args):
                emit_json({"ok": True, **result.to_dict()})
            else:
                say(f"Notes not updated: {result.reason}")
            return 0
        session_id = result.session_id
    else:
        session_id = args.session
    sid, text = workflow.view_notes(workspace, session_id, _transcript(args))
    if wants_json(args):
        emit_json({"ok": True, "session_id": sid, "text": text})
    else:
        sys.stdout.write(text)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    notes = subparsers.add_parser(
        "notes", parents=[common], help="session notes: extract then show"
    )
    notes.add_argument(
        "verb",
        nargs="?",
        choices=["seed"],
        help="seed: the summary that starts a compacted session",
    )
    notes.add_argument("--session", metavar="ID", help="memory session id (default: current)")
    notes.add_argument("--transcript", metavar="F", help="transcript file (default: current)")
    notes.add_argument("--platform", help="claude-code, codex, gemini, cursor or openclaw")
    notes.add_argument("--view", action="store_true", help="show without extracting")
    notes.add_argument("--gated", action="store_true", help="respect the token gates (hooks)")
    notes.add_argument("--detach", action="store_true", help="run in the background, return now")
    notes.add_argument("--extractor", choices=["heuristic", "llm"], default=None)
    notes.set_defaults(handler=cmd_notes)

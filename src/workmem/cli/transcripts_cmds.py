"""``workmem transcripts list|history|status``: the seed's sessions_list / sessions_history /
session_status over the agents' own transcript files.

Everything shown passes the redactor: what an agent reads here often ends up pasted into
a memory file.
"""

from __future__ import annotations

import argparse
from typing import Any

from .output import emit_json, say, table, wants_json


def _workspace(args: argparse.Namespace) -> Any:
    from ..root import open_workspace

    return open_workspace(getattr(args, "root", None))


def _clean(text: str) -> str:
    from ..redact import redact

    return redact(text)[0]


def cmd_list(args: argparse.Namespace) -> int:
    from ..transcripts import find_transcripts

    workspace = _workspace(args)
    refs = find_transcripts(workspace.root, args.platform)[: max(args.limit, 0)]
    if wants_json(args):
        emit_json([r.to_dict() for r in refs])
        return 0
    if not refs:
        from ..transcripts.discover import searched_folders

        say(f"No transcripts found for {workspace.root}. Looked in:")
        for platform, folder, how in searched_folders(workspace.root, args.platform):
            state = "" if folder.is_dir() else ", not there"
            say(f"  {platform:<12} {folder} ({how}{state})")
        return 0
    rows = [
        [r.session_id, r.platform, r.to_dict()["modified"], f"{r.size:,}", str(r.path)]
        for r in refs
    ]
    say(table(["Session", "Platform", "Modified", "Bytes", "Path"], rows, max_width=60))
    return 0


def _read(args: argparse.Namespace) -> Any:
    from ..transcripts import read_transcript, resolve_transcript

    workspace = _workspace(args)
    path = resolve_transcript(args.id, workspace.root, args.platform)
    return read_transcript(path, args.platform)


def cmd_history(args: argparse.Namespace) -> int:
    transcript = _read(args)
    rounds = transcript.rounds()[-max(args.rounds, 1) :]
    if args.include_tools:
        first = rounds[0].user if rounds and rounds[0].user else None
        start = transcript.messages.index(first) if first in transcript.messages else 0
        messages = transcript.messages[start:]
    else:
        messages = [m for r in rounds for m in ([r.user] if r.user else []) + r.assistant]
    if wants_json(args):
        payload = []
        for message in messages:
            data = message.to_dict(include_tools=args.include_tools)
            data["text"] = _clean(data["text"])
            for result in data.get("tool_results", []):
                result["output"] = _clean(result["output"])
            payload.append(data)
        emit_json({"session_id": transcript.session_id, "messages": payload})
        return 0
    for message in messages:
        label = message.role.title()
        if message.text.strip() and (message.is_conversation or args.include_tools):
            say(f"**[{label}]** {_clean(message.text.strip())}")
        if args.include_tools:
            for call in message.tool_calls:
                say(f"  → {call.name} {_clean(str(call.input))[:300]}")
            for result in message.tool_results:
                flag = " (error)" if result.is_error else ""
                say(f"  ← {result.name or 'tool'}{flag}: {_clean(result.output.strip())[:300]}")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from ..relay.usage import usage_of
    from ..relay.zones import zone_for

    transcript = _read(args)
    usage = usage_of(transcript, args.window)
    zone = zone_for(usage.percent, args.profile)
    summary = transcript.summary()
    if wants_json(args):
        emit_json({"summary": summary, "usage": usage.to_dict(), "zone": zone.to_dict()})
        return 0
    say(f"Session   {summary['session_id']} ({summary['platform']})")
    say(f"Model     {usage.model or 'unknown'}")
    say(
        f"Context   {usage.used_tokens:,}/{usage.window:,} ({usage.percent}%, {usage.source})"
        f" — {zone.name}"
    )
    say(
        f"Messages  {summary['user_messages']} user, {summary['assistant_messages']} assistant,"
        f" {summary['tool_calls']} tool calls ({summary['tool_errors']} failed)"
    )
    say(f"Compacted {summary['compactions']} time(s); subagents {summary['subagents']}")
    if summary["started"]:
        say(f"Time      {summary['started']} → {summary['ended']}")
    if transcript.plan:
        say("Plan:")
        for item in transcript.plan:
            say(f"  [{item.status}] {_clean(item.text)}")
    from ..i18n import language_for
    from ..relay.zones import zone_message

    say(zone_message(zone, language_for(None)))
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    top = subparsers.add_parser(
        "transcripts", parents=[common], help="the agents' own session transcripts"
    )
    verbs = top.add_subparsers(dest="verb", metavar="VERB", required=True)

    def platform(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--platform", help="claude-code, codex, gemini, cursor or openclaw (default: all)"
        )

    lst = verbs.add_parser(
        "list", parents=[common], help="this workspace's transcripts, newest first"
    )
    platform(lst)
    lst.add_argument("--limit", type=int, default=5)
    lst.set_defaults(handler=cmd_list)

    his = verbs.add_parser("history", parents=[common], help="the last rounds of a session")
    his.add_argument("id", metavar="ID", help="platform session id or transcript path")
    platform(his)
    his.add_argument("--rounds", type=int, default=3)
    his.add_argument("--include-tools", action="store_true")
    his.set_defaults(handler=cmd_history)

    st = verbs.add_parser("status", parents=[common], help="context usage and figures")
    st.add_argument("id", metavar="ID", help="platform session id or transcript path")
    platform(st)
    st.add_argument("--profile", choices=["relay", "wrap"], default="relay")
    st.add_argument("--window", type=int, default=None, help="context window override")
    st.set_defaults(handler=cmd_status)

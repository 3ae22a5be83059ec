"""``workmem hooks install|uninstall``, ``workmem hook EVENT`` and ``workmem say``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .output import emit_json, say, wants_json

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..root import Workspace

#: Internal deadline per canonical event, below the timeouts written by ``hooks install``.
#: session end and a turn's end (stop) run detached
DEADLINES = {"pre-compact": 25.0, "session-end": 60.0, "stop": 25.0}
DEFAULT_DEADLINE = 8.0


def _canonical_or_raw(event: str, platform: str) -> str:
    """The canonical event name for the deadline table; an unknown name fails later, open."""
    from ..errors import WorkmemError
    from ..hooks.events import canonical_event

    try:
        return canonical_event(event, platform)
    except WorkmemError:
        return event


def cmd_hook(args: argparse.Namespace) -> int:
    """Answer one hook event. Always exits 0: a failure is logged, never shown to the agent."""
    from ..hooks.runner import run_fail_open

    stdin = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    if not getattr(args, "foreground", False) and _runs_detached(args):
        from ..hooks.detach import hand_over

        if hand_over(stdin, args):
            return 0
    state: dict[str, Workspace] = {}

    def work() -> str:
        from ..files.store import Store
        from ..hooks.events import canonical_event
        from ..hooks.handlers import HookRun, handle
        from ..hooks.io import format_output, parse_input
        from ..hooks.where import hook_workspace
        from ..retrieval.tokens import set_mode

        set_mode("estimate")  # hooks cannot afford loading a BPE on every prompt
        event = canonical_event(args.event, args.platform)
        inp = parse_input(stdin, args.platform, event)
        # A payload cwd that does not exist stops here (NotFoundError), before anything is
        # created; one that names no project (no git, no memory) starts nothing there.
        workspace = hook_workspace(getattr(args, "root", None), inp.cwd)
        if workspace is None:
            return ""
        state["workspace"] = workspace
        run = HookRun(inp, workspace, Store(workspace))
        reply = handle(run)
        if args.platform in ("gemini", "cursor"):
            from ..platforms.delivery import route

            reply = route(run, reply)
        return format_output(args.platform, event, reply.context, reply.notice)

    seconds = DEADLINES.get(_canonical_or_raw(args.event, args.platform), DEFAULT_DEADLINE)
    out = run_fail_open(
        work,
        workspace=lambda: state.get("workspace"),
        where=f"{args.platform}:{args.event}",
        seconds=seconds,
    )
    if out:
        sys.stdout.write(out + "\n")
    return 0


def _runs_detached(args: argparse.Namespace) -> bool:
    """Session end saves for 15-25 s but no platform waits that long for it (Codex cuts
    it at 3 s, Gemini CLI does not wait, older Claude Code at 1.5 s): it goes on in a
    detached process and the hook answers at once. A turn's end (stop) saves the same way,
    so the agent never waits for it. ``WORKMEM_HOOK_FOREGROUND=1`` keeps it
    in the hook's own process (for debugging, and for tests that read the result at once)."""
    import os

    if os.environ.get("WORKMEM_HOOK_FOREGROUND") == "1":
        return False
    return _canonical_or_raw(args.event, args.platform) in ("session-end", "stop")


def _consents_to_trust(args: argparse.Namespace, remove: bool) -> bool:
    """Codex trust is the user's to give: ``--trust``, or a yes at the terminal."""
    if remove or args.platform != "codex" or getattr(args, "dry_run", False):
        return False
    if getattr(args, "trust", False):
        return True
    if wants_json(args) or not (sys.stdin and sys.stdin.isatty()):
        return False
    answer = input(
        "Codex runs a hook only once you trust it. Ask Codex to trust workmem's hooks now? [y/N] "
    )
    return answer.strip().lower() in ("y", "yes")


def _install(args: argparse.Namespace, remove: bool) -> int:
    from ..files.store import Store
    from ..hooks.install import install
    from ..platforms.hook_command import choose
    from ..root import Workspace, find_root

    workspace = Workspace(find_root(getattr(args, "root", None)))
    # The same command `workmem setup` writes, so neither rewrites the other's hooks.
    program = None if remove else choose(getattr(args, "command", None)).program
    trust = _consents_to_trust(args, remove)
    report = install(
        Store(workspace),
        args.platform,
        scope=args.scope,
        project=workspace.root,
        home=Path.home(),
        remove=remove,
        dry_run=getattr(args, "dry_run", False),
        command=program,
        trust=trust,
    )
    refused = trust and not report.trusted
    if wants_json(args):
        emit_json({"ok": not refused, **report.to_dict()})
        return 4 if refused else 0
    verb = "would change" if report.dry_run else ("removed from" if remove else "installed in")
    if report.unchanged:
        state = "not installed" if remove else "already installed"
        say(f"{args.platform}: nothing to change ({state})")
    else:
        events = report.removed if remove else report.added
        for path in report.files:
            say(f"{args.platform}: {verb} {path}: {', '.join(events)}")
    if report.dry_run:
        for path, text in report.preview.items():
            say(f"\n--- {path} ---\n{text.rstrip()}")
    if report.trust_state:
        states = ", ".join(
            f"{event} {state}" for event, state in sorted(report.trust_state.items())
        )
        say(f"{args.platform}: Codex reports workmem's hooks as: {states}")
    for warning in report.warnings:
        say(f"{args.platform}: {warning}")
    if report.user_steps:
        say(
            "One more step before the hooks run:" if len(report.user_steps) == 1 else "Still to do:"
        )
        for step in report.user_steps:
            say(f"  - {step}")
    return 4 if refused else 0


def cmd_install(args: argparse.Namespace) -> int:
    return _install(args, remove=False)


def cmd_uninstall(args: argparse.Namespace) -> int:
    return _install(args, remove=True)


def cmd_say(args: argparse.Namespace) -> int:
    from ..phrases import detect

    intent = detect(args.text)
    if not args.run or intent is None:
        if wants_json(args):
            shown: dict[str, object] = {"intent": intent.to_dict() if intent else None}
            emit_json(shown if not args.run else {**shown, "result": None})
        else:
            from ..dispatch import describe
            from ..i18n import language_for, speaking

            # In words, in the message's language (a workflow's id is for --json).
            with speaking(args.text, hint=intent.language if intent else None):
                say(describe(intent, language_for(None)))
        return 0 if intent else 1
    import os

    from ..dispatch import RunContext, run_intent
    from ..root import open_workspace

    run = RunContext(
        open_workspace(getattr(args, "root", None)),
        platform=args.platform,
        session_id=args.as_id or os.environ.get("WORKMEM_SESSION_ID"),
        transcript=Path(args.transcript) if args.transcript else None,
    )
    result = run_intent(intent, run)
    if wants_json(args):
        emit_json({"intent": intent.to_dict(), "result": result.to_dict()})
    else:
        say(result.text)
    return 0 if result.ok else 1


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    from ..hooks.events import PLATFORMS

    hooks = subparsers.add_parser("hooks", parents=[common], help="install hooks into an agent")
    verbs = hooks.add_subparsers(dest="verb", metavar="VERB", required=True)
    for name, handler in (("install", cmd_install), ("uninstall", cmd_uninstall)):
        verb = verbs.add_parser(name, parents=[common], help=f"{name} workmem's hooks")
        verb.add_argument("--platform", required=True, choices=PLATFORMS)
        verb.add_argument("--scope", choices=["project", "user"], default="project")
        verb.add_argument("--dry-run", action="store_true", help="show the change, write nothing")
        if name == "install":
            verb.add_argument(
                "--command",
                metavar="PATH",
                help="absolute path of the workmem the hooks run (default: workmem on PATH)",
            )
            verb.add_argument(
                "--trust",
                action="store_true",
                help="codex: ask Codex to trust workmem's hooks now (your consent)",
            )
        verb.set_defaults(handler=handler)

    hook = subparsers.add_parser(
        "hook", parents=[common], help="answer one hook event (stdin JSON)"
    )
    hook.add_argument("event", metavar="EVENT", help="e.g. SessionStart, user-prompt-submit")
    hook.add_argument("--platform", required=True, choices=PLATFORMS)
    hook.add_argument("--foreground", action="store_true", help=argparse.SUPPRESS)
    hook.set_defaults(handler=cmd_hook)

    text = subparsers.add_parser("say", parents=[common], help="which workflow a message asks for")
    text.add_argument("text", metavar="TEXT")
    text.add_argument("--run", action="store_true", help="run the workflow")
    text.add_argument("--as", dest="as_id", metavar="ID", help="the current memory session")
    text.add_argument("--transcript", metavar="F", help="the current session's transcript")
    text.add_argument("--platform", default=None)
    text.set_defaults(handler=cmd_say)

"""``workmem platform|memory|maintain|curate|bootstrap|wrap|context``: long-term memory's face.

Each handler parses its options, calls one library function and prints the verified
result (``--json`` for scripts). Library modules are imported inside the handlers, so
``workmem context`` from a hook does not load the wrap-up machinery.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import NotFoundError, UsageError
from .inputs import text_arg
from .output import emit_json, say, table, wants_json


def _workspace(args: argparse.Namespace) -> Any:
    from ..root import open_workspace

    return open_workspace(getattr(args, "root", None))


def _home(args: argparse.Namespace) -> Path | None:
    value = getattr(args, "home", None)
    return Path(value).expanduser() if value else None


def cmd_platform(args: argparse.Namespace) -> int:
    from ..platforms.detect import detect_platform

    found = detect_platform(_workspace(args).root, _home(args))
    if wants_json(args):
        emit_json({"ok": True, **found.to_dict()})
        return 0
    say(f"Platform: {found.name} ({found.key})")
    say(f"  matched: {found.signal}")
    say(f"  memory path: {found.memory_path}")
    say(f"  instructions: {found.instructions}")
    if found.row.native:
        say("  native memory: yes (no boot directive is added)")
    return 0


def cmd_memory_add(args: argparse.Namespace) -> int:
    from .. import clock
    from ..facts.write import MemoryInput, save_memory
    from ..files.store import Store
    from ..platforms.runtime import running_platform

    content = text_arg(args.content)
    if content is None and not sys.stdin.isatty():
        content = sys.stdin.read()
    item = MemoryInput.from_mapping(
        {
            "type": args.type,
            "topic": args.topic,
            "description": args.description or "",
            "content": content or "",
            "name": args.name,
            "reason": args.reason,
            "expires": args.expires,
        },
        "memory add",
    )
    workspace = _workspace(args)
    store = Store(workspace)
    result = save_memory(store, item, today=clock.now().date(), platform=running_platform())
    if not args.no_index and result.action != "unchanged":
        from ..facts.index import update_index

        update_index(store, touched={result.filename})
    if wants_json(args):
        emit_json({"ok": True, **result.to_dict()})
        return 0
    say(f"{result.action}: {store.show(result.path)}")
    if result.replaced:
        say(f"  replaced (old text kept under ## History): {', '.join(result.replaced)}")
    if result.redactions:
        say(f"  secrets redacted: {result.redactions}")
    return 0


def cmd_memory_list(args: argparse.Namespace) -> int:
    from .. import clock
    from ..facts.typed import check_type, list_memories
    from ..files.store import Store

    listing = list_memories(Store(_workspace(args)))
    today = clock.now().date()
    kind = check_type(args.type) if args.type else None
    rows = [m for m in listing.memories if kind is None or m.type == kind]
    if wants_json(args):
        emit_json(
            {
                "ok": True,
                "memories": [m.summary(today) for m in rows],
                "problems": [{"file": f, "error": e} for f, e in listing.problems],
            }
        )
        return 0
    body = [
        [
            m.filename,
            m.updated.isoformat() if m.updated else "-",
            "STALE" if m.stale_reason(today) else "",
            m.description,
        ]
        for m in rows
    ]
    say(table(["file", "updated", "", "description"], body) if body else "No typed memories.")
    for name, error in listing.problems:
        say(f"  unreadable: {name}: {error}")
    return 0


def cmd_memory_show(args: argparse.Namespace) -> int:
    from ..facts.typed import parse_filename, read_memory
    from ..files.store import Store

    name = args.name if args.name.endswith(".md") else f"{args.name}.md"
    if "/" in name or "\\" in name or parse_filename(name) is None:
        raise UsageError(f"{args.name!r} is not a typed memory name such as project_myapp")
    store = Store(_workspace(args))
    path = store.workspace.memory_dir / name
    memory = read_memory(store, path)
    if memory is None:
        raise NotFoundError(f"no memory {store.show(path)}")
    text = store.read_text(path)
    if wants_json(args):
        emit_json(
            {
                "ok": True,
                "file": name,
                "frontmatter": {k: str(v) for k, v in memory.front.data.items()},
                "text": text[0] if text else "",
            }
        )
    else:
        sys.stdout.write(text[0] if text else "")
    return 0


def cmd_maintain(args: argparse.Namespace) -> int:
    from ..facts.maintain import maintain

    report = maintain(_workspace(args), dry_run=args.dry_run)
    # A memory that cannot be read was left as it is (its index line too): the run did
    # what it could, but the memory needs a person, so the exit says "found problems".
    status = 1 if report.problems else 0
    if wants_json(args):
        emit_json({"ok": not report.problems, **report.to_dict()})
        return status
    verb = "would compress" if args.dry_run else "compressed"
    for comp in report.compressed:
        say(f"{verb} {comp.filename}: {comp.lines_before} -> {comp.lines_after} lines")
    for pair in report.merged:
        verb = "would merge" if args.dry_run else "merged"
        say(f"{verb} {pair.generic.filename} into {pair.specific.filename}")
    for name, reason in report.stale:
        say(f"stale: {name} ({reason})")
    for name, error in report.problems:
        say(f"problem: {name}: {error} (left as it is, its index line kept; fix it by hand)")
    for note in report.index.notes if report.index is not None else []:
        say(f"note: {note}")
    if not (report.compressed or report.merged or report.stale or report.problems):
        say("Nothing to maintain.")
    return status


def cmd_curate(args: argparse.Namespace) -> int:
    from ..facts.curate import curate

    workspace = _workspace(args)
    if (workspace.memory_dir / "state.json").is_file():
        # The working-memory journal asks for this review every ~5 sessions: curating
        # through it also promotes the patterns its logs confirm and clears its flag.
        from ..journal.writer import MemoryWriter

        report = MemoryWriter(workspace.root).run_curation(dry_run=args.dry_run)
    else:
        report = curate(workspace, dry_run=args.dry_run)
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    prefix = "would have " if args.dry_run else ""
    say(f"Curated {report.memory_file}: {prefix}{report.summary()}")
    for label, moves in (
        ("promoted", report.promoted),
        ("faded", report.faded),
        ("archived", report.archived),
        ("merged", report.merged),
    ):
        for move in moves:
            say(f"  {label}: {move.text[:70]} ({move.reason})")
    for note in report.notes:
        say(f"  note: {note}")
    return 0


def cmd_bootstrap(args: argparse.Namespace) -> int:
    from ..platforms.bootstrap import bootstrap
    from ..platforms.detect import detect_platform

    workspace = _workspace(args)
    platform = args.platform or detect_platform(workspace.root, _home(args)).key
    result = bootstrap(workspace, platform, dry_run=args.dry_run)
    if wants_json(args):
        emit_json({"ok": True, **result.to_dict()})
        return 0
    messages = {
        "added": f"Boot directive added to {result.file}",
        "present": f"Boot directive already in {result.file}; nothing changed",
        "would-add": f"Would add the boot directive to {result.file}",
        "skipped": f"Skipped: {result.reason}",
        "manual": f"Not a file we can edit: {result.reason}:",
    }
    say(messages[result.status])
    if result.status in ("manual", "would-add"):
        say(result.directive.rstrip("\n"))
    return 0


def cmd_wrap(args: argparse.Namespace) -> int:
    from ..wrap.inputs import read_items

    workspace = _workspace(args)
    if args.state:
        from ..wrap.gather import gather_state

        state = gather_state(workspace)
        if wants_json(args):
            emit_json({"ok": True, **state.to_dict()})
        else:
            _print_state(state.to_dict())
        return 0
    source = args.from_file or ("-" if not sys.stdin.isatty() else None)
    items = read_items(source) if source else []
    from ..wrap.confirm import render
    from ..wrap.run import wrap

    report = wrap(
        workspace,
        items,
        checkpoint=args.checkpoint,
        publish_to_platform=args.publish,
        platform=args.platform,
        home=_home(args),
        lang=args.lang,
        run_bootstrap=not args.no_bootstrap,
        strict=args.strict,
    )
    if wants_json(args):
        emit_json(report.to_dict())
    else:
        say(render(report))
    return 1 if report.unsaved else 0


def _language_arg(value: str) -> str:
    """``--lang`` takes the values of ``[workmem] language``; others end in exit 2."""
    from ..errors import UsageError
    from ..i18n import check_setting

    try:
        return check_setting(value, "--lang")
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _print_state(state: dict[str, Any]) -> None:
    if state["is_git"]:
        say(f"branch: {state['branch'] or '(detached)'}")
        for label in ("recent_commits", "status", "remotes"):
            say(f"{label.replace('_', ' ')}:")
            for line in state[label] or ["(none)"]:
                say(f"  {line}")
    else:
        say("files (newest first):")
        for line in state["listing"]:
            say(f"  {line}")
    say("memories: " + (", ".join(m["file"] for m in state["memories"]) or "(none)"))
    say("artifacts: " + (", ".join(state["artifacts"]) or "(none)"))
    for note in state["notes"]:
        say(f"note: {note}")


def cmd_context(args: argparse.Namespace) -> int:
    from ..platforms.runtime import running_platform
    from ..wrap.guardian import context_report

    counted = bool(args.user_turns or args.tool_results or args.responses)
    report = context_report(
        # the same transcript and reading as `workmem relay status`, unless counts are given
        workspace=_workspace(args) if args.transcript or not counted else None,
        transcript=Path(args.transcript) if args.transcript else None,
        session=args.session,
        platform=args.platform or (running_platform() if counted else None),
        profile=args.profile,
        user_turns=args.user_turns,
        tool_results=args.tool_results,
        responses=args.responses,
        window=args.window,
        home=_home(args),
    )
    if wants_json(args):
        emit_json({"ok": True, **report.to_dict()})
        return 0
    say(
        f"Context: {report.percent:.1f}% ({report.used_tokens:,} of {report.window:,} tokens, "
        f"{report.source})"
    )
    say(f"  zone: {report.zone} ({report.profile} profile), action: {report.action}")
    say(f"  {report.message}")
    if report.note:
        say(f"  note: {report.note}")
    say(f"  from: {report.method}")
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    plat = subparsers.add_parser("platform", parents=[common], help="which agent platform")
    plat.add_argument("--home", help="home folder to look in (default: yours)")
    plat.set_defaults(handler=cmd_platform)

    mem = subparsers.add_parser("memory", parents=[common], help="typed memories")
    verbs = mem.add_subparsers(dest="verb", metavar="VERB", required=True)
    add = verbs.add_parser("add", parents=[common], help="create or update a typed memory")
    add.add_argument("--type", required=True, choices=["project", "feedback", "user", "reference"])
    add.add_argument("--topic", required=True)
    add.add_argument("--description", default="")
    add.add_argument("--content", help="the text, '-' for stdin, '@file' (default: stdin)")
    add.add_argument("--name")
    add.add_argument("--reason", help="why an existing section is replaced (> Updated note)")
    add.add_argument("--expires", help="YYYY-MM-DD or 'never' (default: by type)")
    add.add_argument("--no-index", action="store_true", help="do not update MEMORY.md's index")
    add.set_defaults(handler=cmd_memory_add)
    lst = verbs.add_parser("list", parents=[common], help="typed memories with stale marks")
    lst.add_argument("--type")
    lst.set_defaults(handler=cmd_memory_list)
    show = verbs.add_parser("show", parents=[common], help="one typed memory")
    show.add_argument("name", metavar="NAME", help="e.g. project_myapp")
    show.set_defaults(handler=cmd_memory_show)

    mnt = subparsers.add_parser(
        "maintain", parents=[common], help="compress, dedup, mark stale, update the index"
    )
    mnt.add_argument("--dry-run", action="store_true")
    mnt.set_defaults(handler=cmd_maintain)

    cur = subparsers.add_parser("curate", parents=[common], help="curate MEMORY.md's tiers")
    cur.add_argument("--dry-run", action="store_true")
    cur.set_defaults(handler=cmd_curate)

    boot = subparsers.add_parser("bootstrap", parents=[common], help="add the boot directive")
    boot.add_argument("--platform", help="platform key (default: detected)")
    boot.add_argument("--home", help="home folder for detection")
    boot.add_argument("--dry-run", action="store_true")
    boot.set_defaults(handler=cmd_bootstrap)

    wrp = subparsers.add_parser(
        "wrap", parents=[common], help="session wrap-up: save memories, maintain, confirm"
    )
    wrp.add_argument("--from-file", metavar="F", help="YAML/JSON list of memories, '-' = stdin")
    wrp.add_argument("--checkpoint", action="store_true", help="lightweight mid-session save")
    wrp.add_argument("--publish", action="store_true", help="mirror to the platform's path")
    wrp.add_argument("--platform", help="platform key (default: detected)")
    wrp.add_argument("--home", help="home folder for detection and --publish")
    wrp.add_argument(
        "--lang",
        metavar="LANG",
        type=_language_arg,
        help="language of the confirmation: auto, en, zh-TW, zh-CN, ja or ko "
        "(default: [workmem] language in workmem.toml)",
    )
    wrp.add_argument("--no-bootstrap", action="store_true", help="do not add the boot directive")
    wrp.add_argument("--state", action="store_true", help="only print the gathered state")
    wrp.add_argument(
        "--strict",
        action="store_true",
        help="refuse memories holding code, temporary paths, task lists or file lists",
    )
    wrp.set_defaults(handler=cmd_wrap)

    ctx = subparsers.add_parser("context", parents=[common], help="context window guardian")
    ctx.add_argument("--transcript", metavar="F", help="transcript file (default: current)")
    ctx.add_argument("--session", metavar="ID", help="platform session id of the transcript")
    ctx.add_argument("--home", help="home folder to look for transcripts in (default: yours)")
    ctx.add_argument("--profile", choices=["wrap", "relay"], default="wrap")
    ctx.add_argument(
        "--platform", help="platform, for its window and transcript format (default: running)"
    )
    ctx.add_argument("--user-turns", type=int, default=0)
    ctx.add_argument("--tool-results", type=int, default=0)
    ctx.add_argument("--responses", type=int, default=0)
    ctx.add_argument("--window", type=int, help="context window in tokens")
    ctx.set_defaults(handler=cmd_context)

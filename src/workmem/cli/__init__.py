"""The ``workmem`` command line: a thin face over the library.

Only the module of the command being run is imported, so ``workmem hook …`` and
``workmem session start`` do not pay for the parsers and libraries of every other command.
Each command module exposes ``register(subparsers, common)``; handlers return an exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .. import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from pathlib import Path

#: top-level command -> module that defines it (and one-line help for ``workmem --help``)
COMMANDS: dict[str, tuple[str, str]] = {
    "session": ("workmem.cli.board_cmds", "the session board: start, register, update, …"),
    "organize": ("workmem.cli.board_cmds", "delete idle rows and mark overdue sessions stale"),
    "doctor": (
        "workmem.cli.board_cmds",
        "check memory files, links, hooks and conflict copies (--fix repairs)",
    ),
    "platform": ("workmem.cli.facts_cmds", "which agent platform this project uses, and why"),
    "memory": ("workmem.cli.facts_cmds", "typed memories: add, list, show"),
    "maintain": ("workmem.cli.facts_cmds", "compress, dedup, mark stale; update MEMORY.md's index"),
    "curate": ("workmem.cli.facts_cmds", "curate MEMORY.md: promote, fade, archive, merge"),
    "bootstrap": ("workmem.cli.facts_cmds", "add the boot directive to instruction files"),
    "wrap": ("workmem.cli.facts_cmds", "session wrap-up: save typed memories, maintain, confirm"),
    "context": ("workmem.cli.facts_cmds", "context window usage, zone and what to do"),
    "transcripts": (
        "workmem.cli.transcripts_cmds",
        "the agents' transcripts: list, history, status",
    ),
    "relay": (
        "workmem.cli.relay_cmds",
        "session relay: inherit, snapshot, restore, archive, status",
    ),
    "notes": (
        "workmem.cli.notes_cmds",
        "session notes: extract and show, or the summary after a compaction",
    ),
    "init": ("workmem.cli.journal_cmds", "scaffold the working-memory files (never overwrites)"),
    "migrate": (
        "workmem.cli.journal_cmds",
        "upgrade a legacy workspace (AGENT.md, MEMORY.md, logs)",
    ),
    "note": ("workmem.cli.journal_cmds", "note a decision, question, pattern or thread"),
    "event": ("workmem.cli.journal_cmds", "the dated event ledger: add, find"),
    "end": ("workmem.cli.journal_cmds", "end the session: daily log, threads, resumption, state"),
    "load": ("workmem.cli.journal_cmds", "the 4-phase memory context for a message, within budget"),
    "handoff": (
        "workmem.cli.handoff_cmds",
        "the last session's work in full, to pick it up in any agent",
    ),
    "hooks": ("workmem.cli.hooks_cmds", "install or remove workmem's hooks in an agent"),
    "hook": ("workmem.cli.hooks_cmds", "answer one hook event from an agent (JSON on stdin)"),
    "say": ("workmem.cli.hooks_cmds", "which workflow a message asks for; --run runs it"),
    "mcp": ("workmem.cli.mcp_cmds", "serve workmem to MCP clients (stdio or HTTP)"),
    "serve": (
        "workmem.cli.web_cmds",
        "a read-only web view of the board, sessions, threads, events and search",
    ),
    "search": ("workmem.cli.search_cmds", "search memory: compact hits with IDs and token costs"),
    "get": ("workmem.cli.search_cmds", "one search hit whole, with file, lines, date, session"),
    "timeline": ("workmem.cli.search_cmds", "the memory entries just before and after a hit"),
    "reindex": ("workmem.cli.search_cmds", "refresh the search index (--full: rebuild and swap)"),
    "bench": ("workmem.cli.search_cmds", "benchmarks: search recall (locomo), continuity, handoff"),
    "setup": ("workmem.cli.setup_cmds", "set workmem up for this project (hooks, memory, git)"),
    "sync": ("workmem.cli.sync_cmds", "share memory through git; merge cloud conflict copies"),
    "merge-driver": ("workmem.cli.sync_cmds", "merge one memory file for git (see sync init)"),
}


#: ``workmem --help`` lists the commands by what a user is doing; each command is in one group.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Record what happens", ("session", "note", "event", "memory", "wrap", "end", "notes")),
    ("Recall it", ("search", "get", "timeline", "load")),
    ("Hand over to the next session", ("handoff", "relay", "context")),
    (
        "Maintain the memory",
        ("organize", "maintain", "curate", "reindex", "migrate", "doctor", "sync", "merge-driver"),
    ),
    ("Integrate with your agents", ("setup", "init", "hooks", "hook", "say", "mcp", "bootstrap")),
    ("Inspect", ("platform", "transcripts", "serve", "bench")),
)


def commands_help() -> str:
    """The grouped command list shown by ``workmem --help``."""
    width = max(len(name) for name in COMMANDS)
    lines = ["New here? Run `workmem setup` in your project."]
    for title, names in GROUPS:
        lines.append(f"\n{title}:")
        lines += [f"  {name:<{width}}  {COMMANDS[name][1]}" for name in names]
    lines.append("\nRun `workmem COMMAND --help` for the options of one command.")
    return "\n".join(lines)


def common_options() -> argparse.ArgumentParser:
    """Options every command takes, before or after the command name."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--root", default=argparse.SUPPRESS, help="memory root (default: discovered)"
    )
    common.add_argument(
        "--now",
        default=argparse.SUPPRESS,
        help="act as at this time, 'YYYY-MM-DD HH:MM' (same as WORKMEM_NOW)",
    )
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output"
    )
    return common


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    common = common_options()
    parser = argparse.ArgumentParser(
        prog="workmem",
        usage="workmem [--root DIR] [--now TIME] [--json] COMMAND ...",
        description="Working memory for AI coding agents, kept in plain files.",
        epilog=commands_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"workmem {__version__}")
    # The flat list argparse would print is replaced by the grouped one in the epilog.
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", help=argparse.SUPPRESS, prog="workmem"
    )
    modules = (
        [COMMANDS[only][0]] if only in COMMANDS else dict.fromkeys(m for m, _ in COMMANDS.values())
    )
    for module_name in modules:
        importlib.import_module(module_name).register(subparsers, common)
    return parser


def bytecode_cache() -> str | None:
    """Where compiled modules go for an install that came without them.

    An install whose modules were never compiled (``uv tool install`` compiles nothing by
    default, nor ``pip --no-compile``) compiles every module it imports on every run when
    Python may not write next to them: the install is read-only, or
    ``PYTHONDONTWRITEBYTECODE`` is set. A dense search then cost 0.9 s of CPU against
    0.3 s (workmem, numpy and the model's package; measured). Such an install keeps them
    in a per-user cache folder instead (``sys.pycache_prefix``), written once; sources and
    the user's project never get a ``__pycache__`` from it. A compiled install, or one
    Python writes to anyway, is left as it is.
    """
    if sys.pycache_prefix is not None:
        return None
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent
    if _compiled(package):
        return None  # compiled at install time
    if not sys.dont_write_bytecode and os.access(package.parent, os.W_OK):
        return None  # Python writes the bytecode beside the modules on first use
    from ..files.oscompat import user_cache_dir

    sys.pycache_prefix = str(user_cache_dir() / "pycache")
    sys.dont_write_bytecode = False
    return sys.pycache_prefix


def _compiled(package: Path) -> bool:
    tag = sys.implementation.cache_tag
    return tag is None or (package / "__pycache__" / f"__init__.{tag}.pyc").exists()


def main(argv: Sequence[str] | None = None) -> int:
    from .output import CLOSED_PIPE, reader_went_away

    bytecode_cache()
    try:
        try:
            return _main(argv)
        finally:  # --help and usage errors leave by SystemExit: their output is flushed here too
            sys.stdout.flush()
    except BrokenPipeError:  # `workmem … | head`: the reader has all it wanted
        reader_went_away()
        return CLOSED_PIPE


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    first = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(first)
    args = parser.parse_args(args_list)
    if getattr(args, "now", None):
        os.environ["WORKMEM_NOW"] = args.now
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    from ..retrieval.warm import around_command
    from .output import run_handler

    root = getattr(args, "root", None)
    return around_command(args.command, lambda: run_handler(handler, args), root)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

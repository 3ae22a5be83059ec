"""Printing results for people and for scripts, and turning errors into exit codes."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from ..errors import WorkmemError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

Handler = Callable[[argparse.Namespace], int]


def wants_json(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "json", False))


def emit_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], max_width: int = 48) -> str:
    """A plain aligned text table; wide cells are cut with an ellipsis."""

    def cut(value: str) -> str:
        flat = " ".join(value.split())
        return flat if len(flat) <= max_width else flat[: max_width - 1] + "…"

    cells = [[cut(h) for h in headers], *[[cut(v) for v in row] for row in rows]]
    widths = [max(_width(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for index, row in enumerate(cells):
        lines.append("  ".join(v + " " * (widths[i] - _width(v)) for i, v in enumerate(row)))
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def _width(text: str) -> int:
    """Display width: East Asian wide characters take two columns."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


#: Exit code after the reader of our output closed the pipe (128 + SIGPIPE, as a shell
#: reports a command that SIGPIPE ended).
CLOSED_PIPE = 141


def reader_went_away() -> None:
    """Point stdout at the null device, so the interpreter's last flush finds no closed pipe
    (it would print "Exception ignored … BrokenPipeError" and exit 120 otherwise)."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no real file descriptor (captured in tests): nothing to do
        pass


def run_handler(handler: Handler, args: argparse.Namespace) -> int:
    try:
        return handler(args)
    except WorkmemError as exc:
        if wants_json(args):
            emit_json({"ok": False, "error": str(exc), "kind": type(exc).__name__})
        else:
            sys.stderr.write(f"workmem: error: {exc}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("workmem: interrupted\n")
        return 130

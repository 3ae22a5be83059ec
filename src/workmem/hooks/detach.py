"""Handing a hook's work to a detached process, so the platform's timeout cannot cut it.

The hook reads its JSON, starts ``workmem hook EVENT --platform P --foreground`` in a new
session (POSIX) or a detached process group (Windows) with that JSON on its stdin, and
exits 0 at once. The child keeps the hook's fail-open rules: errors go to the hook log.
"""

from __future__ import annotations

import subprocess
import sys

from ..files.oscompat import detached

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    import argparse


def child_argv(args: argparse.Namespace) -> list[str]:
    argv = [sys.executable, "-m", "workmem", "hook", args.event, "--platform", args.platform]
    root = getattr(args, "root", None)
    if root:
        argv += ["--root", str(root)]
    return [*argv, "--foreground"]


def hand_over(payload: str, args: argparse.Namespace) -> bool:
    """Start the detached child with ``payload`` on its stdin; False if it could not start."""
    try:
        child = subprocess.Popen(
            child_argv(args),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            **detached(),
        )
    except OSError:
        return False
    assert child.stdin is not None
    try:
        child.stdin.write(payload.encode("utf-8", "replace"))
        child.stdin.close()
    except OSError:
        return False
    return True

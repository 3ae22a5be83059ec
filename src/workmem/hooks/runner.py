"""Running a hook so that it can never hurt the agent: fail open, within a deadline.

Whatever goes wrong inside (a corrupt file, a read-only folder, a bug, a slow disk), the
hook exits 0 with no output — Claude Code reads exit 2 as "block this prompt" — and the
error is appended to ``memory/.workmem/hook.log``. A timer below the platform's own
timeout stops the work and fails open the same way.

The log is the root's like every other file: its folder is created through the root
guard (never through a link that leads out) and the log itself is appended to without
following a link (``oscompat.append_line``), so a planted ``hook.log`` link gets nothing.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..root import Workspace

DEFAULT_DEADLINE = 8.0
LOG_NAME = "hook.log"
_MAX_LOG_BYTES = 1_000_000


class HookDeadline(Exception):  # noqa: N818 - an event, not an error the user made
    """The internal deadline passed before the hook finished."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise ``HookDeadline`` in the main thread after ``seconds``."""
    from ..files.oscompat import deadline as os_deadline

    with os_deadline(seconds, lambda: HookDeadline(f"hook exceeded its {seconds:g}s deadline")):
        yield


def log_failure(workspace: Workspace | None, where: str, exc: BaseException) -> None:
    """Append one failure to the workspace's hook log; never raises."""
    if workspace is None:
        return
    try:
        import traceback  # only on failure: it pulls in linecache, tokenize and textwrap

        from ..files.confine import RootGuard
        from ..files.oscompat import append_line

        state_dir = RootGuard(workspace).make_folder(workspace.state_dir)
        log = state_dir / LOG_NAME
        if not log.is_symlink() and log.is_file() and log.stat().st_size > _MAX_LOG_BYTES:
            log.replace(log.with_suffix(".log.1"))
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        append_line(log, f"{stamp} pid={os.getpid()} {where}: {detail}\n")
    except Exception:
        pass


def run_fail_open(
    work: Callable[[], str],
    *,
    workspace: Callable[[], Workspace | None],
    where: str,
    seconds: float,
) -> str:
    """Run ``work`` and return its output, or "" after logging any failure or timeout.

    ``workspace`` says where to log; it is asked only after a failure, and may answer
    ``None`` (the root was never found, e.g. the payload's folder does not exist).
    """
    from ..retrieval.inhook import hook

    try:
        # searches in a hook use words only: no model is loaded, nothing is embedded
        with hook(), deadline(seconds):
            return work()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            sys.stderr.write("workmem hook interrupted\n")
        try:
            found = workspace()
        except Exception:
            found = None
        log_failure(found, where, exc)
        return ""

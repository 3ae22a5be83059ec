"""Running a hook so that it can never hurt the agent: fail open, within a deadline.

Whatever goes wrong inside (a corrupt file, a read-only folder, a bug, a slow disk), the
hook exits 0 with no output — Claude Code reads exit 2 as "block this prompt" — and the
error is appended to ``memory/.workmem/hook.log``. A timer below the platform's own
timeout stops the work and fails open the same way.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from types import FrameType

DEFAULT_DEADLINE = 8.0
LOG_NAME = "hook.log"
_MAX_LOG_BYTES = 1_000_000


class HookDeadline(Exception):  # noqa: N818 - an event, not an error the user made
    """The internal deadline passed before the hook finished."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise ``HookDeadline`` in the main thread after ``seconds`` (POSIX timers)."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(_signum: int, _frame: FrameType | None) -> None:
        raise HookDeadline(f"hook exceeded its {seconds:g}s deadline")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def log_failure(state_dir: Path | None, where: str, exc: BaseException) -> None:
    """Append one failure to the hook log; never raises."""
    if state_dir is None:
        return
    try:
        import traceback  # only on failure: it pulls in linecache, tokenize and textwrap

        state_dir.mkdir(parents=True, exist_ok=True)
        log = state_dir / LOG_NAME
        if log.exists() and log.stat().st_size > _MAX_LOG_BYTES:
            log.replace(log.with_suffix(".log.1"))
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with log.open("a", encoding="utf-8") as handle:
            handle.write(f"{stamp} pid={os.getpid()} {where}: {detail}\n")
    except Exception:
        pass


def run_fail_open(
    work: Callable[[], str], *, state_dir: Callable[[], Path | None], where: str, seconds: float
) -> str:
    """Run ``work`` and return its output, or "" after logging any failure or timeout."""
    try:
        with deadline(seconds):
            return work()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            sys.stderr.write("workmem hook interrupted\n")
        try:
            folder = state_dir()
        except Exception:
            folder = None
        log_failure(folder, where, exc)
        return ""

"""Which agent process a hook runs for, and whether that process is still there later.

When a session stops without its end hook (a crash, ``kill -9``, a closed terminal), the
next session must tell "stopped" from "still running in another window". The clock alone
cannot: a user who switches agents the minute a usage limit hits leaves a transcript
written a minute ago. So the session-start hook records the agent's process (the first
ancestor that is not a shell: hooks are started through ``sh -c`` by most agents) with its
start time, and a later start asks whether that same process still exists. A dead process
means stopped for certain; a live one leaves the decision to the clock (an agent that hit
its usage limit is alive and idle).

Linux only (``/proc``); elsewhere the identity is unknown and the clock decides alone.
The start time guards against a recycled PID.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .oscompat import pid_alive

#: programs that only pass a hook on (their parent is the agent)
_PASS_THROUGH = frozenset(
    {"sh", "bash", "dash", "zsh", "fish", "ksh", "env", "timeout", "nice", "nohup", "setsid"}
    | {"xargs", "stdbuf", "uv", "uvx", "pipx", "npx", "workmem", "python", "python3"}
)
_MAX_HOPS = 6


@dataclass(frozen=True)
class ProcessIdentity:
    pid: int
    #: the process's start time in clock ticks since boot (``/proc/<pid>/stat`` field 22)
    started: int
    name: str


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(name, parent pid, start ticks) of ``pid`` from ``/proc``, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    open_paren, close_paren = raw.find("("), raw.rfind(")")
    if open_paren < 0 or close_paren < open_paren:
        return None
    name = raw[open_paren + 1 : close_paren]
    fields = raw[close_paren + 2 :].split()
    try:
        return name, int(fields[1]), int(fields[19])
    except (IndexError, ValueError):
        return None


def _is_pass_through(name: str) -> bool:
    base = name.rsplit("/", 1)[-1].casefold()
    return base in _PASS_THROUGH or base.startswith(("python3.", "workmem"))


def agent_process(start: int | None = None) -> ProcessIdentity | None:
    """The first ancestor of ``start`` (default: this process's parent) that is not a shell
    or launcher, or None where processes cannot be read."""
    pid = start if start is not None else os.getppid()
    for _ in range(_MAX_HOPS):
        if pid <= 1:
            return None
        found = _stat(pid)
        if found is None:
            return None
        name, parent, started = found
        if not _is_pass_through(name):
            return ProcessIdentity(pid, started, name)
        pid = parent
    return None


def still_running(pid: object, started: object) -> bool | None:
    """Whether the recorded process still exists: True or False where it can be told,
    None where it cannot (no ``/proc``, or a record without an identity)."""
    if not isinstance(pid, int) or isinstance(pid, bool) or not isinstance(started, int):
        return None
    if not Path("/proc/self").is_dir():
        return None
    if not pid_alive(pid):
        return False
    found = _stat(pid)
    if found is None:
        return None  # alive, but not ours to read (another user's): cannot tell
    return found[2] == started

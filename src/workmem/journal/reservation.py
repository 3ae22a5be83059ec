"""Whose end is in flight: every session end owns its own reservation in ``state.json``.

An end reserves its session number first and finishes five files after (``ending``). The
CLI's ``end``, the session-end hook and the MCP tool may all end sessions at once, and
sessions without an ID of their own share one open-session record (key ``default``). If
they shared its reservation too, one end would take over another's half-finished one and
remove its daily-log entry as a "rejected attempt". So each end owns its reservation, by
attempt, process and host:

- a reservation whose owner is still running belongs to it: nobody takes it over, and the
  notes it claimed are not written by anybody else;
- a reservation whose owner is gone (its process ended without finishing: a failure, a
  kill) is an end that stopped part-way: the next end under the same key finishes it, as
  ever (its number, its replaced texts), and its entries give way to the new one;
- a reservation from another host (a synced folder) or older than ``STALE_AFTER`` is
  taken to be gone.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from typing import Any

ENDINGS = "endings"
LEGACY = "ending"
#: An end takes seconds; one older than this was stopped, whoever started it.
STALE_AFTER = 15 * 60.0
#: Attempts running in this process (an MCP server runs many ends one after another).
_RUNNING: set[str] = set()


def new_owner() -> dict[str, Any]:
    attempt = uuid.uuid4().hex[:12]
    _RUNNING.add(attempt)
    return {"attempt": attempt, "pid": os.getpid(), "host": socket.gethostname(), "at": time.time()}


def release(owner: dict[str, Any]) -> None:
    """This attempt is over (finished or failed): a later end may finish what it left."""
    _RUNNING.discard(str(owner.get("attempt")))


def reservations(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The record's reservations by attempt (an older file's single one included)."""
    found = record.get(ENDINGS)
    if not isinstance(found, dict):
        found = {}
    legacy = record.pop(LEGACY, None)
    if isinstance(legacy, dict) and isinstance(legacy.get("number"), int):
        found.setdefault("legacy", legacy)
    found = {
        k: v for k, v in found.items() if isinstance(v, dict) and isinstance(v.get("number"), int)
    }
    if found:
        record[ENDINGS] = found
    else:
        record.pop(ENDINGS, None)
    return found


def abandoned(reservation: dict[str, Any], *, now: float | None = None) -> bool:
    """Whether the reservation's owner is gone, so another end may finish it."""
    from ..files.oscompat import pid_alive

    owner = reservation.get("owner")
    if not isinstance(owner, dict):
        return True  # written before ends had owners: a stopped end
    since = owner.get("at")
    if not isinstance(since, int | float) or (now or time.time()) - since > STALE_AFTER:
        return True
    if owner.get("host") != socket.gethostname():
        return False  # another machine's end, recent: its own to finish
    pid = owner.get("pid")
    if pid == os.getpid():
        return str(owner.get("attempt")) not in _RUNNING
    return not (isinstance(pid, int) and pid_alive(pid))


def takeover(found: dict[str, dict[str, Any]]) -> str | None:
    """The stopped end this one finishes: the latest abandoned reservation, if any."""
    gone = [(key, r) for key, r in found.items() if abandoned(r)]
    if not gone:
        return None

    def started(item: tuple[str, dict[str, Any]]) -> float:
        owner = item[1].get("owner")
        at = owner.get("at") if isinstance(owner, dict) else None
        return float(at) if isinstance(at, int | float) else 0.0

    return max(gone, key=started)[0]


def claimed_elsewhere(found: dict[str, dict[str, Any]], mine: str | None) -> set[str]:
    """Note IDs that running ends (other than ``mine``) are writing."""
    taken: set[str] = set()
    for key, reservation in found.items():
        if key != mine and not abandoned(reservation):
            taken.update(str(n) for n in reservation.get("claimed") or [])
    return taken


def stopped(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Reservations of ends that stopped part-way (for doctor and the retry check)."""
    return [r for r in reservations(dict(record)).values() if abandoned(r)]

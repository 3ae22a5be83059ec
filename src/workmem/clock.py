"""The one clock every workflow reads.

``WORKMEM_NOW`` (or ``--now``, which sets it) pins the time so that tests and users can
check time-based rules such as stale marking without waiting fourteen days.
"""

from __future__ import annotations

import os
from datetime import datetime

from .errors import UsageError

ENV_VAR = "WORKMEM_NOW"
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M"
_ACCEPTED = (
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d",
)


def parse_timestamp(text: str) -> datetime:
    """Parse the timestamp forms the memory files and ``WORKMEM_NOW`` use (naive local time)."""
    value = text.strip()
    for fmt in _ACCEPTED:
        try:
            return datetime.strptime(value, fmt)
        except ValueError:
            continue
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"cannot read time {text!r}: use 'YYYY-MM-DD HH:MM' (e.g. 2026-05-25 13:18)"
        ) from None
    return (
        parsed.replace(tzinfo=None)
        if parsed.tzinfo is None
        else parsed.astimezone().replace(tzinfo=None)
    )


def now() -> datetime:
    """Current local time, or the pinned time when ``WORKMEM_NOW`` is set."""
    pinned = os.environ.get(ENV_VAR)
    if pinned:
        return parse_timestamp(pinned)
    return datetime.now().replace(microsecond=0)


def stamp(moment: datetime | None = None) -> str:
    """The board's timestamp form, ``YYYY-MM-DD HH:MM``."""
    return (moment or now()).strftime(TIMESTAMP_FORMAT)

"""What to do at a given context usage: two threshold profiles, one function.

``relay`` is the relay design's monitoring table (60 / 75 / 85 %); ``wrap`` is the
session-wrap design's Context Window Guardian (40 / 50 / 75 / 80 %: awareness from 40 %,
the checkpoint at ~50 %, active management after it, the full save at ~75 %, critical
past 80 %). ``zone_for`` is a pure function of the percentage, so a hook can decide in
microseconds whether anything needs doing; what a running session's hook does in each
zone is ``relay.pressure``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

PROFILES = ("relay", "wrap")


@dataclass(frozen=True)
class Zone:
    """A band of context usage and what the seeds say to do in it."""

    name: str
    level: int  # 0 nothing to do … 3 critical
    action: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# (upper bound, inclusive?, zone): the first bound the percentage is under wins
_RELAY: tuple[tuple[float, bool, Zone], ...] = (
    (60.0, False, Zone("none", 0, "none", "Context below 60%: no action.")),
    (
        75.0,
        False,
        Zone(
            "warm",
            1,
            "incremental-snapshot",
            "🟡 Warm: start incremental snapshots — append new progress to "
            "memory/relay-snapshot.md.",
        ),
    ),
    (
        85.0,
        True,
        Zone(
            "hot",
            2,
            "full-snapshot",
            "🟠 Hot: full snapshot refresh — rewrite memory/relay-snapshot.md with the "
            "complete current state (and add the HEARTBEAT.md line).",
        ),
    ),
    (
        float("inf"),
        True,
        Zone(
            "critical",
            3,
            "force-save",
            "🔴 Critical: force-save the snapshot, warn the user, sync to the daily log.",
        ),
    ),
)

_WRAP: tuple[tuple[float, bool, Zone], ...] = (
    (40.0, False, Zone("normal", 0, "none", "🟢 Normal: continue working.")),
    (
        50.0,
        False,
        Zone(
            "awareness",
            1,
            "note",
            "🟡 Awareness: start noting what matters this session; no save yet.",
        ),
    ),
    (
        55.0,
        False,
        Zone(
            "checkpoint",
            2,
            "checkpoint-save",
            "🟠 Checkpoint: lightweight memory save now.",
        ),
    ),
    (
        75.0,
        False,
        Zone(
            "active-management",
            2,
            "be-concise",
            "🟠 Active management: be concise, prefer targeted reads, avoid re-reading files.",
        ),
    ),
    (
        80.0,
        True,
        Zone(
            "full-save",
            3,
            "full-save",
            "🔴 Full save: run the complete session wrap (with maintenance), list what is "
            "left to do, and suggest a new session.",
        ),
    ),
    (
        float("inf"),
        True,
        Zone(
            "critical",
            3,
            "emergency-save",
            "🔴 Critical: minimal replies; save the goal, what is done and not done before "
            "the context is compacted.",
        ),
    ),
)

_TABLES = {"relay": _RELAY, "wrap": _WRAP}


def zone_for(percent: float, profile: str = "relay") -> Zone:
    table = _TABLES.get(profile)
    if table is None:
        raise UsageError(f"unknown threshold profile {profile!r}: use {' or '.join(PROFILES)}")
    for bound, inclusive, zone in table:
        if percent < bound or (inclusive and percent == bound):
            return zone
    return table[-1][2]


#: the wrap profile's first zone that calls for a save (the checkpoint, ~50 %)
WRAP_SAVE_LEVEL = 2


def calls_for_action(percent: float) -> bool:
    """Whether any zone of either profile asks for something at ``percent``: below, the
    prompt hook has nothing to do (the common case, decided without another import)."""
    return (
        zone_for(percent, "relay").level > 0 or zone_for(percent, "wrap").level >= WRAP_SAVE_LEVEL
    )


#: zones whose seed gives the words to say to the user (catalogue keys)
_ANNOUNCE = {"checkpoint": "zone.checkpoint", "full-save": "zone.full_save"}


def zone_message(zone: Zone, language: str = "en") -> str:
    """What to do in ``zone``, and where the seed gives one, what to tell the user, in the
    language the user reads."""
    key = _ANNOUNCE.get(zone.name)
    if key is None:
        return zone.message
    from ..i18n import text

    return f'{zone.message} Tell the user: "{text(language, key)}"'


def critical_footer(percent: float, language: str = "en") -> str:
    """The line seed 002 appends to every reply past 85 %, in the user's language."""
    from ..i18n import text

    return text(language, "relay.footer", pct=f"{percent:.0f}")

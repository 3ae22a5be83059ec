"""The Context Window Guardian (seed 000): how full the window is and what to do about it.

With a transcript, the usage comes from ``workmem.relay.usage.context_usage`` (the
platform's recorded token counts where it has them). Without one, the seed's rough
formula from the counts the agent gives: ``user_turns x 800 + tool_results x 1500 +
responses x 600``, over the platform's usual window from the seed's list. The zone and
its action come from ``workmem.relay.zones.zone_for`` with the ``wrap`` (40/50/75/80 %)
or ``relay`` (60/75/85 %) profile.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError

PER_USER_TURN = 800
PER_TOOL_RESULT = 1500
PER_RESPONSE = 600
#: Seed 000's "common context windows"; "most others: ~64K-200K" -> the middle, 128K.
SEED_WINDOWS = {
    "claude-code": 200_000,
    "cursor": 128_000,
    "codex": 128_000,
    "gemini": 1_000_000,
}
OTHER_WINDOW = 128_000
LONG_SESSION_TURNS = 100


def estimate_tokens(user_turns: int, tool_results: int, responses: int) -> int:
    for name, value in (
        ("user turns", user_turns),
        ("tool results", tool_results),
        ("responses", responses),
    ):
        if value < 0:
            raise UsageError(f"{name} cannot be negative")
    return user_turns * PER_USER_TURN + tool_results * PER_TOOL_RESULT + responses * PER_RESPONSE


@dataclass(frozen=True)
class ContextReport:
    used_tokens: int
    window: int
    percent: float
    source: str
    model: str | None
    profile: str
    zone: str
    level: int
    action: str
    message: str
    method: str
    #: Seed 000's edge case: 100+ turns is likely past 50 % whatever the estimate says.
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def context_report(
    *,
    transcript: Path | None = None,
    platform: str | None = None,
    profile: str = "wrap",
    user_turns: int = 0,
    tool_results: int = 0,
    responses: int = 0,
    window: int | None = None,
) -> ContextReport:
    from ..relay.zones import zone_for

    if window is not None and window <= 0:
        raise UsageError("the context window must be a positive number of tokens")
    if transcript is not None:
        from ..relay.usage import context_usage

        usage = context_usage(transcript, platform, window=window)
        used, total, source, model = usage.used_tokens, usage.window, usage.source, usage.model
        method = f"transcript {transcript.name}"
    else:
        used = estimate_tokens(user_turns, tool_results, responses)
        total = window or SEED_WINDOWS.get(platform or "", OTHER_WINDOW)
        source, model = "estimated", None
        method = (
            f"seed formula: {user_turns}×{PER_USER_TURN} + {tool_results}×{PER_TOOL_RESULT} "
            f"+ {responses}×{PER_RESPONSE}"
        )
    percent = round(100.0 * used / total, 1) if total else 0.0
    zone = zone_for(percent, profile)
    note = ""
    if user_turns >= LONG_SESSION_TURNS and zone.level < 2:
        note = (
            f"{user_turns} turns: a very long session is likely past 50% on most platforms; "
            "save a checkpoint if none was made (workmem wrap --checkpoint)."
        )
    return ContextReport(
        used_tokens=used,
        window=total,
        percent=percent,
        source=source,
        model=model,
        profile=profile,
        zone=zone.name,
        level=zone.level,
        action=zone.action,
        message=zone.message,
        method=method,
        note=note,
    )

"""The ``[journal]`` table of ``workmem.toml``: strategy thresholds, review cadence, budgets.

```toml
[journal]
light_hours = 2          # under this gap: light (state, resumption, a matched thread)
standard_hours = 24      # under this: standard (Phase 3 by the opening message)
full_reload_days = 7     # under this: full_reload; beyond: deep_reload
review_every = 5         # raise memory_review_due after this many sessions
recent_logs = 3          # daily-log summaries shown on full reloads and reviews

[journal.budget]
total = 4000
orient = 250
anchor = 500
context = 2200
deep = 1500
```
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Settings
from ..errors import FormatError, UsageError
from .budget import BudgetConfig

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

_NUMBERS = ("light_hours", "standard_hours", "full_reload_days", "review_every", "recent_logs")


@dataclass(frozen=True)
class JournalSettings:
    """The ``[journal]`` table, checked once, with the defaults of seed 004."""

    light_hours: float = 2.0
    standard_hours: float = 24.0
    full_reload_days: float = 7.0
    review_every: int = 5
    recent_logs: int = 3
    budget: BudgetConfig = field(default_factory=BudgetConfig)


def journal_settings(settings: Settings) -> JournalSettings:
    table: dict[str, Any] = dict(settings.section("journal"))
    where = "workmem.toml [journal]"
    budget_table = table.pop("budget", {})
    if not isinstance(budget_table, dict):
        raise FormatError("[journal.budget] must be a table", path=where)
    unknown = set(table) - set(_NUMBERS)
    if unknown:
        raise FormatError(f"unknown key(s) {sorted(unknown)}; known: {list(_NUMBERS)}", path=where)
    values: dict[str, Any] = {}
    for key in _NUMBERS:
        if key not in table:
            continue
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise FormatError(f"'{key}' must be a number ≥ 0, got {value!r}", path=where)
        values[key] = int(value) if key in ("review_every", "recent_logs") else float(value)
    try:
        budget = BudgetConfig.from_mapping(budget_table)
    except UsageError as exc:
        raise FormatError(str(exc), path=where) from None
    result = JournalSettings(budget=budget, **values)
    if not result.light_hours <= result.standard_hours <= result.full_reload_days * 24:
        raise FormatError(
            "thresholds must grow: light_hours ≤ standard_hours ≤ full_reload_days × 24",
            path=where,
        )
    return result

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

from ..config import Settings, numbers_from
from ..errors import FormatError, UsageError
from .budget import BudgetConfig

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any


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
    values = numbers_from(JournalSettings, table, "journal", where)
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

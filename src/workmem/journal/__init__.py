"""Working memory over time (seed 004): daily logs, events, threads, resumption, state.

``MemoryLoader`` (the four-phase loader), ``MemoryWriter`` (notes and the end-of-session
write) and ``BudgetConfig`` are imported lazily, so ``import workmem.journal`` stays cheap
for hooks that only append to a daily log. ``migrate`` lives in ``workmem.journal.migrate``
(a package attribute of that name would be shadowed by the submodule).
"""

from __future__ import annotations

from .. import _lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)

_EXPORTS = {
    "MemoryLoader": "workmem.journal.loader",
    "Lookup": "workmem.journal.loader",
    "MemoryWriter": "workmem.journal.writer",
    "EndReport": "workmem.journal.writer",
    "BudgetConfig": "workmem.journal.budget",
    "SessionContext": "workmem.journal.budget",
    "init": "workmem.journal.scaffold",
}

if TYPE_CHECKING:
    from .budget import BudgetConfig, SessionContext
    from .loader import Lookup, MemoryLoader
    from .scaffold import init
    from .writer import EndReport, MemoryWriter

__getattr__ = _lazy_exports(__name__, _EXPORTS)


__all__ = [
    "BudgetConfig",
    "EndReport",
    "Lookup",
    "MemoryLoader",
    "MemoryWriter",
    "SessionContext",
    "init",
]

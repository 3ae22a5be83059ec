"""workmem: the working memory of AI coding agents, kept in plain markdown and JSON files.

The public API is imported lazily so that ``import workmem`` stays cheap for hooks.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)

__version__ = "0.1.0"


def _lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) importing ``exports[name]`` on first use.

    Kept here because this package is loaded anyway (a module of its own cost every hook
    ~0.1 ms). Modules are named relative to ``package`` (``".api"``) or absolutely.
    """

    def load(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        return getattr(importlib.import_module(module, package), name)

    return load


_EXPORTS = {
    "Board": "workmem.board",
    "MemoryLoader": "workmem.journal.loader",
    "MemoryWriter": "workmem.journal.writer",
    "BudgetConfig": "workmem.journal.budget",
    "SessionContext": "workmem.journal.budget",
    "read_transcript": "workmem.transcripts",
    "context_usage": "workmem.relay.usage",
    "zone_for": "workmem.relay.zones",
    "BoardRow": "workmem.board",
    "SnapshotChange": "workmem.board",
    "WorkmemError": "workmem.errors",
}

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from .board import Board, BoardRow, SnapshotChange
    from .errors import WorkmemError
    from .journal.budget import BudgetConfig, SessionContext
    from .journal.loader import MemoryLoader
    from .journal.writer import MemoryWriter
    from .relay.usage import context_usage
    from .relay.zones import zone_for
    from .transcripts import read_transcript

__getattr__ = _lazy_exports(__name__, _EXPORTS)


__all__ = [
    "Board",
    "BoardRow",
    "BudgetConfig",
    "MemoryLoader",
    "MemoryWriter",
    "SessionContext",
    "SnapshotChange",
    "WorkmemError",
    "__version__",
    "context_usage",
    "read_transcript",
    "zone_for",
]

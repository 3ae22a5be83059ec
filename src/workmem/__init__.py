"""workmem: the working memory of AI coding agents, kept in plain markdown and JSON files.

The public API is imported lazily so that ``import workmem`` stays cheap for hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Board": "workmem.board",
    "BoardRow": "workmem.board",
    "SnapshotChange": "workmem.board",
    "WorkmemError": "workmem.errors",
}

if TYPE_CHECKING:
    from .board import Board, BoardRow, SnapshotChange
    from .errors import WorkmemError


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'workmem' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = ["Board", "BoardRow", "SnapshotChange", "WorkmemError", "__version__"]

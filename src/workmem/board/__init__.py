"""The session board of seed 001 as a Python API.

    from workmem import Board
    board = Board("/path/to/workspace")
    sid = board.start().session_id            # idle row, default metadata
    board.update(sid, topic="Auth refactor", sections={"Decisions": "Use JWT"})
    board.organize()                          # delete idle rows, mark overdue active stale

Every method returns only after its writes were re-read and verified, and raises a
``WorkmemError`` (nothing half-written) otherwise. The CLI is a thin face over this class.
"""

from __future__ import annotations

from .. import _lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)

_EXPORTS = {
    "Board": ".api",
    "BoardContext": ".context",
    "BoardRow": ".model",
    "DoctorReport": "..doctor",
    "OrganizeReport": ".cleanup",
    "SessionResult": ".start",
    "SessionView": ".inspect",
    "SnapshotChange": ".snapshot",
}

if TYPE_CHECKING:
    from ..doctor import DoctorReport
    from .api import Board
    from .cleanup import OrganizeReport
    from .context import BoardContext
    from .inspect import SessionView
    from .model import BoardRow
    from .snapshot import SnapshotChange
    from .start import SessionResult

# A hook that only registers a session does not load organize or doctor.
__getattr__ = _lazy_exports(__name__, _EXPORTS)


__all__ = [
    "Board",
    "BoardContext",
    "BoardRow",
    "DoctorReport",
    "OrganizeReport",
    "SessionResult",
    "SessionView",
    "SnapshotChange",
]

"""``workmem doctor``: every part's consistency checks over one memory root.

Each part of workmem knows what "consistent" means for its own files, so each keeps its
check beside its code and registers it here with one line; doctor runs them all, in order,
into one report. A check that itself fails (a bug, an unreadable folder) becomes a finding,
never a traceback, so one broken part does not hide the others' findings.

A check is ``check(workspace, report) -> None``. With ``report.fix`` set, a check may repair
what it can repair safely (through the store, verified) and says so with ``report.fixed``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from .root import Workspace

#: (module, function) of every check, in report order.
CHECKS: tuple[tuple[str, str], ...] = (
    ("workmem.board.inspect", "check_board"),
    ("workmem.hooks.failures", "check_hook_failures"),
    ("workmem.files.confine", "check_links"),
    ("workmem.journal.consistency", "check_journal"),
    ("workmem.platforms.hook_command", "check_hook_commands"),
    ("workmem.platforms.steps", "check_platform_steps"),
    ("workmem.sync.copies", "check_sync"),
    ("workmem.sync.unfinished", "check_unfinished_merges"),
)


@dataclass
class Finding:
    kind: str
    session_id: str | None
    message: str

    def to_dict(self) -> dict[str, str | None]:
        return {"kind": self.kind, "session_id": self.session_id, "message": self.message}


@dataclass
class DoctorReport:
    rows: int = 0
    findings: list[Finding] = field(default_factory=list)
    #: what a ``--fix`` run repaired, one line each
    repairs: list[str] = field(default_factory=list)
    fix: bool = False

    @property
    def healthy(self) -> bool:
        return not self.findings

    def add(self, kind: str, session_id: str | None, message: str) -> None:
        self.findings.append(Finding(kind, session_id, message))

    def fixed(self, what: str) -> None:
        self.repairs.append(what)

    def to_dict(self) -> dict[str, object]:
        return {
            "rows": self.rows,
            "healthy": self.healthy,
            "findings": [f.to_dict() for f in self.findings],
            "repairs": self.repairs,
        }


def run(workspace: Workspace, *, fix: bool = False) -> DoctorReport:
    """Run every registered check; a check that raises is reported as its own finding."""
    report = DoctorReport(fix=fix)
    for module_name, function in CHECKS:
        try:
            check = getattr(importlib.import_module(module_name), function)
            check(workspace, report)
        except Exception as exc:  # a broken check must not hide the others
            report.add("check-failed", None, f"{module_name}.{function} could not run: {exc}")
    return report

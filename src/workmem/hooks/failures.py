"""What went wrong in hooks lately, read back from ``memory/.workmem/hook.log``.

A hook never shows an error to the agent (it fails open), so without this a save that
fails every time would fail silently forever. The log has one line per failure,
``YYYY-MM-DD HH:MM:SS pid=N WHERE: DETAIL``; this module counts them by where they
happened and keeps the last message of each, for ``workmem doctor``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..root import Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from ..doctor import DoctorReport

LOG_NAME = "hook.log"
_LINE = re.compile(r"^(?P<at>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) pid=\d+ (?P<where>\S+): (?P<what>.*)$")
#: failures older than this are history, not a problem to report
RECENT_DAYS = 7


@dataclass
class FailureGroup:
    where: str
    count: int = 0
    first: str = ""
    last: str = ""
    last_message: str = ""


@dataclass
class HookFailures:
    groups: dict[str, FailureGroup] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(g.count for g in self.groups.values())


def recent_failures(workspace: Workspace, *, days: int = RECENT_DAYS) -> HookFailures:
    """Failures of the last ``days`` days in the hook log (and its rotated part)."""
    from ..clock import now

    since = now() - timedelta(days=days)
    found = HookFailures()
    from ..files.store import Store

    store = Store(workspace, read_only=True)  # confined and bounded; a bad log is no log
    for name in (f"{LOG_NAME}.1", LOG_NAME):
        data = store.read_derived(workspace.state_dir / name)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        for line in text.splitlines():
            match = _LINE.match(line)
            if match is None:
                continue
            try:
                at = datetime.strptime(match["at"], "%Y-%m-%d %H:%M:%S")
            except ValueError:
                continue
            if at < since:
                continue
            group = found.groups.setdefault(match["where"], FailureGroup(match["where"]))
            group.count += 1
            group.first = group.first or match["at"]
            group.last, group.last_message = match["at"], match["what"]
    return found


def check_hook_failures(workspace: Workspace, report: DoctorReport) -> None:
    """Doctor: hooks that failed in the last days, with counts and the last message.

    With ``--fix`` the logs are set aside as ``hook.log.seen``, which marks the failures
    as seen; the next failure starts a fresh log.
    """
    failures = recent_failures(workspace)
    for group in sorted(failures.groups.values(), key=lambda g: g.last, reverse=True):
        report.add(
            "hook-failure",
            None,
            f"{group.where} failed {group.count} time(s) since {group.first} "
            f"(last {group.last}: {group.last_message[:240]})",
        )
    if report.fix and failures.total:
        for name in (f"{LOG_NAME}.1", LOG_NAME):
            log = workspace.state_dir / name
            if log.is_file() and not log.is_symlink():
                log.replace(workspace.state_dir / f"{LOG_NAME}.seen")
        report.fixed(f"hook log set aside ({failures.total} failure(s) marked as seen)")

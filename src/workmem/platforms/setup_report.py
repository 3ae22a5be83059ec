"""What ``workmem setup`` did, step by step: for the summary, ``--json`` and a dry run's diff."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .hook_command import HookCommand

#: Actions that changed a file.
DONE = ("created", "added", "removed", "updated")


@dataclass
class Step:
    """One thing setup did (or would do) to one file or set of files."""

    part: str  # settings | memory files | hooks | boot directive | git-ignore
    action: str  # created, added, removed, unchanged, skipped, manual, would-…
    platform: str | None = None
    files: list[str] = field(default_factory=list)
    detail: str = ""
    #: file -> (text before, text after), for showing a dry run as a diff
    changes: dict[str, tuple[str, str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "part": self.part,
            "action": self.action,
            "platform": self.platform,
            "files": self.files,
            "detail": self.detail,
        }


@dataclass
class SetupReport:
    root: str
    platforms: list[tuple[str, str, str]]  # key, name, why
    dry_run: bool
    uninstall: bool
    command: HookCommand | None = None
    steps: list[Step] = field(default_factory=list)
    user_steps: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    verified: bool = False
    #: one line on what belongs in git (not for an uninstall)
    commit: str = ""

    @property
    def changed(self) -> bool:
        return any(s.action in DONE or s.action.startswith("would-") for s in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "platforms": [{"platform": k, "name": n, "why": w} for k, n, w in self.platforms],
            "dry_run": self.dry_run,
            "uninstall": self.uninstall,
            "hook_command": self.command.command if self.command else None,
            "changed": self.changed,
            "steps": [s.to_dict() for s in self.steps],
            "user_steps": self.user_steps,
            "warnings": self.warnings,
            "verified": self.verified,
            "commit": self.commit,
        }

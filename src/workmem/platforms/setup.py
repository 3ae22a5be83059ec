"""``workmem setup``: one command that makes a project remember, and one that undoes it.

For the project it is run in: which agents it uses (detected, or named with ``platform``),
a memory root (the working-memory files and ``workmem.toml``), each agent's hooks (through
``hooks.install``, with a command that will still exist next month), the boot directive
where an agent needs one (``platforms.bootstrap``), and ``memory/.workmem/`` kept out of git.

Each step only adds what is missing, so a second run changes nothing; ``dry_run`` reports
what would change and writes nothing; every change is read back from disk before the report
says it is done. ``uninstall`` takes the hooks and the directives out again and leaves every
memory file where it is: those are the user's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import UsageError, WorkmemError, WriteError
from ..files.store import Store
from ..hooks.events import PLATFORMS as HOOK_PLATFORMS
from ..root import Workspace
from . import setup_steps as steps
from .bootstrap import TARGETS, has_marker
from .detect import TABLE, Context, PlatformRow, detect_all, row_for
from .hook_command import choose, installed_commands
from .hook_line import program_of
from .setup_report import DONE, SetupReport, Step
from .teardown import tidy_after_removal

__all__ = ["SetupReport", "Step", "choose_platforms", "setup"]


def choose_platforms(
    project: Path, home: Path, requested: Sequence[str] = ()
) -> list[tuple[PlatformRow, str]]:
    """The platforms to set up: the ones named, else every one detected for this project."""
    if requested:
        rows = {row_for(name).key: row_for(name) for name in requested}
        return [(row, "named with --platform") for row in rows.values()]
    found = detect_all(Context.current(project, home))
    if not found:
        looked = "; ".join(f"{r.name}: {r.how}" for r in TABLE if r.key in HOOK_PLATFORMS)
        raise UsageError(
            f"no agent found for {project} (looked for {looked}); name yours with --platform "
            f"({', '.join(HOOK_PLATFORMS)}); nothing was written"
        )
    return [(d.row, d.signal) for d in found]


def setup(
    root: Path,
    *,
    platforms: Sequence[str] = (),
    home: Path | None = None,
    agent_name: str | None = None,
    command: str | None = None,
    scope: str = "project",
    dry_run: bool = False,
    uninstall: bool = False,
) -> SetupReport:
    """Set the project up (or take it out again); a dry run first, so bad input writes nothing.

    Every configuration and instructions file is read and parsed by the dry run before the
    first write, and the store refuses a file that is a link out of the project then too: a
    broken ``settings.json`` or a hostile checkout stops setup with nothing written.
    """
    home = home or Path.home()
    workspace = Workspace(root)
    store = Store(workspace)
    if agent_name is not None:
        from ..board.model import check_agent_name

        check_agent_name(agent_name)
    if uninstall:
        keys = dict.fromkeys([row_for(p).key for p in platforms] or [*HOOK_PLATFORMS, *TARGETS])
        chosen = [(row_for(k), "named with --platform" if platforms else "any") for k in keys]
    else:
        chosen = choose_platforms(root, home, platforms)
    rows = [row for row, _ in chosen]
    wants_hooks = not uninstall and any(row.key in HOOK_PLATFORMS for row in rows)
    hook_command = choose(command) if wants_hooks else None

    def run(dry: bool) -> SetupReport:
        listed = [(row.key, row.name, why) for row, why in chosen]
        report = SetupReport(str(root), listed, dry, uninstall, hook_command)
        if hook_command is not None and hook_command.warning:
            report.warnings.append(hook_command.warning)
        try:
            _steps(report, workspace, store, home, scope, rows, agent_name)
        except WorkmemError as exc:
            _say_what_was_done(exc, report)
            raise
        return report

    plan = run(dry=True)  # every file is read (and a link out refused) before any write
    if dry_run:
        return plan
    report = run(dry=False)
    _verify(report, workspace, home, scope)
    if uninstall:
        for step in report.steps:
            if step.action == "removed":
                tidy_after_removal(store, step.platform or "", step.files)
    return report


def _steps(
    report: SetupReport,
    workspace: Workspace,
    store: Store,
    home: Path,
    scope: str,
    rows: list[PlatformRow],
    agent_name: str | None,
) -> None:
    """Every step in order; taking out, only the hooks and directives, where they are."""
    dry, root = report.dry_run, workspace.root
    if not report.uninstall:
        report.steps.append(steps.memory_files_step(workspace, agent_name, dry))
        report.steps.append(steps.settings_step(workspace, store, agent_name, dry, report.warnings))
    report.steps += [steps.hooks_step(store, row, root, home, scope, report) for row in rows]
    report.steps += [steps.directive_step(workspace, store, row, report) for row in rows]
    if report.uninstall:
        report.steps = [s for s in report.steps if s.action not in ("unchanged", "skipped")]
    else:
        report.steps.append(steps.git_ignore_step(workspace, store, dry, report.warnings))
        report.commit = steps.commit_line(workspace, report)


def _say_what_was_done(exc: WorkmemError, report: SetupReport) -> None:
    done = [f for s in report.steps if s.action in DONE for f in s.files]
    if done and not report.dry_run:
        exc.args = (f"{exc} (already written before this: {', '.join(done)})",)


# ---- reading it all back ----------------------------------------------------------------------
def _verify(report: SetupReport, workspace: Workspace, home: Path, scope: str) -> None:
    """Re-read every file setup answers for; say exactly what did not hold."""
    problems: list[str] = []
    root = workspace.root
    for step in report.steps:
        if step.part in ("memory files", "settings", "git-ignore"):
            problems += [f"{f} is missing" for f in step.files if not (root / f).is_file()]
        elif step.part == "hooks" and step.action in ("added", "unchanged", "removed"):
            found = installed_commands(step.platform or "", scope, root, home)
            if report.uninstall and found:
                problems.append(f"{step.platform} hooks are still installed")
            wanted = report.command.program if report.command else ""
            if not report.uninstall and (not found or any(program_of(c) != wanted for c in found)):
                problems.append(f"{step.platform} hooks do not call {wanted}")
        elif step.part == "boot directive" and step.action in ("added", "unchanged", "removed"):
            for name in step.files:
                path = root / name
                present = path.is_file() and has_marker(path.read_text(encoding="utf-8-sig"))
                if present == report.uninstall:
                    state = "still in" if report.uninstall else "missing from"
                    problems.append(f"the boot directive is {state} {name}")
    if problems:
        raise WriteError("setup did not verify: " + "; ".join(problems))
    report.verified = True

"""The steps of ``workmem setup``, each idempotent and each able to only say what it would do.

A step returns a ``Step``: what it did (or would do) and, for a dry run, each file's text
before and after. Hooks and boot directives are written by their own modules
(``hooks.install``, ``platforms.bootstrap``); the steps here decide, report and collect the
steps a person still has to take.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from ..errors import UsageError, WorkmemError, WriteError
from ..files.confine import IGNORE_TEXT
from ..files.store import Store
from ..hooks.events import PLATFORMS as HOOK_PLATFORMS
from ..root import Workspace
from .bootstrap import (
    BootstrapResult,
    bootstrap,
    remove_directive,
    with_directive,
    without_directive,
)
from .detect import PlatformRow
from .setup_report import SetupReport, Step


def memory_files_step(workspace: Workspace, agent_name: str | None, dry_run: bool) -> Step:
    from ..journal.journal import Journal
    from ..journal.scaffold import detect, init

    if dry_run:
        found = detect(Journal.open(workspace.root))
        if found.legacy:
            raise UsageError(
                "this looks like a workspace kept by hand before workmem (instructions, "
                "MEMORY.md and daily logs): run `workmem migrate` first (preview it with "
                "--dry-run); nothing was written"
            )
        missing = ([] if found.memory_md else ["MEMORY.md"]) + [
            f"memory/{name}" for name in found.missing
        ]
        return Step("memory files", "would-create" if missing else "unchanged", files=missing)
    created = init(workspace.root, agent_name=agent_name).created
    return Step("memory files", "created" if created else "unchanged", files=created)


def settings_text(agent_name: str | None) -> str:
    lines = ["# workmem settings for this project; every key is optional (README: Settings)."]
    if agent_name:
        lines.append(f"agent_name = {json.dumps(agent_name)}")
    else:
        lines.append('# agent_name = "claude-code-main-agent"   # default: <platform>-main-agent')
    lines += [
        "",
        "# [workmem]",
        '# language = "auto"   # or en, zh-TW, zh-CN, ja, ko (auto: as you write, else the system)',
    ]
    return "\n".join(lines) + "\n"


def _configured_agent(text: str, path: str) -> str | None:
    import tomllib

    from ..errors import FormatError

    try:
        value = tomllib.loads(text).get("agent_name")
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"invalid settings file: {exc}; nothing was written", path=path) from None
    return value if isinstance(value, str) else None


def settings_step(
    workspace: Workspace, store: Store, agent_name: str | None, dry_run: bool, warnings: list[str]
) -> Step:
    """``workmem.toml``: created when missing; an ``--agent-name`` asked for is written into
    an existing one too (its line replaced, or added on top), never silently left out."""
    path = workspace.config_file
    shown = store.show(path)
    current = store.read_text(path)
    if current is not None:
        configured = _configured_agent(current[0], shown)
        if not agent_name or configured == agent_name:
            return Step("settings", "unchanged", files=[shown])
        text = with_agent_name(current[0], agent_name)
        detail = f"agent_name = {json.dumps(agent_name)}" + (
            f", was {json.dumps(configured)}" if configured else ""
        )
        if dry_run:
            diff = {shown: (current[0], text)}
            return Step("settings", "would-update", files=[shown], detail=detail, changes=diff)
    else:
        text = settings_text(agent_name)
        detail = ""
        if dry_run:
            return Step("settings", "would-create", files=[shown], changes={shown: ("", text)})

    def check(written: str) -> None:
        if _configured_agent(written, shown) != agent_name:
            raise WriteError(f"{shown}: agent_name did not read back as {agent_name!r}")

    def change(old: str | None) -> str:
        if old is None:
            return settings_text(agent_name)
        return with_agent_name(old, agent_name) if agent_name else old

    result = store.update(path, change, verify=check)
    if not result.changed:
        return Step("settings", "unchanged", files=[shown])
    return Step(
        "settings", "created" if result.created else "updated", files=[shown], detail=detail
    )


def with_agent_name(text: str, agent_name: str) -> str:
    """``text`` (a workmem.toml) with its top-level ``agent_name`` set to ``agent_name``."""
    import re

    line = f"agent_name = {json.dumps(agent_name)}"
    table = re.search(r"(?m)^\s*\[", text)
    head, tail = (text[: table.start()], text[table.start() :]) if table else (text, "")
    pattern = re.compile(r"(?m)^[ \t]*agent_name[ \t]*=.*$")
    if pattern.search(head):
        return pattern.sub(lambda _m: line, head, count=1) + tail
    return line + "\n" + text


def hooks_step(
    store: Store,
    row: PlatformRow,
    project: Path,
    home: Path,
    scope: str,
    report: SetupReport,
) -> Step:
    remove = report.uninstall
    if row.key not in HOOK_PLATFORMS:
        why = f"{row.name} has no hooks workmem can use; the boot directive brings memory in"
        return Step("hooks", "skipped", row.key, detail=why)
    from ..hooks.install import config_path, install

    result = install(
        store,
        row.key,
        scope=scope,
        project=project,
        home=home,
        remove=remove,
        dry_run=report.dry_run,
        command=None if remove or report.command is None else report.command.for_install,
    )
    if not remove:
        report.user_steps.extend(
            f"{row.name}: {s}" for s in getattr(result, "user_steps", None) or []
        )
        report.warnings.extend(f"{row.name}: {w}" for w in result.warnings)
        from .steps import plugin_installed

        plugin = plugin_installed(row.key, home)
        if plugin is not None:
            report.warnings.append(
                f"{plugin}: its hooks run as well as these. Keep one of the two: uninstall "
                "the plugin, or take setup's hooks out again (workmem setup --uninstall "
                f"--platform {row.key})"
            )
        if result.personal and scope == "project" and row.key != "claude-code":
            where = store.show(config_path(row.key, scope, project, home))
            report.warnings.append(
                f"{where} names a path on your machine ({result_program(report)}): keep it "
                "out of git, or install workmem as a tool so the hooks call `workmem` from PATH"
            )
    if result.unchanged:
        return Step("hooks", "unchanged", row.key)
    changes = {}
    if report.dry_run:
        for name, text in result.preview.items():
            old = store.read_text(Path(name))
            changes[_shown(store, name)] = (old[0] if old else "", text)
    verb = "removed" if remove else "added"
    return Step(
        "hooks",
        {"added": "would-add", "removed": "would-remove"}[verb] if report.dry_run else verb,
        row.key,
        files=[_shown(store, f) for f in result.files],
        detail=", ".join(result.removed if remove else result.added),
        changes=changes,
    )


def result_program(report: SetupReport) -> str:
    return report.command.program if report.command else "workmem"


def _shown(store: Store, name: str) -> str:
    return store.show(Path(name))


def directive_step(
    workspace: Workspace, store: Store, row: PlatformRow, report: SetupReport
) -> Step:
    act = remove_directive if report.uninstall else bootstrap
    result: BootstrapResult = act(workspace, row.key, store=store, dry_run=report.dry_run)
    files = [result.file] if result.file else []
    if result.status == "manual":
        text = "\n".join(f"      {line}" for line in result.directive.rstrip().splitlines())
        report.user_steps.append(f"{row.name}: {result.reason}:\n{text}")
        return Step("boot directive", "manual", row.key, files, result.reason)
    if result.status == "skipped":
        return Step("boot directive", "skipped", row.key, detail=f"not needed: {result.reason}")
    action = {"present": "unchanged", "absent": "unchanged", "would-add": "would-add"}.get(
        result.status, result.status
    )
    changes = {}
    if result.status in ("would-add", "would-remove") and result.file:
        old = store.read_text(workspace.root / result.file)
        before = old[0] if old else None
        if report.uninstall:
            after = without_directive(before or "", row.key) or ""
        else:
            after = with_directive(before, row.key)
        changes[result.file] = (before or "", after)
    return Step("boot directive", action, row.key, files, result.reason, changes)


def _ignores_everything(text: str | None) -> bool:
    return text is not None and any(line.strip() == "*" for line in text.splitlines())


def git_ignore_step(workspace: Workspace, store: Store, dry_run: bool, warnings: list[str]) -> Step:
    path = workspace.state_dir / ".gitignore"
    shown = store.show(path)
    current = store.read_text(path) if path.is_file() else None
    if _ignores_everything(current[0] if current else None):
        action = "unchanged"
    elif dry_run:
        change = {shown: (current[0] if current else "", IGNORE_TEXT)}
        return Step("git-ignore", "would-create", files=[shown], changes=change)
    else:

        def add_rule(old: str | None) -> str:
            if _ignores_everything(old):
                return old or ""
            return (old.rstrip("\n") + "\n*\n") if old else IGNORE_TEXT

        def check(text: str) -> None:
            if not _ignores_everything(text):
                raise WriteError(f"{shown}: the ignore rule did not read back")

        store.update(path, add_rule, verify=check)
        action = "created"
    problem = _git_disagrees(workspace)
    if problem:
        warnings.append(problem)
    return Step("git-ignore", action, files=[shown])


def _git_disagrees(workspace: Workspace) -> str | None:
    """Ask git itself, where there is a repository and a git, whether the folder is ignored."""
    import shutil

    git = shutil.which("git")
    if git is None or not (workspace.root / ".git").exists():
        return None
    probe = (workspace.state_dir / "search.sqlite").relative_to(workspace.root).as_posix()
    try:
        done = subprocess.run(
            [git, "-C", str(workspace.root), "check-ignore", "-q", probe],
            capture_output=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode == 1:
        return f"git does not ignore {probe}: check your .gitignore for a rule that un-ignores it"
    return None


def commit_line(workspace: Workspace, report: SetupReport) -> str:
    """One line on what belongs in git: the agents' shared settings setup wrote, and the
    memory files, which ``workmem sync`` moves to a branch of their own."""
    from ..config import load_settings

    shared = sorted(
        {
            name
            for step in report.steps
            if step.part == "hooks" and step.action in ("added", "unchanged", "would-add")
            for name in step.files
            if not name.startswith("/") and not name.endswith("settings.local.json")
        }
    )
    personal = report.command is not None and report.command.personal
    hooks = ""
    if shared and not personal:
        hooks = f"commit {', '.join(shared)} (the hooks call `workmem` from PATH); "
    try:
        synced = bool(load_settings(workspace).section("sync"))
    except WorkmemError:
        synced = False
    if synced:
        memory = (
            "memory is shared by `workmem sync` on its own branch, so commit workmem.toml "
            "with your code and let `workmem sync` commit the memory"
        )
    else:
        memory = (
            "commit workmem.toml, MEMORY.md and memory/ to share the memory with your team "
            "(memory/.workmem/ stays ignored), or leave them out; `workmem sync init` keeps "
            "memory on a branch of its own instead"
        )
    return "What to commit: " + hooks + memory + "."

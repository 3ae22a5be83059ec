"""A sandbox where a recorded session is replayed through workmem's hooks.

A fresh HOME (where the transcripts sit in each platform's layout, ``layouts``) and a fresh
project with its memory root. The hooks run as the platform starts them, with the
platform's own event names and JSON (``hook_shapes``): each as its own process
(``run_hook``), or inside this process (``call_here``), which gives the same answers
without starting Python again for each hook. The clocks agree: every hook runs with
``WORKMEM_NOW`` at the time the recording gives for that moment, and the files it writes,
like the transcripts, carry that time as their mtime. Work a hook leaves running in the
background (a detached extraction, an index refresh) is waited for before the next step,
as the minutes between real turns would.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from . import hook_shapes as shapes

HOOK_TIMEOUT = 60.0
QUIET_TIMEOUT = 60.0
#: the long-term memories every replay starts with (their content must reach a start)
SEED_ACTIVE = "Deploys go through the staging cluster first, never straight to production."
SEED_FEEDBACK = "Always run the linter before proposing a commit."
_FOREIGN_ENV = ("WORKMEM_", "CLAUDE_", "CODEX_", "GEMINI_", "CURSOR_", "OPENCLAW_")


def workmem_now(moment: float) -> str:
    """``WORKMEM_NOW`` for an epoch time: the local wall time, as the memory writes it."""
    return datetime.fromtimestamp(moment).strftime("%Y-%m-%dT%H:%M:%S")


def run_hook(
    event: str, platform: str, payload: dict[str, object], root: Path, env: dict[str, str]
) -> tuple[str, float, str | None]:
    """Run ``workmem hook EVENT`` as the agent starts it: (stdout, wall seconds, problem)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "workmem", "hook", event, "--platform", platform],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=root,
            env=env,
            timeout=HOOK_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "", time.perf_counter() - started, f"{event} timed out"
    elapsed = time.perf_counter() - started
    problem = None
    if done.returncode != 0:
        problem = f"{event} exited {done.returncode}: {done.stderr.strip()[-300:]}"
    return done.stdout, elapsed, problem


def call_here(argv: list[str], stdin: str, cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """Run ``workmem ARGV`` inside this process, as its own process would run it: the
    environment, folder, stdin and stdout are this call's and are given back after.
    Only from a process's main thread (a hook's deadline is a signal), one call at a time."""
    import contextlib
    import io

    from ..cli import main
    from ..retrieval.tokens import set_mode

    saved_env, saved_cwd = dict(os.environ), Path.cwd()
    out, err = io.StringIO(), io.StringIO()
    saved_in = sys.stdin
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = saved_in
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        set_mode(None)  # a hook sets the quick token estimate for its process
    return code, out.getvalue(), err.getvalue()


def run_hook_here(
    event: str, platform: str, payload: dict[str, object], root: Path, env: dict[str, str]
) -> tuple[str, float, str | None]:
    """``run_hook`` without a new process (``call_here``)."""
    started = time.perf_counter()
    code, out, err = call_here(
        ["hook", event, "--platform", platform], json.dumps(payload), root, env
    )
    problem = f"{event} exited {code}: {err.strip()[-300:]}" if code != 0 else None
    return out, time.perf_counter() - started, problem


def scratch() -> str | None:
    """Where sandboxes go: a memory-backed folder when the system has one (``/dev/shm``),
    so the thousands of small synced writes and copies of a run cost little; else the
    system's temporary folder. Hook times measured there are not what a disk costs."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK) else None


def _descendants(pid: int) -> list[int] | None:
    """The processes started under ``pid`` (children, theirs, …), from the kernel's own
    lists; None where the kernel keeps none."""
    found: list[int] = []
    todo = [pid]
    while todo:
        tasks = Path(f"/proc/{todo.pop()}/task")
        try:
            lists = [task / "children" for task in tasks.iterdir()]
        except OSError:
            continue
        for listing in lists:
            try:
                children = [int(c) for c in listing.read_text().split()]
            except FileNotFoundError:
                return None  # no children lists in this kernel
            except (OSError, ValueError):
                continue
            found += children
            todo += children
    return found


def busy(base: Path, *, own_only: bool = False) -> bool:
    """Is any process still working inside ``base`` (named in its command line, or its
    folder)? ``own_only``: only this process's descendants can be (hooks run here, so
    what they start in the background is ours). Linux only (``/proc``); elsewhere
    nothing is waited for."""
    proc = Path("/proc")
    if not proc.is_dir():
        return False
    mark, me = str(base).encode(), os.getpid()
    pids = _descendants(me) if own_only else None
    entries = (
        [proc / str(pid) for pid in pids]
        if pids is not None
        else [e for e in proc.iterdir() if e.name.isdigit() and int(e.name) != me]
    )
    for entry in entries:
        try:
            if mark in (entry / "cmdline").read_bytes():
                return True
            if str((entry / "cwd").readlink()).startswith(str(base)):
                return True
        except OSError:
            continue
    return False


@dataclass
class Sandbox:
    """A fresh HOME and project under ``base``; its memory root is ``project/memory``."""

    base: Path
    #: run the hooks inside this process (``call_here``) instead of one process each
    inprocess: bool = False
    times: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    waited: float = 0.0

    @property
    def home(self) -> Path:
        return self.base / "home"

    @property
    def root(self) -> Path:
        return self.base / "project"

    @classmethod
    def create(cls, base: Path, budget: int | None = None, *, inprocess: bool = False) -> Sandbox:
        box = cls(base, inprocess)
        box.home.mkdir(parents=True, exist_ok=True)
        box.root.mkdir(parents=True, exist_ok=True)
        settings = f"[hooks]\nresume_tokens = {budget}\n" if budget else ""
        (box.root / "workmem.toml").write_text(settings)
        return box

    def env(self, moment: float | None, *, foreground: bool = False) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(_FOREIGN_ENV)}
        env.update(HOME=str(self.home), PYTHONDONTWRITEBYTECODE="1")
        if moment is not None:
            env["WORKMEM_NOW"] = workmem_now(moment)
        if foreground:
            env["WORKMEM_HOOK_FOREGROUND"] = "1"
        return env

    def hook(
        self,
        platform: str,
        step: str,
        data: dict[str, object],
        moment: float | None,
        *,
        label: str | None = None,
        foreground: bool = False,
    ) -> str | None:
        """Run the platform's hook for ``step``; its stdout, or None when workmem does not
        hook that step on this platform. Background work it started is waited for."""
        event = shapes.event_name(platform, step)
        if event is None:
            return None
        env = self.env(moment, foreground=foreground)
        runner = run_hook_here if self.inprocess else run_hook
        wall = time.time()
        out, seconds, problem = runner(event, platform, data, self.root, env)
        key = label or step
        self.times[key] = self.times.get(key, 0.0) + seconds
        if problem:
            self.failures.append(problem)
        self.wait_quiet()
        if moment is not None:
            self.settle(wall, moment)
        return out

    def settle(self, since: float, moment: float) -> None:
        """Files written since ``since`` (wall clock) were written at ``moment`` of the
        recording: their mtimes say so, like the times inside them (``WORKMEM_NOW``)."""
        for folder, _dirs, names in os.walk(self.base):
            for name in names:
                path = Path(folder) / name
                try:
                    if not path.is_symlink() and path.stat().st_mtime >= since - 1:
                        os.utime(path, (moment, moment))
                except OSError:
                    continue

    def wait_quiet(self) -> None:
        started = time.perf_counter()
        while (
            busy(self.base, own_only=self.inprocess)
            and time.perf_counter() - started < QUIET_TIMEOUT
        ):
            time.sleep(0.01)
        self.waited += time.perf_counter() - started

    def seed_memory(self, moment: float | None, cache: Path | None = None) -> None:
        """A MEMORY.md ``## Active`` entry and a short feedback memory, written as a person
        would (``workmem init`` and ``workmem memory add``). With a ``cache`` folder, a seed
        made at the same time before is copied instead (the files name no path)."""
        kept = (
            cache / (workmem_now(moment).replace(":", "-") if moment else "now") if cache else None
        )
        if kept is not None and kept.is_dir():
            shutil.copytree(kept, self.root, dirs_exist_ok=True)
            return
        wall = time.time()
        self._seed(moment)
        if moment is not None:
            self.settle(wall, moment)
        if kept is not None and not self.failures:
            # made aside, then renamed: two replays seeding at once both end up with one
            aside = kept.parent / f".{kept.name}-{os.getpid()}-{id(self)}"
            aside.mkdir(parents=True)
            shutil.copy2(self.root / "MEMORY.md", aside / "MEMORY.md")
            shutil.copytree(self.root / "memory", aside / "memory")
            try:
                aside.rename(kept)
            except OSError:
                shutil.rmtree(aside, ignore_errors=True)

    def _seed(self, moment: float | None) -> None:
        env = self.env(moment)
        commands = [
            ["init"],
            [
                "memory",
                "add",
                "--type",
                "feedback",
                "--topic",
                "linter",
                "--description",
                "lint before commits",
                "--content",
                SEED_FEEDBACK,
            ],
        ]
        for argv in commands:
            argv = [*argv, "--root", str(self.root)]
            if self.inprocess:
                code, _out, err = call_here(argv, "", self.root, env)
            else:
                done = subprocess.run(
                    [sys.executable, "-m", "workmem", *argv],
                    capture_output=True,
                    text=True,
                    env=env,
                    timeout=HOOK_TIMEOUT,
                    check=False,
                )
                code, err = done.returncode, done.stderr
            if code != 0:
                self.failures.append(f"seed {argv[0]}: {err.strip()[-200:]}")
        index = self.root / "MEMORY.md"
        text = index.read_text(encoding="utf-8") if index.is_file() else "# Long-term memory\n"
        if "## Active" in text:
            text = text.replace("## Active\n", f"## Active\n\n- {SEED_ACTIVE}\n", 1)
        else:
            text += f"\n## Active\n\n- {SEED_ACTIVE}\n"
        index.write_text(text, encoding="utf-8")

    def hook_log(self) -> list[str]:
        log = self.root / "memory" / ".workmem" / "hook.log"
        if not log.is_file():
            return []
        return [line for line in log.read_text(errors="replace").splitlines() if line.strip()]

    def keep(self, dest: Path) -> None:
        """A copy of the whole sandbox, to come back to (``restore``)."""
        shutil.copytree(self.base, dest, symlinks=True)

    def restore(self, kept: Path) -> None:
        """The sandbox as it was when ``kept`` was made, at the same paths (the memory names
        its transcripts by absolute path)."""
        shutil.rmtree(self.base)
        shutil.copytree(kept, self.base, symlinks=True)

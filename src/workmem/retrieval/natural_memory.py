"""A few days of project memory written the way workmem is used: hooks and the CLI.

The natural-question benchmark (``bench_questions``) asks its questions of a memory that
was not written for it. Recorded agent sessions (Claude Code, Codex) are replayed through
workmem's hooks as separate processes, as the agents start them (session start, the
user's prompts, a pre-compaction save, session end), each at its own time of day; between
them, the memory commands a person or an agent types (``workmem note``, ``event add``,
``memory add``, ``end``) run through the CLI. Nothing is written to the files directly,
so the index sees what a real project's index sees, template prompts and all.

The script of CLI writes and the day each recorded session falls on come from the
question file; the recordings are read from the shared data folder (see
``continuity.truth``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError

#: Recorded sessions replayed through the hooks; other platforms' payloads differ.
PLATFORMS = ("claude-code", "codex")
#: User prompts of one recording sent through the prompt hook (the rest only in the file).
PROMPTS_PER_SESSION = 6
HOOK_TIMEOUT = 120.0


@dataclass(frozen=True)
class Replayed:
    """One recording, where it was put in time."""

    name: str
    start: str  # "YYYY-MM-DD HH:MM"


@dataclass(frozen=True)
class Write:
    """One CLI command of the script: its time and its arguments after ``workmem``."""

    at: str
    args: tuple[str, ...]


def recordings(data: Path) -> list[Path]:
    """The recorded sessions the benchmark replays, in a stable order."""
    found: list[Path] = []
    for platform in PLATFORMS:
        found.extend(sorted((data / platform).glob("*.jsonl")))
    return found


def _env(home: Path, now: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("WORKMEM_", "CLAUDE_", "CODEX_"))
    }
    # The session-end save runs in the foreground so the next step sees what it wrote;
    # the background warmer is left out so that building costs no embedding.
    env.update(HOME=str(home), WORKMEM_NOW=now, WORKMEM_HOOK_FOREGROUND="1", WORKMEM_WARM="0")
    return env


def _minutes(stamp: str, minutes: int) -> tuple[str, float]:
    """``stamp`` plus ``minutes``: as ``WORKMEM_NOW`` reads it, and as a file's mtime."""
    from datetime import datetime, timedelta

    moment = datetime.strptime(stamp, "%Y-%m-%d %H:%M") + timedelta(minutes=minutes)
    return moment.strftime("%Y-%m-%d %H:%M"), moment.timestamp()


def replay_session(path: Path, start: str, root: Path, home: Path) -> list[str]:
    """Run one recording through the hooks into ``root``; returns the problems seen.

    The transcript sits where its platform keeps it (``continuity.layouts``) and each hook
    gets the payload its platform sends (``continuity.hook_shapes``), so the hooks find
    and read it as they would in a real session.
    """
    from ..continuity import hook_shapes as shapes
    from ..continuity.layouts import Placed
    from ..continuity.sandbox import run_hook
    from ..continuity.truth import read_recording

    rec = read_recording(path)
    if rec.platform not in PLATFORMS:
        return [f"{path.name}: no hook replay for {rec.platform}"]
    placed = Placed(rec, home, root)
    steps: list[tuple[str, str | None, int, int]] = [(shapes.START, None, 0, 0)]
    for number, said in enumerate(rec.requests[:PROMPTS_PER_SESSION]):
        steps.append((shapes.PROMPT, said.text, said.line, 5 + 5 * number))
    steps.append((shapes.COMPACT, None, len(rec.lines) * 2 // 3, 45))
    steps.append((shapes.END, None, len(rec.lines) - 1, 59))
    problems: list[str] = []
    for step, text, line, minute in steps:
        event = shapes.event_name(rec.platform, step)
        if event is None:
            continue
        now, moment = _minutes(start, minute)
        transcript = placed.write(line, moment)
        payload = shapes.payload(
            rec.platform,
            step,
            session_id=rec.session_id,
            transcript=transcript,
            root=root,
            text=text,
        )
        _, _, problem = run_hook(event, rec.platform, payload, root, _env(home, now))
        if problem:
            problems.append(f"{path.name}: {problem}")
    return problems


def run_write(write: Write, root: Path, home: Path) -> str | None:
    """One ``workmem …`` command of the script; the problem, or None."""
    done = subprocess.run(
        [sys.executable, "-m", "workmem", *write.args],
        capture_output=True,
        text=True,
        cwd=root,
        env=_env(home, write.at),
        timeout=HOOK_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        return f"workmem {' '.join(write.args[:2])} at {write.at}: {done.stderr.strip()[-300:]}"
    return None


def build(
    root: Path,
    data: Path,
    sessions: Sequence[Replayed],
    writes: Sequence[Write],
    *,
    progress: Callable[[str], None] | None = None,
) -> list[str]:
    """Write the memory into the empty folder ``root``: sessions and writes in time order.

    Returns the problems met (a hook or a command that failed); the caller decides whether
    a memory with problems is still worth asking questions of.
    """
    if root.exists() and any(root.iterdir()):
        raise UsageError(f"{root} is not empty; the benchmark builds its memory in a new folder")
    root.mkdir(parents=True, exist_ok=True)
    home = root.parent / f"{root.name}-home"
    home.mkdir(exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=False, capture_output=True)
    (root / "workmem.toml").write_text("", encoding="utf-8")
    available = {path.name: path for path in recordings(data)}
    events: list[tuple[str, int, Replayed | Write]] = []
    for order, session in enumerate(sessions):
        if session.name not in available:
            raise UsageError(f"no recorded session {session.name} under {data}")
        events.append((session.start, order, session))
    events.extend((write.at, len(sessions) + n, write) for n, write in enumerate(writes))
    problems: list[str] = []
    for _, _, step in sorted(events, key=lambda e: (e[0], e[1])):
        if isinstance(step, Replayed):
            if progress:
                progress(f"replaying {step.name} at {step.start}")
            problems += replay_session(available[step.name], step.start, root, home)
        else:
            problem = run_write(step, root, home)
            if problem:
                problems.append(problem)
    return problems

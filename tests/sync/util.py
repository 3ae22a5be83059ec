"""A bare repository, clones of it as separate machines, and real workmem operations on them."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from workmem.errors import WorkmemError
from workmem.root import Workspace


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    """Set environment variables for one step and put the old ones back (works across
    hypothesis examples, where pytest's monkeypatch would not be reset)."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


@dataclass
class Machine:
    """One clone of the project, standing for one machine (its own tag and clock use)."""

    name: str
    root: Path

    @property
    def workspace(self) -> Workspace:
        return Workspace(self.root)

    def env(self, now: datetime) -> contextlib.AbstractContextManager[None]:
        return environment(
            WORKMEM_ROOT=str(self.root),
            WORKMEM_NOW=now.strftime("%Y-%m-%d %H:%M"),
            WORKMEM_MACHINE=self.name,
            WORKMEM_PLATFORM="cursor",
        )


def make_machines(base: Path, count: int = 3) -> list[Machine]:
    """A bare remote and ``count`` clones, each set up with ``workmem sync init``."""
    from workmem.sync.setup import init_sync

    remote = base / "remote.git"
    git(base, "init", "--quiet", "--bare", str(remote))
    machines = []
    for number in range(count):
        root = base / f"clone{number}"
        git(base, "clone", "--quiet", str(remote), str(root))
        git(root, "config", "user.email", f"m{number}@example.invalid")
        git(root, "config", "user.name", f"machine {number}")
        machine = Machine(f"m{number}", root)
        with machine.env(datetime(2026, 5, 25, 9, 0)):
            init_sync(machine.workspace)
        machines.append(machine)
    return machines


def memory_snapshot(root: Path) -> dict[str, bytes]:
    from workmem.sync.tree import memory_files

    return {rel: path.read_bytes() for rel, path in memory_files(root).items()}


def all_text(root: Path) -> str:
    return "\n".join(data.decode("utf-8") for data in memory_snapshot(root).values())


@dataclass
class Clock:
    """One clock for all machines, moving forward with every operation."""

    now: datetime = datetime(2026, 5, 25, 9, 0)

    def tick(self, minutes: int) -> datetime:
        self.now += timedelta(minutes=minutes)
        return self.now


@dataclass
class Ledger:
    """What was written where, to check that it all survived."""

    tokens: list[str] = field(default_factory=list)
    counter: int = 0

    def token(self) -> str:
        self.counter += 1
        text = f"tok{self.counter:04d}z"
        self.tokens.append(text)
        return text


def board_ids(machine: Machine) -> list[str]:
    from workmem.board import Board

    return [row.session_id for row in Board(machine.root).list()]


def run_operation(machine: Machine, op: str, pick: int, ledger: Ledger) -> None:
    """One real workmem operation on ``machine``; refusals (a referenced session, …) are
    part of the game and are not errors of the test."""
    from workmem.board import Board
    from workmem.facts.write import MemoryInput
    from workmem.journal.writer import MemoryWriter
    from workmem.wrap.run import wrap

    board = Board(machine.root)
    ids = board_ids(machine)

    def chosen(offset: int = 0) -> str | None:
        return ids[(pick + offset) % len(ids)] if ids else None

    with contextlib.suppress(WorkmemError):
        if op == "start":
            board.start()
        elif op == "register":
            board.register(
                topic=f"topic {ledger.token()}",
                context=f"context {ledger.token()}",
                sections={"Decisions": f"decision {ledger.token()}"},
            )
        elif op == "update" and chosen():
            board.update(
                str(chosen()),
                sections={"Next Actions": f"next {ledger.token()}"},
                summary=None,
            )
        elif op == "continue" and len(ids) > 1:
            board.continue_from(str(chosen()), as_id=str(chosen(1)))
        elif op == "release" and len(ids) > 1:
            board.release(str(chosen()), as_id=str(chosen(1)))
        elif op == "end":
            MemoryWriter(machine.root).end_session(
                session_summary=f"summary {ledger.token()}",
                resumption_note=f"resume {ledger.token()}",
            )
        elif op == "event":
            MemoryWriter(machine.root).note_event(
                event_type="purchase", text=f"I bought {ledger.token()} on 3/15."
            )
        elif op == "note":
            MemoryWriter(machine.root).note_decision(f"choice {ledger.token()}", "because")
        elif op == "wrap":
            item = MemoryInput(
                type="project",
                topic=f"area{pick % 3}",
                description="what we know about this area",  # replaced by updates
                content=f"The fact is {ledger.token()}.",
            )
            wrap(machine.workspace, [item], run_bootstrap=False, gather=False)
        elif op == "organize":
            board.organize()
        elif op == "archive" and chosen():
            board.archive(str(chosen()))

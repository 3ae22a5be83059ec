"""Two writers that issue the same IDs on purpose: nothing is lost, by git or by a cloud folder.

Each example runs real operations on two memories in the same few minutes, so session IDs
(``…-HHMM-agent``) and event numbers (``evt-00001``) collide:

- through ``workmem sync``: two clones on **one machine** (one user configuration, tags on:
  the per-root tag keeps them apart; tags off: they collide) and on **two machines** that
  carry the same machine name (their tags collide too);
- through a **cloud folder**: two copies of one folder, every file that differs left as the
  service's conflict copy beside the other's, then ``--merge-copies``.

Afterwards every word any operation wrote is in the memory, every session either side
registered has its row, no ID is on the board twice, and ``doctor`` finds nothing.
``WORKMEM_SYNC_EXAMPLES`` raises the number of runs (``make sync-soak``).
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, Phase, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.sync.util import (  # noqa: E402
    Ledger,
    Machine,
    environment,
    make_machines,
    memory_snapshot,
    run_operation,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
EXAMPLES = int(os.environ.get("WORKMEM_SYNC_EXAMPLES", "3"))
T0 = datetime(2026, 5, 25, 9, 0)
OPERATIONS = ("start", "register", "register", "update", "continue", "end", "event", "note")
steps = st.lists(
    st.tuples(
        st.integers(0, 1), st.sampled_from(OPERATIONS), st.integers(0, 50), st.integers(0, 1)
    ),
    min_size=3,
    max_size=9,
)
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Writer:
    """One memory and who writes it: a machine name and a user configuration folder."""

    def __init__(self, root: Path, machine: str, config: Path) -> None:
        self.root = root
        self.machine = Machine(machine, root)
        self.config = config

    def env(self, when: datetime) -> object:
        return environment(
            WORKMEM_ROOT=str(self.root),
            WORKMEM_NOW=when.strftime("%Y-%m-%d %H:%M"),
            WORKMEM_MACHINE=self.machine.name,
            WORKMEM_PLATFORM="cursor",
            XDG_CONFIG_HOME=str(self.config),
        )


def run_steps(writers: list[Writer], plan: list[tuple[int, str, int, int]], ledger: Ledger) -> None:
    for who, op, pick, minute in plan:
        writer = writers[who]
        with writer.env(T0 + timedelta(minutes=minute)):  # type: ignore[attr-defined]
            run_operation(writer.machine, op, pick, ledger)


def check_nothing_lost(root: Path, ledger: Ledger, registered: set[str]) -> None:
    from workmem.board import Board
    from workmem.doctor import run
    from workmem.root import Workspace

    text = "\n".join(data.decode("utf-8") for data in memory_snapshot(root).values())
    lost = [token for token in ledger.tokens if token not in text]
    assert not lost, f"lost {lost}"
    rows = Board(root).list()
    ids = [row.session_id for row in rows]
    assert len(ids) == len(set(ids)), "an ID is on the board twice"
    topics = " ".join(row.topic for row in rows)
    missing = [token for token in registered if token not in topics]
    assert not missing, f"sessions without a row: {missing}"
    report = run(Workspace(root))
    assert report.healthy, [f.to_dict() for f in report.findings]


def registered_topics(ledger: Ledger, root: Path) -> set[str]:
    """The tokens of the topics the register operations wrote (``topic tokNNNNz``)."""
    import re

    text = "\n".join(data.decode("utf-8") for data in memory_snapshot(root).values())
    return {t for t in ledger.tokens if re.search(rf"\| topic {t} \|", text)}


@SETTINGS
@given(
    where=st.sampled_from(["one machine, tags on", "one machine, tags off", "two machines"]),
    first=steps,
    second=steps,
)
def test_git_clones_that_collide_on_ids_lose_nothing(
    tmp_path_factory: pytest.TempPathFactory,
    where: str,
    first: list[tuple[int, str, int, int]],
    second: list[tuple[int, str, int, int]],
) -> None:
    from workmem.sync.git_sync import sync

    base = tmp_path_factory.mktemp("collide")
    clones = make_machines(base, 2)
    one_config = base / "config"
    writers = [
        Writer(
            clone.root,
            "desk",  # the same machine name: one machine, or two machines named alike
            one_config if where.startswith("one") else base / f"config{n}",
        )
        for n, clone in enumerate(clones)
    ]
    if where.endswith("tags off"):
        for clone in clones:
            settings_file = clone.root / "workmem.toml"
            settings_file.write_text(
                settings_file.read_text().replace("machine_ids = true", "machine_ids = false")
            )
    ledger = Ledger()
    seen: set[str] = set()
    for number, plan in enumerate((first, second)):
        run_steps(writers, plan, ledger)
        for writer in writers:
            seen |= registered_topics(ledger, writer.root)
        for writer in (writers[0], writers[1], writers[0]):
            with writer.env(T0 + timedelta(hours=1 + number)):  # type: ignore[attr-defined]
                report = sync(writer.machine.workspace)
            assert report.pushed, report
    reference = memory_snapshot(writers[0].root)
    assert reference == memory_snapshot(writers[1].root)
    for writer in writers:
        with writer.env(T0 + timedelta(hours=4)):  # type: ignore[attr-defined]
            check_nothing_lost(writer.root, ledger, seen)


def _leave_copies(here: Path, there: Path) -> None:
    """What a cloud service leaves: ``there``'s differing files as copies beside ``here``'s
    (Google Drive's `` (1)`` form), and files only ``there`` has as they are."""
    from workmem.sync.tree import memory_files

    mine = memory_files(here)
    for rel, path in memory_files(there).items():
        data = path.read_bytes()
        target = here / rel
        if rel not in mine:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        elif target.read_bytes() != data:
            stem, dot, ext = target.name.rpartition(".")
            target.with_name(f"{stem} (1){dot}{ext}").write_bytes(data)


@SETTINGS
@given(first=steps, second=steps)
@example(  # found by the soak: the copy's own snapshot, synced without a conflict, follows
    first=[
        (1, "note", 35, 0),
        (0, "start", 16, 1),
        (0, "event", 3, 1),
        (0, "register", 45, 1),
        (0, "start", 6, 1),
        (1, "update", 2, 0),
    ],
    second=[
        (1, "event", 45, 1),
        (0, "end", 12, 0),
        (0, "register", 50, 0),
        (1, "register", 40, 0),
        (0, "event", 6, 1),
        (0, "end", 38, 1),
        (1, "start", 31, 0),
        (1, "note", 13, 1),
        (1, "continue", 50, 1),
    ],
)
def test_a_cloud_folder_whose_machines_collide_on_ids_loses_nothing(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[tuple[int, str, int, int]],
    second: list[tuple[int, str, int, int]],
) -> None:
    from workmem.sync.copies import find_copies, merge_copies

    base = tmp_path_factory.mktemp("cloud")
    here_root = base / "here"
    here_root.mkdir()
    (here_root / "workmem.toml").write_text("[sync]\nmachine_ids = false\n")  # not recognised
    writers = [Writer(here_root, "alpha", base / "c1"), Writer(base / "there", "beta", base / "c2")]
    ledger = Ledger()
    with writers[0].env(T0):  # type: ignore[attr-defined]
        run_operation(writers[0].machine, "register", 0, ledger)
    shutil.copytree(here_root, writers[1].root)
    seen: set[str] = set()
    for plan in (first, second):
        run_steps(writers, plan, ledger)
        for writer in writers:
            seen |= registered_topics(ledger, writer.root)
        _leave_copies(writers[0].root, writers[1].root)
        with writers[0].env(T0 + timedelta(hours=1)):  # type: ignore[attr-defined]
            report = merge_copies(writers[0].machine.workspace)
        assert not report.problems, report.problems
        assert not find_copies(writers[0].machine.workspace)
        shutil.rmtree(writers[1].root)  # the service brings the merged folder to the other
        shutil.copytree(writers[0].root, writers[1].root)
    with writers[0].env(T0 + timedelta(hours=2)):  # type: ignore[attr-defined]
        check_nothing_lost(writers[0].root, ledger, seen)

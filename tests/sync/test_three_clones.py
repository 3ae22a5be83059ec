"""Three machines, one bare repository: random real operations, syncs in every order.

After the final round every clone holds the same memory files, every token any operation
wrote is in them, every file reads with its own reader, and ``doctor`` finds nothing.
``WORKMEM_SYNC_EXAMPLES`` raises the number of random runs (``make sync-soak``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.sync.util import (  # noqa: E402
    Clock,
    Ledger,
    Machine,
    all_text,
    make_machines,
    memory_snapshot,
    run_operation,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

OPERATIONS = (
    "start",
    "register",
    "update",
    "continue",
    "release",
    "end",
    "event",
    "note",
    "wrap",
    "organize",
    "archive",
)
EXAMPLES = int(os.environ.get("WORKMEM_SYNC_EXAMPLES", "3"))

steps = st.lists(
    st.tuples(
        st.integers(0, 2), st.sampled_from(OPERATIONS), st.integers(0, 50), st.integers(0, 3000)
    ),
    min_size=4,
    max_size=14,
)


def check_all_readable(machine: Machine) -> None:
    """Every memory file through the reader its workflows use."""
    from workmem.board import Board
    from workmem.facts.memory_md import read_tiers
    from workmem.facts.typed import list_memories
    from workmem.files.store import Store
    from workmem.journal.events import parse_ledger
    from workmem.journal.state import parse_state
    from workmem.journal.threads import ThreadsDoc
    from workmem.sync.kinds import kind_of
    from workmem.sync.merge import readable

    files = memory_snapshot(machine.root)
    for rel, data in files.items():
        text = data.decode("utf-8")
        kind = kind_of(rel)
        assert kind is not None, rel
        assert readable(kind, text, rel), rel
        assert "<<<<<<<" not in text and "workmem:kept-version" not in text, rel
        if rel == "memory/events.json":
            parse_ledger(text, rel)
        elif rel == "memory/state.json":
            parse_state(text, rel)
        elif rel == "memory/threads.md":
            ThreadsDoc.parse(text)
        elif rel == "MEMORY.md":
            read_tiers(text)
    Board(machine.root).list()
    assert not list_memories(Store(machine.workspace)).problems


def sync_all(machines: list[Machine], order: list[int], clock: Clock) -> None:
    from workmem.sync.git_sync import sync

    for index in order:
        machine = machines[index]
        with machine.env(clock.tick(1)):
            report = sync(machine.workspace)
        assert report.pushed or report.no_remote, report
        assert not report.offline


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    # Shrinking re-runs whole git histories and takes minutes; a failure prints its example.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    first=steps,
    second=steps,
    orders=st.lists(st.permutations([0, 1, 2]), min_size=2, max_size=2),
)
def test_clones_converge_and_lose_nothing(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[tuple[int, str, int, int]],
    second: list[tuple[int, str, int, int]],
    orders: list[list[int]],
) -> None:
    from workmem.doctor import run

    base = tmp_path_factory.mktemp("three")
    machines = make_machines(base)
    clock = Clock()
    ledger = Ledger()
    for round_steps, order in zip((first, second), orders, strict=True):
        for who, op, pick, minutes in round_steps:
            machine = machines[who]
            with machine.env(clock.tick(minutes)):
                run_operation(machine, op, pick, ledger)
        sync_all(machines, order, clock)
    sync_all(machines, [0, 1, 2], clock)  # the last round brings everyone up to date

    reference = memory_snapshot(machines[0].root)
    for machine in machines[1:]:
        other = memory_snapshot(machine.root)
        assert sorted(other) == sorted(reference)
        different = [rel for rel in reference if reference[rel] != other[rel]]
        assert not different, f"{machine.name} differs in {different}"
    text = all_text(machines[0].root)
    lost = [token for token in ledger.tokens if token not in text]
    assert not lost, f"lost {lost}"
    for machine in machines:
        check_all_readable(machine)
        with machine.env(clock.tick(1)):
            report = run(machine.workspace)
        assert report.healthy, [f.to_dict() for f in report.findings]
    _no_local_state_committed(machines[0].root)


def _no_local_state_committed(root: Path) -> None:
    from tests.sync.util import git

    listing = git(root, "ls-tree", "-r", "--name-only", "origin/workmem")
    assert listing.strip()
    assert ".workmem" not in listing

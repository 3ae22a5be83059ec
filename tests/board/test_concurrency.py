"""Parallel agents on one folder lose nothing (real processes, real locks, one minute)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.snapshot import continues_from
from workmem.files.tables import TableDocument

SRC = Path(__file__).resolve().parents[2] / "src"

REGISTER = """
import json, sys
from workmem.board import Board
worker = int(sys.argv[1])
ids = []
for i in range(25):
    r = Board().register(topic=f"w{worker}-t{i}", summary=f"worker {worker} item {i} | piped")
    ids.append(r.session_id)
print(json.dumps(ids))
"""

UPDATE_AND_CONTINUE = """
import json, sys
from workmem.board import Board
target, sources = sys.argv[1], sys.argv[2:]
for i in range(15):
    Board().update(target, sections={"Decisions": f"decision {i}"}, summary=f"round {i}")
for source in sources:
    Board().continue_from(source, as_id=target)
print(json.dumps({"ok": True}))
"""


def _spawn(code: str, *args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.slow
def test_eight_registrars_and_two_updaters_lose_nothing(root: Path) -> None:
    # Ten processes writing in a tight loop queue for the board lock longer than an agent
    # ever does; this test is about losing nothing, so it allows them a longer wait.
    (root / "workmem.toml").write_text("[board]\nlock_timeout = 120\n")
    board = Board()
    updaters = [board.start(agent_name=f"updater-{n}").session_id for n in range(2)]
    sources = [board.register(topic=f"source {n}").session_id for n in range(3)]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    procs = [_spawn(REGISTER, str(w), env=env) for w in range(8)]
    procs += [_spawn(UPDATE_AND_CONTINUE, u, *sources, env=env) for u in updaters]
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        outputs.append(json.loads(out))

    registered = [sid for ids in outputs[:8] for sid in ids]
    assert len(registered) == 200
    assert len(set(registered)) == 200

    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    rows = {r["Session ID"]: r for r in doc.records()}
    assert len(doc.rows) == 200 + len(updaters) + len(sources)
    for worker, ids in enumerate(outputs[:8]):
        for i, sid in enumerate(ids):
            assert rows[sid]["Topic"] == f"w{worker}-t{i}"
            assert rows[sid]["Summary"] == f"worker {worker} item {i} | piped"
            assert (root / "memory" / "sessions" / f"{sid}.md").is_file()
    for updater in updaters:
        assert rows[updater]["Summary"] == "round 14"
        assert rows[updater]["Status"] == "active"
        snapshot = (root / "memory" / "sessions" / f"{updater}.md").read_text()
        for i in range(15):
            assert f"- decision {i}\n" in snapshot
        assert continues_from(snapshot) == sources
    for source in sources:
        assert sorted(rows[source]["Referenced By"].split(", ")) == sorted(updaters)
    assert Board().doctor().healthy

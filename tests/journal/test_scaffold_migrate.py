"""init never overwrites; migrate upgrades a legacy workspace once, with backups, idempotently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.errors import FormatError, UsageError
from workmem.journal import MemoryLoader, init
from workmem.journal.agent_patch import BEGIN
from workmem.journal.migrate import migrate
from workmem.journal.scaffold import index_kind

AGENT = "# Agent\n\nYou are a careful coding agent.\n"
LEGACY_MEMORY = (
    "# Memory\n\n## About Alice\n- likes green tea\n\n## This project\n- written in Go\n"
)
LEGACY_INDEX = "# Index\n\n| Date | Topics |\n|---|---|\n| 2026-05-20 | parser tables |\n"
LOG_20 = (
    "# 2026-05-20\n\n## Session 09:30\n\nWorked on thread-parser.\n\n"
    "**Summary:** Parser handles tables now.\n"
)
LOG_22 = "# 2026-05-22\r\n\r\nFixed the flaky CI job; next: release notes.\r\n"
MIRROR_18 = "# 2026-05-18\n\nSet up the repository.\n"


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".workmem" not in p.parts
    }


def _legacy(root: Path) -> Path:
    (root / "AGENT.md").write_text(AGENT, "utf-8")
    (root / "MEMORY.md").write_text(LEGACY_MEMORY, "utf-8")
    memory = root / "memory"
    (memory / "daily").mkdir(parents=True)
    (memory / "2026-05-20.md").write_text(LOG_20, "utf-8")
    (memory / "2026-05-22.md").write_bytes(LOG_22.encode("utf-8"))
    (memory / "daily" / "2026-05-18.md").write_text(MIRROR_18, "utf-8")
    (memory / "index.md").write_text(LEGACY_INDEX, "utf-8")
    (memory / "notes.txt").write_text("not a log", "utf-8")
    return root


def test_init_scaffolds_every_file_and_never_overwrites(root: Path) -> None:
    report = init(root, agent_name="MyBot", user_name="Alice")
    assert sorted(report.created) == sorted(
        [
            "MEMORY.md",
            "memory/resumption.md",
            "memory/threads.md",
            "memory/state.json",
            "memory/log-index.md",
            "memory/archive.md",
            "memory/events.json",
        ]
    )
    memory = (root / "MEMORY.md").read_text("utf-8")
    assert "MyBot" in memory and "Alice" in memory
    assert "## Active" in memory and "### Reference" in memory and "## Maintenance Log" in memory
    assert json.loads((root / "memory/state.json").read_text("utf-8"))["session_count"] == 0
    (root / "memory" / "threads.md").write_text("# Threads\n\n## thread-mine\n", "utf-8")
    before = _tree(root)
    again = init(root, agent_name="Other")
    assert again.created == [] and len(again.existing) == 7
    assert _tree(root) == before
    assert not (root / "memory" / "daily").exists()  # the mirror is never made canonical


def test_init_points_a_legacy_workspace_to_migrate(root: Path) -> None:
    _legacy(root)
    before = _tree(root)
    with pytest.raises(UsageError, match="workmem migrate"):
        init(root)
    assert _tree(root) == before
    forced = init(root, force_scaffold=True)
    assert "MEMORY.md" in forced.existing  # still never overwritten
    assert (root / "MEMORY.md").read_text("utf-8") == LEGACY_MEMORY


def test_dry_run_prints_the_plan_and_writes_nothing(root: Path) -> None:
    _legacy(root)
    before = _tree(root)
    report = migrate(root, dry_run=True)
    assert _tree(root) == before
    assert report.detection.legacy
    assert report.detection.mirror_only_logs == ["memory/daily/2026-05-18.md"]
    actions = {step.name: step.action for step in report.steps}
    assert actions["legacy index"] == "would move"
    assert actions["MEMORY.md tiers"] == "would write"
    assert actions["patch AGENT.md"] == "would patch"
    assert actions["create state.json"] == "would create"
    assert not report.changed


def test_migrate_does_every_step_and_the_second_run_changes_nothing(root: Path) -> None:
    _legacy(root)
    report = migrate(root)
    assert report.changed
    # mirror-only log copied to its canonical place, mirror kept
    assert (root / "memory/2026-05-18.md").read_text("utf-8") == MIRROR_18
    assert (root / "memory/daily/2026-05-18.md").exists()
    # state bootstrapped from the three logs
    state = json.loads((root / "memory/state.json").read_text("utf-8"))
    assert state["session_count"] == 3
    assert state["last_session"] == "2026-05-22"
    assert state["flags"]["memory_review_due"] is True
    assert "Fixed the flaky CI job" in state["last_summary"]
    # resumption seeded from the newest log, in the first person
    resumption = (root / "memory/resumption.md").read_text("utf-8")
    assert "I'm picking up from 2026-05-22" in resumption and "flaky CI job" in resumption
    # MEMORY.md wrapped under Active, nothing lost, backup first
    memory = (root / "MEMORY.md").read_text("utf-8")
    assert (root / "MEMORY.md.bak").read_text("utf-8") == LEGACY_MEMORY
    assert memory.index("## Active") < memory.index("likes green tea") < memory.index("## Fading")
    assert "### About Alice" in memory and "- written in Go" in memory
    # AGENT.md patched once, original kept byte for byte
    agent = (root / "AGENT.md").read_text("utf-8")
    assert agent.startswith(AGENT) and agent.count(BEGIN) == 1
    assert (root / "AGENT.md.bak").read_text("utf-8") == AGENT
    # the legacy daily-log index moved out of the board's name
    assert not (root / "memory/index.md").exists()
    assert (root / "memory/index.md.bak").read_text("utf-8") == LEGACY_INDEX
    log_index = (root / "memory/log-index.md").read_text("utf-8")
    assert "| 2026-05-20 | parser tables |" in log_index  # the moved content
    rows = [line for line in log_index.split("\n") if line.startswith("| 2026-05-")]
    assert [r[2:12] for r in rows[:3]] == ["2026-05-22", "2026-05-20", "2026-05-18"]
    assert "Parser handles tables now." in log_index
    # the upgraded workspace loads
    context = MemoryLoader(root).load_session_context("parser")
    assert "I'm picking up from 2026-05-22" in context.text
    # run again: nothing to do, not one byte changes
    before = _tree(root)
    second = migrate(root)
    assert not second.changed
    assert {s.action for s in second.steps} == {"skip"}
    assert _tree(root) == before


def test_skip_agent_patch_leaves_agent_md_alone(root: Path) -> None:
    _legacy(root)
    migrate(root, skip_agent_patch=True)
    assert (root / "AGENT.md").read_text("utf-8") == AGENT
    assert not (root / "AGENT.md.bak").exists()


def test_the_session_board_is_never_moved(root: Path) -> None:
    _legacy(root)
    board = (
        "# Memory Index\n\n| Session ID | Agent Name | Topic | Summary | Keywords | Status "
        "| Referenced By | Started At | Updated At |\n|---|---|---|---|---|---|---|---|---|\n"
    )
    (root / "memory/index.md").write_text(board, "utf-8")
    assert index_kind(board) == "board"
    migrate(root)
    assert (root / "memory/index.md").read_text("utf-8") == board
    assert not (root / "memory/index.md.bak").exists()


def test_an_existing_backup_is_never_overwritten(root: Path) -> None:
    _legacy(root)
    (root / "MEMORY.md.bak").write_text("an older backup\n", "utf-8")
    migrate(root)
    assert (root / "MEMORY.md.bak").read_text("utf-8") == "an older backup\n"
    assert (root / "MEMORY.md.bak.2").read_text("utf-8") == LEGACY_MEMORY


def test_non_utf8_memory_stops_the_migration_before_any_write(root: Path) -> None:
    _legacy(root)
    (root / "MEMORY.md").write_bytes("# Memory\n- caf\xe9\n".encode("latin-1"))
    before = _tree(root)
    with pytest.raises(FormatError, match="UTF-8"):
        migrate(root)
    assert _tree(root) == before


def test_index_kinds() -> None:
    assert index_kind(None) == "absent"
    assert index_kind(LEGACY_INDEX) == "log-index"
    assert index_kind("- [2026-05-20](2026-05-20.md) parser\n") == "log-index"
    assert index_kind("# My notes\n\nnothing dated\n") == "unknown"


def test_the_review_migrate_asks_for_stays_due_until_curation(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.journal import MemoryWriter

    _legacy(root)
    (root / "MEMORY.md").write_text(
        LEGACY_MEMORY + "\n## Maintenance Log\n- 2026-04-02: curated by hand\n", "utf-8"
    )
    migrate(root)
    state = json.loads((root / "memory/state.json").read_text("utf-8"))
    assert state["flags"]["memory_review_due"] is True
    assert state["last_review"] == "2026-04-02"
    MemoryWriter(root).end_session("First session after migrating", "Curate first.")
    state = json.loads((root / "memory/state.json").read_text("utf-8"))
    assert state["flags"]["memory_review_due"] is True  # an old log line is not a review
    MemoryWriter(root).run_curation()
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 15:00")
    MemoryWriter(root).end_session("Second", "All curated.")
    state = json.loads((root / "memory/state.json").read_text("utf-8"))
    assert state["flags"]["memory_review_due"] is False
    assert state["sessions_since_review"] in (0, 1)

"""Curation of MEMORY.md over real files: promote, fade, archive, merge, budget, refusal."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from workmem.errors import ConflictError, FormatError
from workmem.facts import outline as outline_mod
from workmem.facts.curate import CurationSettings, curate
from workmem.facts.memory_md import read_tiers, scaffold_text
from workmem.root import Workspace

NOW = datetime(2026, 5, 25, 13, 18)

MEMORY = """# Long-term memory

## Active

### Project

- API v2 shipped (2026-05-20)
- Old build system notes (2026-02-01)
- Undated fact about the repo
- [pinned] Deploys need the VPN (2025-01-01)

### Feedback

- Integration tests need a real DB (2026-05-01)
- integration tests need a real db

### User

### Reference

## Fading

### Project

- Migration to Postgres planned (2026-05-10)
- Ancient decision from 2025 (2025-09-01)

## Maintenance Log

- 2026-01-01 10:00 scaffolded
"""


def _write(root: Path, text: str, name: str = "MEMORY.md") -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def test_curate_moves_entries_between_tiers(root: Path) -> None:
    _write(root, MEMORY)
    report = curate(Workspace(root), now=NOW)
    assert report.changed
    assert [m.text for m in report.promoted] == ["Migration to Postgres planned (2026-05-10)"]
    assert [m.text for m in report.faded] == ["Old build system notes (2026-02-01)"]
    assert [m.text for m in report.archived] == ["Ancient decision from 2025 (2025-09-01)"]
    assert [m.text for m in report.merged] == ["integration tests need a real db"]
    assert report.undated == 1

    text = (root / "MEMORY.md").read_text()
    tiers = read_tiers(text)
    project = tiers.active["Project"]
    assert "API v2 shipped" in project
    assert "Migration to Postgres planned" in project
    assert "[pinned] Deploys need the VPN" in project  # pinned never fades
    assert "Undated fact about the repo" in project  # undated never moves
    assert "Old build system notes" not in project
    assert "Old build system notes (2026-02-01)" in tiers.fading
    assert "Ancient decision" not in text
    assert tiers.active["Feedback"].count("real DB") == 1
    assert "2026-05-25 13:18 curate: promoted 1, faded 1, archived 1, merged 1" in (
        tiers.maintenance_log
    )
    archive = (root / "memory" / "archive.md").read_text()
    assert archive.startswith("# Archive")
    assert "## Archived 2026-05-25 13:18 (curate)" in archive
    assert "### From Fading > Project\n\n- Ancient decision from 2025 (2025-09-01)" in archive


def test_curate_twice_is_stable(root: Path) -> None:
    _write(root, MEMORY)
    curate(Workspace(root), now=NOW)
    first = (root / "MEMORY.md").read_text()
    archive = (root / "memory" / "archive.md").read_text()
    report = curate(Workspace(root), now=NOW)
    assert not report.changed
    assert (root / "MEMORY.md").read_text() == first
    assert (root / "memory" / "archive.md").read_text() == archive


def test_dry_run_writes_nothing(root: Path) -> None:
    path = _write(root, MEMORY)
    report = curate(Workspace(root), now=NOW, dry_run=True)
    assert report.changed and report.dry_run
    assert path.read_text() == MEMORY
    assert not (root / "memory" / "archive.md").exists()


def test_missing_memory_file_is_a_no_op(root: Path) -> None:
    report = curate(Workspace(root), now=NOW)
    assert not report.changed
    assert "nothing to curate" in report.notes[0]


def test_untiered_memory_is_wrapped_losslessly(root: Path) -> None:
    _write(root, "# Notes\n\n- loose fact (2026-05-01)\n- stale fact (2025-01-01)\n")
    report = curate(Workspace(root), now=NOW)
    text = (root / "MEMORY.md").read_text()
    assert "## Active" in text and "## Fading" in text
    assert "- loose fact (2026-05-01)" in read_tiers(text).active_intro
    assert [m.text for m in report.faded] == ["stale fact (2025-01-01)"]
    assert "stale fact (2025-01-01)" in read_tiers(text).fading


def test_crlf_and_bom_are_kept(root: Path) -> None:
    data = ("\ufeff" + MEMORY).replace("\n", "\r\n").encode("utf-8")
    (root / "MEMORY.md").write_bytes(data)
    curate(Workspace(root), now=NOW)
    written = (root / "MEMORY.md").read_bytes()
    assert written.startswith("\ufeff".encode())
    assert b"\r\n" in written and b"\n" not in written.replace(b"\r\n", b"")


def test_non_utf8_memory_is_refused_untouched(root: Path) -> None:
    data = "## Active\n- caf\xe9\n".encode("latin-1")
    (root / "MEMORY.md").write_bytes(data)
    with pytest.raises(FormatError, match="UTF-8"):
        curate(Workspace(root), now=NOW)
    assert (root / "MEMORY.md").read_bytes() == data


def test_typed_index_lines_take_the_file_date(root: Path) -> None:
    memory = root / "memory"
    memory.mkdir()
    (memory / "project_app.md").write_text(
        "---\nname: App\ntype: project\nupdated: 2025-12-01\nexpires: 2026-01-01\n---\nbody\n"
    )
    text = scaffold_text().replace(
        "### Project\n", "### Project\n\n- [App](memory/project_app.md) — the app\n"
    )
    _write(root, text)
    report = curate(Workspace(root), now=NOW)
    assert [m.text for m in report.faded] == ["[App](memory/project_app.md) — the app"]
    assert "[App](memory/project_app.md)" in read_tiers((root / "MEMORY.md").read_text()).fading


def test_line_budget_archives_oldest_never_newest(root: Path) -> None:
    lines = [f"- fact number {i} (2026-05-{(i % 20) + 1:02d})" for i in range(40)]
    text = scaffold_text().replace("### Project\n", "### Project\n\n" + "\n".join(lines) + "\n")
    _write(root, text)
    cfg = CurationSettings(fade_after_days=365, archive_after_days=730, max_lines=40)
    report = curate(Workspace(root), now=NOW, settings=cfg)
    result = (root / "MEMORY.md").read_text()
    assert len(result.splitlines()) <= 40
    archive = (root / "memory" / "archive.md").read_text()
    # The newest entries (dated 2026-05-20) stay; the oldest went to the archive.
    assert "- fact number 19 (2026-05-20)" in result
    assert "- fact number 39 (2026-05-20)" in result
    assert "- fact number 0 (2026-05-01)" in archive
    # Every entry is somewhere.
    for line in lines:
        assert line in result or line in archive
    assert report.archived and all(
        m.reason == "MEMORY.md over its line budget" for m in report.archived
    )


def test_refuses_rewrite_that_would_lose_an_entry(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(root, MEMORY)

    def losing_remove(self: outline_mod.Outline, entry: object) -> outline_mod.Move:
        # Simulate a bug: drop an entry without recording where it went.
        outline_mod.Outline.remove(self, entry)  # type: ignore[arg-type]
        return outline_mod.Move("x", "a", "b", "")

    monkeypatch.setattr(outline_mod.Outline, "to_archive", losing_remove)
    with pytest.raises(ConflictError, match="would be lost"):
        curate(Workspace(root), now=NOW)
    assert path.read_text() == MEMORY
    assert not (root / "memory" / "archive.md").exists()


def test_bad_settings_are_a_format_error(root: Path) -> None:
    _write(root, MEMORY)
    (root / "workmem.toml").write_text("[curate]\nfade_after_days = -3\n")
    with pytest.raises(FormatError, match="fade_after_days"):
        curate(Workspace(root), now=NOW)


def test_now_defaults_to_pinned_clock(root: Path) -> None:
    # WORKMEM_NOW is pinned to 2026-05-25 13:18 by the fixture.
    _write(root, MEMORY)
    report = curate(Workspace(root))
    assert "2026-05-25 13:18 curate" in (root / "MEMORY.md").read_text()
    assert report.changed


def test_the_same_fact_in_other_words_is_merged_into_the_fuller_entry(root: Path) -> None:
    """Seed 004 curation merges duplicates: "JWT auth" and "JWT authentication" are one."""
    text = MEMORY.replace(
        "- Undated fact about the repo\n",
        "- Undated fact about the repo\n"
        "- The API uses JWT auth (2026-05-02)\n"
        "- The API uses JWT authentication (2026-05-12)\n"
        "- Retry at most 5 times (2026-05-02)\n"
        "- Retry at most 50 times (2026-05-12)\n",
    )
    _write(root, text)
    report = curate(Workspace(root), now=NOW)
    merged = {m.text: m.reason for m in report.merged}
    assert merged["The API uses JWT auth (2026-05-02)"] == "the same fact in other words"
    project = read_tiers((root / "MEMORY.md").read_text()).active["Project"]
    assert "The API uses JWT authentication (2026-05-12)" in project
    assert "JWT auth (2026-05-02)" not in project
    # numbers are never "the same word": both retry limits stay for a person to decide
    assert "Retry at most 5 times" in project and "Retry at most 50 times" in project


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("the api uses jwt auth", "the api uses jwt authentication", True),
        ("store config in env", "store configuration in environment", True),
        ("run the test suite", "run the tests suite", True),
        ("retry at most 5 times", "retry at most 50 times", False),
        ("use redis for cache", "use redis for caching layer", False),
        ("ci push", "ci pushes", False),  # too short to judge
        ("部署 需要 vpn 連線", "部署 需要 vpn 連線設定", False),
    ],
)
def test_same_fact_rule(a: str, b: str, same: bool) -> None:
    from workmem.facts.curate import _same_fact

    assert _same_fact(a, b) is same

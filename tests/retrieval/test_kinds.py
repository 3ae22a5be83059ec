"""Kinds by path, and the walk that finds what to index without opening files."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.retrieval import kinds
from workmem.root import Workspace


@pytest.mark.parametrize(
    ("rel", "kind", "session", "day"),
    [
        ("MEMORY.md", kinds.MEMORY, None, None),
        ("memory/index.md", kinds.BOARD, None, None),
        ("memory/sessions/2026-05-24-0900-a.md", kinds.SNAPSHOT, "2026-05-24-0900-a", "2026-05-24"),
        (
            "memory/sessions/2026-05-24-0900-a.notes.md",
            kinds.NOTES,
            "2026-05-24-0900-a",
            "2026-05-24",
        ),
        ("memory/2026-05-24.md", kinds.DAILY, None, "2026-05-24"),
        ("memory/feedback_testing.md", kinds.TYPED, None, None),
        ("memory/threads.md", kinds.THREAD, None, None),
        ("memory/events.json", kinds.EVENT, None, None),
        ("memory/archive.md", kinds.ARCHIVE, None, None),
        (
            "memory/archive/2026-05-01-0800-a/session.md",
            kinds.ARCHIVE,
            "2026-05-01-0800-a",
            "2026-05-01",
        ),
        ("memory/relay-snapshot.md", kinds.RELAY, None, None),
        ("memory/relay-archive/2026-05-20-101500.md", kinds.RELAY, None, "2026-05-20"),
        ("memory/resumption.md", kinds.RESUMPTION, None, None),
        ("memory/state.json", kinds.PENDING, None, None),
    ],
)
def test_classify(rel: str, kind: str, session: str | None, day: str | None) -> None:
    found = kinds.classify(rel)
    assert found is not None
    assert (found.kind, found.session_id, found.date) == (kind, session, day)


@pytest.mark.parametrize(
    "rel",
    [
        "memory/log-index.md",
        "memory/daily/2026-05-24.md",
        "memory/.workmem/search.sqlite",
        "memory/.index.md.123.0.tmp",
        "memory/notes.txt",
        "README.md",
        "memory/2026-5-4.md",
    ],
)
def test_not_indexed(rel: str) -> None:
    assert kinds.classify(rel) is None


def test_walk_finds_memory_files_and_skips_links_outside(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "memory" / "sessions").mkdir(parents=True)
    (root / "memory" / "archive" / "2026-05-01-0800-a").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# m\n")
    (root / "memory" / "2026-05-24.md").write_text("# d\n")
    (root / "memory" / "sessions" / "2026-05-24-0900-a.md").write_text("# s\n")
    (root / "memory" / "archive" / "2026-05-01-0800-a" / "index.md").write_text("# a\n")
    (root / "memory" / ".hidden.md").write_text("x")
    outside = tmp_path / "secret.md"
    outside.write_text("secret")
    (root / "memory" / "2026-05-23.md").symlink_to(outside)
    (root / "memory" / "sessions" / "linked").symlink_to(tmp_path)
    found = sorted(s.file.rel for s in kinds.walk(Workspace(root)))
    assert found == [
        "MEMORY.md",
        "memory/2026-05-24.md",
        "memory/archive/2026-05-01-0800-a/index.md",
        "memory/sessions/2026-05-24-0900-a.md",
    ]
    # The cheap form every query uses to ask "did anything change" sees the same files,
    # with the stat the index compares.
    stamps = kinds.stamps(Workspace(root))
    assert sorted(stamps) == found
    daily = root / "memory" / "2026-05-24.md"
    assert stamps["memory/2026-05-24.md"] == (
        str(daily),
        daily.stat().st_mtime_ns,
        daily.stat().st_size,
    )

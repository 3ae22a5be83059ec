"""Shared fixtures: an isolated memory root, a pinned clock, and the shared data folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("WORKMEM_SHARED", REPO.parent / "shared"))


@pytest.fixture
def shared_dir() -> Path:
    """The read-only ``../shared`` folder (designs, fixtures, data), or skip."""
    if not SHARED.is_dir():
        pytest.skip(f"shared data folder not found at {SHARED} (set WORKMEM_SHARED)")
    return SHARED


@pytest.fixture(autouse=True)
def _c_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """What workmem writes follows the system locale (``[workmem] language = "auto"``):
    every test runs in the C locale (English), so it means the same on any machine.
    Tests of the language choice set their own."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty workspace used as the memory root, with a pinned clock and no platform."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    monkeypatch.setenv("WORKMEM_ROOT", str(workspace))
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 13:18")
    monkeypatch.setenv("WORKMEM_PLATFORM", "cursor")
    # a hook's session end runs detached inside an agent; tests read its result at once
    monkeypatch.setenv("WORKMEM_HOOK_FOREGROUND", "1")
    for name in ("WORKMEM_SESSION_ID", "WORKMEM_AGENT_NAME"):
        monkeypatch.delenv(name, raising=False)
    yield workspace


@pytest.fixture
def fixtures(shared_dir: Path) -> Path:
    """The recorded transcripts of every platform (``../shared/fixtures/transcripts``)."""
    folder = shared_dir / "fixtures" / "transcripts"
    if not folder.is_dir():
        pytest.skip(f"transcript fixtures not found at {folder}")
    return folder

"""The relay tests' fixtures: a HOME of their own, where transcripts are written."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "WORKMEM_TRANSCRIPT"):
        monkeypatch.delenv(name, raising=False)
    return home

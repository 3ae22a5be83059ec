from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def fixtures(shared_dir: Path) -> Path:
    folder = shared_dir / "fixtures" / "transcripts"
    if not folder.is_dir():
        pytest.skip(f"transcript fixtures not found at {folder}")
    return folder

"""`make demo` runs whole, with the shared recording or with the embedded sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem import demo


def test_demo_with_the_embedded_sample_when_shared_is_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(demo, "RECORDED_SESSION", tmp_path / "absent.jsonl")
    for name in (
        "WORKMEM_ROOT",
        "WORKMEM_NOW",
        "WORKMEM_PLATFORM",
        "HOME",
        "WORKMEM_HOOK_FOREGROUND",
    ):
        monkeypatch.setenv(name, "")  # restored by monkeypatch after the demo sets them
    assert demo.main() == 0
    out = capsys.readouterr().out
    assert "replaying workmem's own embedded sample session" in out
    assert "Your Memory Session ID is: 2026-05-25-1318-claude-code-main-agent" in out
    assert "[workmem: 狀態更新]" in out
    assert "what the next session is given" in out
    assert "Add rate limiting to the login endpoint" in out  # the replayed request returns
    assert "Board is consistent" in out

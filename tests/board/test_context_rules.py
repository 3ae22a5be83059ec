"""The board's context rule by rule: what it takes from the workspace settings.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/context.py`` that a small change used to break with the whole suite passing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.context import BoardContext


def test_the_settings_choose_the_platform_and_the_lock_timeout(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WORKMEM_PLATFORM")
    (root / "workmem.toml").write_text('platform = "codex"\n\n[board]\nlock_timeout = 2.5\n')
    ctx = BoardContext.open()
    assert (ctx.platform, ctx.store.lock_timeout) == ("codex", 2.5)
    assert Board().start().session_id == "2026-05-25-1318-codex-main-agent"
    # A platform named by the caller wins over the settings.
    assert BoardContext.open(platform="gemini").platform == "gemini"


def test_one_call_writes_in_the_language_of_the_settings_it_opened_with(root: Path) -> None:
    settings = root / "workmem.toml"
    settings.write_text('language = "ja"\n')
    ctx = BoardContext.open()
    settings.write_text('language = "ko"\n')  # changed while the call runs
    assert ctx.language() == "ja"
    assert BoardContext.open().language() == "ko"

"""The machine tag in session IDs: made once, kept outside the memory folder, valid in IDs."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.model import check_session_id
from workmem.sync.machine import machine_tag


def test_tag_is_made_once_and_kept_in_the_user_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WORKMEM_MACHINE", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    first = machine_tag()
    assert first == machine_tag()
    assert (tmp_path / "config" / "workmem" / "machine-tag").read_text().strip() == first
    check_session_id(f"2026-05-25-1318-agent-{first}")


def test_override_is_cleaned_to_an_id_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKMEM_MACHINE", "Alice's Laptop!")
    assert machine_tag() == "aliceslaptop"
    monkeypatch.setenv("WORKMEM_MACHINE", "7th-box")
    assert machine_tag() == "m7thbox"


def test_ids_carry_the_tag_only_when_sync_is_on(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKMEM_MACHINE", "desk")
    assert Board(root).start().session_id == "2026-05-25-1318-cursor-main-agent"
    (root / "workmem.toml").write_text("[sync]\nmachine_ids = true\n")
    first = Board(root).start().session_id
    second = Board(root).start().session_id
    assert first == "2026-05-25-1318-cursor-main-agent-desk"
    assert second == "2026-05-25-1318-cursor-main-agent-desk-2"  # same minute, same machine

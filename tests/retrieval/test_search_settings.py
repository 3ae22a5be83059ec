"""``search_settings`` is read once per settings file and read again whenever it may differ."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workmem.errors import OutsideRootError
from workmem.retrieval import index as index_module
from workmem.retrieval import settings as search_module
from workmem.retrieval.search import search_settings
from workmem.root import Workspace

OLD = 1_600_000_000  # 2020: far outside the two-second window for just-written files


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    # ctime cannot be set back, so a file written by the test counts as old at once.
    monkeypatch.setattr(index_module, "RACY_NS", 0)
    monkeypatch.setattr(search_module, "_SETTINGS_SEEN", {})
    return Workspace(root)


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    read = search_module._read_search_settings

    def counted(workspace: Workspace) -> search_module.SearchSettings:
        reads.append(1)
        return read(workspace)

    monkeypatch.setattr(search_module, "_read_search_settings", counted)
    return reads


def test_unchanged_settings_are_read_once(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    config = ws.root / "workmem.toml"
    config.write_text('[search]\nembedder = "none"\n', encoding="utf-8")
    reads = _count_reads(monkeypatch)
    first = search_settings(ws)
    assert search_settings(ws) is first
    assert len(reads) == 1


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = ws.root / "workmem.toml"
    config.write_text("[search.weights]\ndate = 0.1\n", encoding="utf-8")
    os.utime(config, (OLD, OLD))
    assert search_settings(ws).weights.date == 0.1
    config.write_text("[search.weights]\ndate = 0.2\n", encoding="utf-8")  # same size
    os.utime(config, (OLD, OLD))  # same mtime: the change time still moves
    assert search_settings(ws).weights.date == 0.2


def test_a_file_written_this_instant_is_never_taken_from_memory(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "RACY_NS", 2_000_000_000)
    (ws.root / "workmem.toml").write_text('[search]\nembedder = "none"\n', encoding="utf-8")
    reads = _count_reads(monkeypatch)
    search_settings(ws)
    search_settings(ws)
    assert len(reads) == 2


def test_the_embedder_override_and_a_new_or_removed_file_are_seen(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = ws.root / "workmem.toml"
    assert search_settings(ws).embedder == "none"  # no file: the default
    config.write_text('[search]\nembedder = "hash"\n', encoding="utf-8")
    assert search_settings(ws).embedder == "hash"
    monkeypatch.setenv("WORKMEM_EMBEDDER", "none")
    assert search_settings(ws).embedder == "none"
    monkeypatch.delenv("WORKMEM_EMBEDDER")
    assert search_settings(ws).embedder == "hash"
    config.unlink()
    assert search_settings(ws).embedder == "none"


def test_settings_swapped_for_a_symlink_outside_the_root_are_refused_again(
    ws: Workspace, tmp_path: Path
) -> None:
    config = ws.root / "workmem.toml"
    config.write_text('[search]\nembedder = "none"\n', encoding="utf-8")
    assert search_settings(ws).embedder == "none"
    outside = tmp_path / "elsewhere.toml"
    outside.write_text('[search]\nembedder = "none"\n', encoding="utf-8")
    config.unlink()
    config.symlink_to(outside)
    with pytest.raises(OutsideRootError):
        search_settings(ws)


def test_bad_settings_are_not_remembered(ws: Workspace) -> None:
    from workmem.errors import FormatError

    config = ws.root / "workmem.toml"
    config.write_text("[search.weights]\nlexcal = 1\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(FormatError, match="lexcal"):
            search_settings(ws)

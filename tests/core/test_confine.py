"""The root guard, through the store that every workflow writes with: real links, real
folders, real files outside the root that must come out of every attack unchanged."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from workmem.errors import FormatError, NoMemoryRootError, OutsideRootError, WorkmemError
from workmem.files import text as text_module
from workmem.files.confine import RootGuard, outside_links
from workmem.files.store import Store
from workmem.root import CWD, GIT, OPTION, Workspace

from ..safety.util import snapshot


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text("OUTSIDE-SECRET\n")
    return folder


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    (root / "memory" / "sessions").mkdir(parents=True)
    return Workspace(root)


def _linked_inside(ws: Workspace, text: str) -> tuple[Path, Path]:
    """``memory/sessions/a.md`` -> ``../shared/doc.md``, a link that stays in the root."""
    target = ws.memory_dir / "shared" / "doc.md"
    target.parent.mkdir()
    target.write_text(text)
    link = ws.sessions_dir / "a.md"
    link.symlink_to(Path("..") / "shared" / "doc.md")
    return link, target


def test_paths_inside_pass_links_inside_are_followed(ws: Workspace) -> None:
    guard = RootGuard(ws)
    link, target = _linked_inside(ws, "inside\n")
    assert guard.check(link) == target.resolve()
    assert guard.check(ws.board_file) == ws.board_file.resolve()


def test_a_link_out_or_dot_dot_is_refused_with_where_it_leads(ws: Workspace, outside: Path) -> None:
    guard = RootGuard(ws)
    link = ws.sessions_dir / "a.md"
    link.symlink_to(outside / "secret.txt")
    with pytest.raises(OutsideRootError) as caught:
        guard.check(link)
    message = str(caught.value)
    assert "memory/sessions/a.md" in message and str(outside / "secret.txt") in message
    assert "Nothing was read or written" in message
    assert caught.value.exit_code == 4
    with pytest.raises(OutsideRootError, match=r"'\.\.'"):
        guard.check(ws.memory_dir / ".." / ".." / "outside" / "secret.txt")


def test_paths_the_program_names_outside_the_root_are_not_judged(
    ws: Workspace, outside: Path
) -> None:
    """An agent's settings in the home folder, a platform's memory folder: not the root's."""
    assert RootGuard(ws).check(outside / "secret.txt") == outside / "secret.txt"


def test_store_refuses_reads_writes_and_moves_through_a_link_out(
    ws: Workspace, outside: Path
) -> None:
    store = Store(ws, lock_timeout=2)
    (ws.sessions_dir / "a.md").symlink_to(outside / "secret.txt")
    before = snapshot(outside)
    with pytest.raises(OutsideRootError):
        store.read_text(ws.sessions_dir / "a.md")
    with pytest.raises(OutsideRootError):
        store.update(ws.sessions_dir / "a.md", lambda old: (old or "") + "more\n")
    real = ws.sessions_dir / "b.md"
    with store.lock(real):
        store.write_text(real, "mine\n")
    (ws.memory_dir / "archive").symlink_to(outside)
    with pytest.raises(OutsideRootError), store.lock(real):
        store.move(real, ws.memory_dir / "archive" / "b.md")
    with pytest.raises(OutsideRootError):
        store.make_folder(ws.memory_dir / "archive" / "x")
    with pytest.raises(OutsideRootError):
        store.make_folder(ws.memory_dir / ".." / ".." / "outside" / "new" / "deeper")
    assert snapshot(outside) == before
    assert real.read_text() == "mine\n"


def test_a_write_through_a_link_inside_updates_the_target_and_keeps_the_link(
    ws: Workspace,
) -> None:
    store = Store(ws)
    link, target = _linked_inside(ws, "one\n")
    store.update(link, lambda old: (old or "") + "two\n")
    assert link.is_symlink()
    assert target.read_text() == "one\ntwo\n"


def test_a_symlinked_folder_on_the_way_cannot_make_files_land_outside(
    ws: Workspace, outside: Path
) -> None:
    store = Store(ws)
    ws.sessions_dir.rmdir()
    ws.sessions_dir.symlink_to(outside)
    before = snapshot(outside)
    with pytest.raises(OutsideRootError, match="memory/sessions is a link"):
        store.update(ws.snapshot_file("2026-05-25-1318-x"), lambda _old: "new\n")
    assert snapshot(outside) == before
    # The same with the state folder: no lock file lands outside either.
    (ws.memory_dir / ".workmem").symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutsideRootError):
        store.update(ws.board_file, lambda _old: "# board\n")
    assert snapshot(outside) == before
    assert not ws.board_file.exists()


def test_state_folder_ignores_itself(ws: Workspace) -> None:
    store = Store(ws)
    store.update(ws.board_file, lambda _old: "# board\n")
    ignore = ws.state_dir / ".gitignore"
    assert ignore.read_text().splitlines()[-1] == "*"
    # A user's own rule is left as it is.
    ignore.write_text("*.sqlite\n")
    store.update(ws.board_file, lambda _old: "# board 2\n")
    assert ignore.read_text() == "*.sqlite\n"


def test_an_existing_state_folder_gets_its_gitignore_but_never_through_a_link(
    ws: Workspace, outside: Path
) -> None:
    ws.locks_dir.mkdir(parents=True)
    (ws.state_dir / ".gitignore").symlink_to(outside / "gitignore-target")
    Store(ws).update(ws.board_file, lambda _old: "# board\n")
    assert not (outside / "gitignore-target").exists()
    (ws.state_dir / ".gitignore").unlink()
    Store(ws).update(ws.board_file, lambda _old: "# board 2\n")  # a fresh store looks again
    assert (ws.state_dir / ".gitignore").read_text().endswith("*\n")


@pytest.mark.parametrize("found_by", [GIT, CWD])
def test_a_guessed_root_is_never_turned_into_a_memory_root(tmp_path: Path, found_by: str) -> None:
    folder = tmp_path / "sub"
    folder.mkdir()
    store = Store(Workspace(folder, found_by))
    with pytest.raises(NoMemoryRootError) as caught:
        store.update(folder / "memory" / "index.md", lambda _old: "# board\n")
    assert str(folder) in str(caught.value) and "workmem init" in str(caught.value)
    assert caught.value.exit_code == 3
    assert list(folder.iterdir()) == []
    # Once a memory root is there (here: MEMORY.md), the same write goes ahead.
    (folder / "MEMORY.md").write_text("# Memory\n")
    store.update(folder / "memory" / "index.md", lambda _old: "# board\n")
    assert (folder / "memory" / "index.md").read_text() == "# board\n"


def test_a_named_root_may_be_created(tmp_path: Path) -> None:
    root = tmp_path / "new" / "project"
    Store(Workspace(root, OPTION)).update(root / "memory" / "index.md", lambda _old: "x\n")
    assert (root / "memory" / "index.md").read_text() == "x\n"


def test_a_file_where_a_folder_belongs_is_a_clear_error(ws: Workspace) -> None:
    (ws.memory_dir / "archive").write_text("not a folder\n")
    with pytest.raises(WorkmemError, match="is a file where a folder is expected"):
        Store(ws).make_folder(ws.memory_dir / "archive" / "x")


def test_a_fifo_at_a_memory_file_does_not_hang_the_reader(ws: Workspace) -> None:
    fifo = ws.sessions_dir / "a.md"
    os.mkfifo(fifo)
    result: list[object] = []

    def read() -> None:
        try:
            result.append(Store(ws).read_text(fifo))
        except WorkmemError as exc:
            result.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=5)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert isinstance(result[0], WorkmemError) and "not a regular file" in str(result[0])


def test_a_huge_file_is_refused_before_it_is_read(ws: Workspace) -> None:
    big = ws.memory_dir / "huge.md"
    with big.open("wb") as handle:  # sparse: no real disk use
        handle.truncate(text_module.MAX_FILE_BYTES + 1)
    with pytest.raises(FormatError, match="over the"):
        Store(ws).read_text(big)


def test_read_only_store_creates_nothing_and_refuses_writes(ws: Workspace) -> None:
    store = Store(ws, read_only=True)
    ws.board_file.write_text("# board\n")
    with store.lock(ws.board_file):
        assert store.read_text(ws.board_file) is not None
    assert not ws.state_dir.exists()
    with pytest.raises(RuntimeError, match="read-only"), store.lock(ws.board_file):
        store.write_text(ws.board_file, "changed\n")
    assert ws.board_file.read_text() == "# board\n"


def test_outside_links_lists_every_link_out_and_no_link_in(ws: Workspace, outside: Path) -> None:
    (ws.sessions_dir / "out.md").symlink_to(outside / "secret.txt")
    (ws.sessions_dir / "in.md").symlink_to("out-of-nothing-but-inside.md")  # dangling, inside
    (ws.root / "MEMORY.md").symlink_to(outside / "secret.txt")
    (ws.memory_dir / "deep" / "er").mkdir(parents=True)
    (ws.memory_dir / "deep" / "er" / "x").symlink_to(outside, target_is_directory=True)
    found = {ws.relative(path) for path, _target in outside_links(ws)}
    assert found == {"MEMORY.md", "memory/sessions/out.md", "memory/deep/er/x"}

"""The store rule by rule: every refusal and what it says, styles kept on write-back, moves,
temp names, read-only stores and undo.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``files/store.py`` that a small change used to break with the whole suite passing.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from workmem.errors import FormatError, OutsideRootError, WorkmemError, WriteError
from workmem.files import store as store_module
from workmem.files.locks import NoLock
from workmem.files.store import (
    FileUndo,
    Store,
    WriteResult,
    atomic_write_bytes,
    read_bytes,
    remove_orphan_temps,
)
from workmem.files.text import TextStyle
from workmem.root import Workspace


@pytest.fixture
def store(tmp_path: Path) -> Store:
    (tmp_path / "memory").mkdir()
    return Store(Workspace(tmp_path))


def test_defaults_of_a_store(tmp_path: Path) -> None:
    store = Store(Workspace(tmp_path))
    assert store.lock_timeout == 10.0
    assert store.read_only is False
    assert store.lock(tmp_path / "memory" / "a.md").timeout == 10.0
    assert Store(Workspace(tmp_path), 2.5).lock(tmp_path / "a.md").timeout == 2.5


def test_a_lock_is_one_object_per_file_named_by_its_root_relative_path(store: Store) -> None:
    root = store.workspace.root
    lock = store.lock(root / "memory" / "index.md")
    assert store.lock(root / "memory" / "index.md") is lock
    assert lock.path == root / "memory" / ".workmem" / "locks" / "memory%2Findex.md.lock"
    assert lock.label == "memory/index.md"
    assert store.lock(root / "memory" / "other.md") is not lock


def test_a_lock_of_a_path_the_program_names_outside_the_root(store: Store, tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere" / "settings.json"
    lock = store.lock(outside)
    assert lock.path.name.startswith("abs%2F")
    assert lock.path.parent == store.workspace.locks_dir


def test_the_lock_clears_the_temps_a_dead_writer_left_of_its_own_file_only(store: Store) -> None:
    target = store.workspace.root / "memory" / "a[1].md"
    target.write_text("x")
    dead = 2**22 + 4321
    mine = target.with_name(f".a[1].md.{dead}.0.tmp")
    other = target.with_name(f".a[1].md.{dead + 1}.0.tmp")
    for path in (mine, other):
        path.write_text("half")
    lock = store.lock(target)
    lock.path.parent.mkdir(parents=True, exist_ok=True)
    lock.path.write_text(f"{dead}\n")
    with lock:
        pass
    assert not mine.exists() and other.exists()
    remove_orphan_temps(target, dead + 1)
    assert not other.exists()


def test_a_read_only_store_hands_out_a_lock_that_takes_nothing(store: Store) -> None:
    reader = Store(store.workspace, read_only=True)
    lock = reader.lock(store.workspace.root / "memory" / "a.md")
    assert isinstance(lock, NoLock)
    with lock:
        pass
    assert not store.workspace.state_dir.exists()
    with pytest.raises(RuntimeError) as info:
        reader.write_bytes(store.workspace.root / "memory" / "a.md", b"x")
    assert str(info.value).startswith("write to ") and "read-only store" in str(info.value)


def test_a_write_without_the_lock_says_so(store: Store) -> None:
    path = store.workspace.root / "memory" / "a.md"
    with pytest.raises(RuntimeError) as info:
        store.write_text(path, "x")
    assert str(info.value) == f"write to {path} without holding its lock"
    assert not path.exists()


# -- reading --------------------------------------------------------------------------------


def test_reading_a_missing_file_or_one_under_a_file_is_none(store: Store) -> None:
    root = store.workspace.root
    assert store.read_bytes(root / "memory" / "missing.md") is None
    (root / "memory" / "plain").write_text("a file")
    assert store.read_bytes(root / "memory" / "plain" / "below.md") is None
    assert store.read_text(root / "memory" / "missing.md") is None


def test_reading_a_folder_or_a_device_is_refused_by_name(store: Store) -> None:
    root = store.workspace.root
    (root / "memory" / "dir.md").mkdir()
    with pytest.raises(WriteError) as folder:
        store.read_bytes(root / "memory" / "dir.md")
    assert str(folder.value) == "memory/dir.md: is a folder, expected a file"
    os.mkfifo(root / "memory" / "pipe.md")
    with pytest.raises(WorkmemError) as fifo:
        store.read_bytes(root / "memory" / "pipe.md")
    assert str(fifo.value) == (
        "memory/pipe.md: is a named pipe (FIFO), not a regular file; not read"
    )


def test_reading_an_unreadable_file_names_it_and_the_reason(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.workspace.root / "memory" / "a.md"
    path.write_text("x")
    real_open = os.open

    def denied(target: object, *args: object, **kwargs: object) -> int:
        if Path(str(target)) == path:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(WorkmemError) as info:
        store.read_bytes(path)
    assert str(info.value) == "memory/a.md: cannot be read: Permission denied [EACCES]"
    assert store.read_derived(path) is None


def test_a_file_over_the_size_limit_is_refused_before_reading(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.workspace.root / "memory" / "big.md"
    path.write_bytes(b"x" * 11)
    monkeypatch.setattr(store_module, "MAX_FILE_BYTES", 10)
    with pytest.raises(FormatError) as info:
        store.read_bytes(path)
    assert str(info.value) == (
        "memory/big.md: file is 11 bytes, over the 10-byte limit; nothing was read"
    )
    monkeypatch.setattr(store_module, "MAX_FILE_BYTES", 11)
    assert store.read_bytes(path) == b"x" * 11


def test_derived_state_is_none_when_missing_unreadable_or_linked_out(
    store: Store, tmp_path: Path
) -> None:
    state = store.workspace.state_dir
    state.mkdir(parents=True)
    assert store.read_derived(state / "missing.json") is None
    (state / "ok.json").write_text("{}")
    assert store.read_derived(state / "ok.json") == b"{}"
    outside = tmp_path.parent / f"{tmp_path.name}-secret"
    outside.write_text("secret")
    (state / "link.json").symlink_to(outside)
    with pytest.raises(OutsideRootError):
        store.read_bytes(state / "link.json")
    assert store.read_derived(state / "link.json") is None
    outside.unlink()


def test_read_text_decodes_with_the_path_in_errors(store: Store) -> None:
    path = store.workspace.root / "memory" / "a.md"
    path.write_bytes(b"\xef\xbb\xbfa\r\nb\r\n")
    assert store.read_text(path) == ("a\nb\n", TextStyle("\r\n", True))
    path.write_bytes(b"\xff")
    with pytest.raises(FormatError, match=r"^memory/a\.md:1: not valid UTF-8"):
        store.read_text(path)


def test_the_module_reader_is_not_confined_but_refuses_folders(tmp_path: Path) -> None:
    assert read_bytes(tmp_path / "missing") is None
    (tmp_path / "f").write_bytes(b"data")
    assert read_bytes(tmp_path / "f") == b"data"
    with pytest.raises(WriteError) as info:
        read_bytes(tmp_path)
    assert str(info.value) == f"{tmp_path}: is a folder, expected a file"


# -- writing --------------------------------------------------------------------------------


def test_update_keeps_the_files_newline_style_and_bom(store: Store) -> None:
    path = store.workspace.root / "memory" / "a.md"
    path.write_bytes(b"\xef\xbb\xbfone\r\n")
    result = store.update(path, lambda old: (old or "") + "two\n")
    assert result == WriteResult(path, changed=True, created=False)
    assert path.read_bytes() == b"\xef\xbb\xbfone\r\ntwo\r\n"


def test_update_of_a_missing_file_sees_none_and_writes_plain(store: Store) -> None:
    path = store.workspace.root / "memory" / "new.md"
    seen: list[str | None] = []

    def change(old: str | None) -> str:
        seen.append(old)
        return "a\nb\n"

    assert store.update(path, change) == WriteResult(path, changed=True, created=True)
    assert seen == [None]
    assert path.read_bytes() == b"a\nb\n"


def test_an_unchanged_update_writes_nothing(store: Store) -> None:
    path = store.workspace.root / "memory" / "a.md"
    path.write_text("same\n")
    os.utime(path, (1, 1))
    assert store.update(path, lambda old: old or "") == WriteResult(path, False, False)
    assert path.stat().st_mtime == 1


def test_verify_sees_the_text_read_back(store: Store) -> None:
    path = store.workspace.root / "memory" / "a.md"
    path.write_bytes(b"x\r\n")
    seen: list[str] = []
    store.update(path, lambda old: "y\n", verify=seen.append)
    assert seen == ["y\n"]


def test_a_verify_failure_leaves_no_file_that_did_not_exist(store: Store) -> None:
    path = store.workspace.root / "memory" / "new.md"

    def reject(_text: str) -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match=r"^no$"):
        store.update(path, lambda _old: "x\n", verify=reject)
    assert not path.exists()


def test_write_error_messages_name_the_file_and_the_reason(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.workspace.root / "memory" / "a.md"
    cases = [
        (OSError(errno.ENOSPC, "No space left on device"), "the disk is full [ENOSPC]"),
        (OSError(errno.EROFS, "Read-only file system"), "the filesystem is read-only [EROFS]"),
        (OSError(errno.EIO, "Input/output error"), "Input/output error [EIO]"),
        (OSError("no errno at all"), "no errno at all"),
    ]
    for error, reason in cases:

        def fail(*_args: object, error: OSError = error) -> None:
            raise error

        monkeypatch.setattr(os, "replace", fail)
        with pytest.raises(WriteError) as info:
            store.update(path, lambda _old: "x\n")
        assert str(info.value) == (
            f"writing memory/a.md failed: {reason}; the previous file is unchanged"
        )
        monkeypatch.undo()
    assert not path.exists()
    assert list(path.parent.iterdir()) == [store.workspace.state_dir]


def test_atomic_write_makes_folders_and_names_its_temp_after_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a" / "b" / "f.txt"
    temps: list[str] = []
    real_replace = os.replace

    def spy(src: str, dst: str) -> None:
        temps.append(Path(src).name)
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    atomic_write_bytes(target, b"x" * 100_000)
    atomic_write_bytes(target, b"y")
    assert target.read_bytes() == b"y"
    pid = os.getpid()
    first, second = (int(name.split(".")[4]) for name in temps)
    assert temps[0].startswith(f".f.txt.{pid}.") and temps[0].endswith(".tmp")
    assert second == first + 1


def test_atomic_write_writes_everything_even_in_short_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def short(fd: int, data: bytes | memoryview) -> int:
        return real_write(fd, bytes(data[:3]))

    monkeypatch.setattr(os, "write", short)
    atomic_write_bytes(tmp_path / "f", b"0123456789")
    monkeypatch.undo()
    assert (tmp_path / "f").read_bytes() == b"0123456789"


def test_a_new_file_gets_the_usual_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write_bytes(tmp_path / "f", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o644


def test_an_interruption_mid_write_is_raised_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(_fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_bytes(tmp_path / "f", b"x", shown="memory/f")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


# -- moving and undo ------------------------------------------------------------------------


def test_move_checks_both_ends(store: Store) -> None:
    root = store.workspace.root
    source = root / "memory" / "a.md"
    with pytest.raises(WriteError) as missing:
        store.move(source, root / "memory" / "archive" / "b.md")
    assert str(missing.value) == "cannot move memory/a.md: it does not exist"
    source.write_text("data")
    store.move(source, root / "memory" / "archive" / "b.md")
    assert not source.exists()
    assert (root / "memory" / "archive" / "b.md").read_text() == "data"


def test_a_failed_move_says_which_and_why(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    root = store.workspace.root
    source = root / "memory" / "a.md"
    source.write_text("data")

    def fail(*_args: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(WriteError) as info:
        store.move(source, root / "memory" / "b.md")
    assert str(info.value) == (
        "moving memory/a.md to memory/b.md failed: Invalid cross-device link [EXDEV]"
    )
    assert source.read_text() == "data"


def test_a_move_that_did_not_land_is_reported(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = store.workspace.root
    source = root / "memory" / "a.md"
    source.write_text("data")
    monkeypatch.setattr(os, "replace", lambda *_args: None)
    with pytest.raises(WriteError) as info:
        store.move(source, root / "memory" / "b.md")
    assert str(info.value) == "moving memory/a.md to memory/b.md did not verify"


def test_undo_puts_back_the_bytes_or_removes_a_new_file(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"new")
    FileUndo(path, b"old").restore()
    assert path.read_bytes() == b"old"
    FileUndo(path, None).restore()
    assert not path.exists()
    FileUndo(path, None).restore()  # already gone: nothing to do
    FileUndo(tmp_path / "no" / "such" / "dir" / "f", None).restore()


def test_undo_that_cannot_write_stays_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*_args: object, **_kwargs: object) -> None:
        raise WriteError("disk gone")

    monkeypatch.setattr(store_module, "atomic_write_bytes", fail)
    FileUndo(tmp_path / "f", b"old").restore()
    assert not (tmp_path / "f").exists()


def test_an_error_number_without_a_name_gives_the_reason_alone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*_args: object) -> None:
        raise OSError(99999, "Strange failure")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(WriteError) as info:
        store.update(store.workspace.root / "memory" / "a.md", lambda _old: "x\n")
    assert str(info.value) == (
        "writing memory/a.md failed: Strange failure; the previous file is unchanged"
    )


def test_a_move_that_left_the_source_behind_is_reported(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    root = store.workspace.root
    source = root / "memory" / "a.md"
    source.write_text("data")
    monkeypatch.setattr(os, "replace", shutil.copyfile)  # the target lands, the source stays
    with pytest.raises(WriteError, match="did not verify"):
        store.move(source, root / "memory" / "b.md")


def test_a_temp_that_cannot_be_removed_is_left_quietly(tmp_path: Path) -> None:
    target = tmp_path / "f.md"
    stuck = tmp_path / ".f.md.4242.0.tmp"
    stuck.mkdir()  # unlink fails on a folder
    (stuck / "inside").write_text("x")
    gone = tmp_path / ".f.md.4242.1.tmp"
    gone.write_text("x")
    remove_orphan_temps(target, 4242)
    assert stuck.is_dir()
    assert not gone.exists()


def test_a_link_planted_at_the_temp_name_is_never_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import itertools

    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    folder = tmp_path / "memory"
    folder.mkdir()
    monkeypatch.setattr(store_module, "_tmp_counter", itertools.count(7))
    (folder / f".f.md.{os.getpid()}.7.tmp").symlink_to(outside)
    with pytest.raises(WriteError, match=r"^writing memory/f\.md failed: "):
        atomic_write_bytes(folder / "f.md", b"new", shown="memory/f.md")
    assert outside.read_text() == "keep me\n"
    assert not (folder / "f.md").exists()


def test_a_temp_that_could_not_be_created_is_not_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*_args: object, **_kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "open", full)
    with pytest.raises(WriteError, match="the disk is full"):
        atomic_write_bytes(tmp_path / "f", b"x")


def test_update_of_a_file_that_is_not_utf8_names_it(store: Store) -> None:
    path = store.workspace.root / "memory" / "a.md"
    path.write_bytes(b"ok\n\xff\n")
    with pytest.raises(FormatError, match=r"^memory/a\.md:2: not valid UTF-8"):
        store.update(path, lambda old: "x")
    assert path.read_bytes() == b"ok\n\xff\n"


def test_verify_gets_empty_text_when_the_file_is_gone_on_re_read(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.workspace.root / "memory" / "a.md"
    seen: list[str] = []
    real_read_text = Store.read_text
    calls = {"n": 0}

    def vanishing(self: Store, target: Path) -> object:
        calls["n"] += 1
        return None if target == path else real_read_text(self, target)

    monkeypatch.setattr(Store, "read_text", vanishing)
    store.update(path, lambda _old: "x\n", verify=seen.append)
    assert seen == [""]
    assert calls["n"] == 1

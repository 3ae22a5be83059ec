"""The root guard rule by rule: what counts as inside, what a refusal says, how folders are
made, when a memory root may be started, what doctor is told. Real links throughout.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``files/confine.py`` that a small change used to break with the whole suite passing.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest

from workmem.doctor import DoctorReport
from workmem.errors import NoMemoryRootError, OutsideRootError, WriteError
from workmem.files.confine import (
    GITIGNORE,
    ROOT_MARKERS,
    RootGuard,
    check_links,
    is_within,
    outside_links,
)
from workmem.root import CWD, GIT, OPTION, Workspace


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    return Workspace(root)


def test_within_is_by_whole_components_and_flavour() -> None:
    assert is_within(PurePosixPath("/a/b"), PurePosixPath("/a/b"))
    assert is_within(PurePosixPath("/a/b"), PurePosixPath("/a/b/c"))
    assert not is_within(PurePosixPath("/a/b"), PurePosixPath("/a/bc"))
    assert not is_within(PurePosixPath("/a/b"), PurePosixPath("/a"))
    assert not is_within(PurePosixPath("/a"), PureWindowsPath("/a/b"))


def test_the_real_root_is_resolved_once(ws: Workspace, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(ws.root, target_is_directory=True)
    guard = RootGuard(Workspace(alias))
    assert guard.root == alias
    assert guard.real_root == ws.root.resolve()
    assert guard.real_root is guard.real_root
    # A path named under either spelling of the root is judged.
    assert guard.governs(alias / "memory" / "x")
    assert guard.governs(ws.root / "memory" / "x")
    assert not guard.governs(tmp_path / "elsewhere")


def test_relative_paths_are_taken_from_the_current_folder(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ws.root)
    guard = RootGuard(Workspace(Path()))
    assert guard.root == ws.root
    assert guard.check(Path("memory/index.md")) == (ws.root / "memory" / "index.md").resolve()


def test_a_refusal_names_the_first_link_and_where_it_leads(ws: Workspace, outside: Path) -> None:
    (ws.memory_dir / "sessions").symlink_to(outside, target_is_directory=True)
    guard = RootGuard(ws)
    with pytest.raises(OutsideRootError) as info:
        guard.check(ws.memory_dir / "sessions" / "a.md")
    assert str(info.value) == (
        f"memory/sessions/a.md leads outside the memory root (to {outside / 'a.md'}): "
        f"memory/sessions is a link to {outside}. workmem reads and writes only inside "
        f"{ws.root}; replace the link with a real file or folder, or remove it. Nothing was "
        "read or written there"
    )


def test_a_refusal_of_dot_dot_says_so(ws: Workspace, tmp_path: Path) -> None:
    guard = RootGuard(ws)
    with pytest.raises(OutsideRootError) as info:
        guard.check(ws.memory_dir / ".." / ".." / "x")
    assert f"(to {tmp_path / 'x'}): the path uses '..'. workmem" in str(info.value)


def test_a_path_outside_the_root_passes_unchanged(ws: Workspace, outside: Path) -> None:
    guard = RootGuard(ws)
    target = outside / "link-or-not"
    assert guard.check(target) == target


def test_folders_are_made_level_by_level_and_remembered(ws: Workspace) -> None:
    guard = RootGuard(ws)
    folder = ws.memory_dir / "a" / "b" / "c"
    assert guard.make_folder(folder) == folder.resolve()
    assert folder.is_dir()
    assert guard.make_folder(folder) == folder.resolve()  # the second time: no mkdir at all
    assert (ws.memory_dir / "a").is_dir()


def test_a_folder_is_never_made_through_a_link_out(ws: Workspace, outside: Path) -> None:
    (ws.memory_dir / "archive").symlink_to(outside, target_is_directory=True)
    guard = RootGuard(ws)
    with pytest.raises(OutsideRootError):
        guard.make_folder(ws.memory_dir / "archive" / "x")
    assert list(outside.iterdir()) == []


def test_a_link_inside_on_the_way_is_followed(ws: Workspace) -> None:
    (ws.memory_dir / "real").mkdir()
    (ws.memory_dir / "alias").symlink_to("real", target_is_directory=True)
    guard = RootGuard(ws)
    assert guard.make_folder(ws.memory_dir / "alias" / "x") == (ws.memory_dir / "real" / "x")
    assert (ws.memory_dir / "real" / "x").is_dir()


def test_a_file_on_the_way_is_an_error_naming_it(ws: Workspace) -> None:
    (ws.memory_dir / "archive").write_text("x\n")
    with pytest.raises(WriteError) as info:
        RootGuard(ws).make_folder(ws.memory_dir / "archive" / "y")
    assert str(info.value) == (
        "memory/archive is a file where a folder is expected; nothing was written"
    )


def test_a_folder_that_cannot_be_made_says_why(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_mkdir = Path.mkdir

    def denied(self: Path, *args: object, **kwargs: object) -> None:
        if self.name == "new":
            raise PermissionError(13, "Permission denied")
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", denied)
    with pytest.raises(WriteError) as info:
        RootGuard(ws).make_folder(ws.memory_dir / "new")
    assert str(info.value) == (
        "could not create the folder memory/new: Permission denied; nothing was written"
    )


def test_folders_the_program_names_outside_are_made_as_asked(
    ws: Workspace, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guard = RootGuard(ws)
    assert guard.make_folder(outside / "a" / "b") == outside / "a" / "b"
    assert (outside / "a" / "b").is_dir()

    def denied(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", denied)
    with pytest.raises(WriteError) as info:
        guard.make_folder(outside / "c")
    assert str(info.value) == f"could not create the folder {outside / 'c'}: Permission denied"


def test_a_guessed_root_that_does_not_exist_is_never_made(tmp_path: Path) -> None:
    root = tmp_path / "gone"
    guard = RootGuard(Workspace(root, CWD))
    with pytest.raises(NoMemoryRootError) as info:
        guard.make_folder(root / "memory")
    assert str(info.value) == f"{root} does not exist; nothing was written"
    assert not root.exists()


def test_a_guessed_root_may_get_folders_outside_memory(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    guard = RootGuard(Workspace(root, GIT))
    guard.make_folder(root / ".claude")  # a platform's own folder, not a memory root
    assert (root / ".claude").is_dir()
    with pytest.raises(NoMemoryRootError) as info:
        guard.make_folder(root / "memory" / "sessions")
    assert str(info.value) == (
        f"there is no memory root here (a write would start one): {root} (the git top-level) "
        "has no workmem.toml, MEMORY.md or memory/ folder, and nothing was written. Run "
        "`workmem init` to start one there, or name another folder with --root DIR or "
        "WORKMEM_ROOT"
    )


@pytest.mark.parametrize("marker", ROOT_MARKERS)
def test_each_marker_says_a_memory_root_is_here(tmp_path: Path, marker: str) -> None:
    root = tmp_path / "project"
    root.mkdir()
    guard = RootGuard(Workspace(root, CWD))
    assert not guard.memory_root_exists()
    with pytest.raises(NoMemoryRootError, match=r"^there is no memory root here \(to read\)"):
        guard.require_memory_root("to read")
    (root / marker).symlink_to(tmp_path / "dangling")  # even a dangling link marks it
    assert guard.memory_root_exists()
    guard.require_memory_root("to read")


def test_a_named_root_is_made_when_missing(tmp_path: Path) -> None:
    root = tmp_path / "a" / "b"
    RootGuard(Workspace(root, OPTION)).make_folder(root / "memory")
    assert (root / "memory").is_dir()


def test_the_state_folder_gets_its_gitignore_once(ws: Workspace) -> None:
    guard = RootGuard(ws)
    guard.make_folder(ws.locks_dir)
    ignore = ws.state_dir / GITIGNORE
    assert ignore.read_text() == "# workmem: derived and runtime state only; safe to delete\n*\n"
    assert oct(ignore.stat().st_mode & 0o777) == oct(0o644 & ~_umask())
    ignore.unlink()
    RootGuard(ws).make_folder(ws.state_dir)  # exists already: still gets one
    assert ignore.read_text().endswith("*\n")
    (ws.memory_dir / "other").mkdir()
    RootGuard(ws).make_folder(ws.memory_dir / "other")
    assert not (ws.memory_dir / "other" / GITIGNORE).exists()


def test_a_gitignore_that_cannot_be_written_does_not_stop_the_write(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.files import oscompat

    def refuse(*_args: object, **_kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(oscompat, "open_no_follow", refuse)
    RootGuard(ws).make_folder(ws.locks_dir)
    assert ws.locks_dir.is_dir()
    assert not (ws.state_dir / GITIGNORE).exists()


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


# -- doctor ---------------------------------------------------------------------------------


def test_doctor_hears_of_each_link_out_at_the_root_and_under_memory(
    ws: Workspace, outside: Path
) -> None:
    (ws.root / "workmem.toml").symlink_to(outside / "settings.toml")
    (ws.root / "HEARTBEAT.md").symlink_to(outside / "hb.md")
    (ws.root / "AGENTS.md").symlink_to(outside / "agents.md")
    (ws.root / "README.md").symlink_to(outside / "readme.md")  # not a name workmem uses
    (ws.memory_dir / "a").mkdir()
    (ws.memory_dir / "a" / "x.md").symlink_to(outside / "x.md")
    (ws.memory_dir / "a" / "in.md").symlink_to("../b.md")
    report = DoctorReport()
    check_links(ws, report)
    assert [(f.kind, f.session_id, f.message) for f in report.findings] == [
        (
            "link-outside-root",
            None,
            f"workmem.toml is a link to {outside / 'settings.toml'}, outside the memory root: "
            "workmem refuses to read or write through it; replace it with a real file or "
            "folder, or remove it",
        ),
        (
            "link-outside-root",
            None,
            f"HEARTBEAT.md is a link to {outside / 'hb.md'}, outside the memory root: "
            "workmem refuses to read or write through it; replace it with a real file or "
            "folder, or remove it",
        ),
        (
            "link-outside-root",
            None,
            f"AGENTS.md is a link to {outside / 'agents.md'}, outside the memory root: "
            "workmem refuses to read or write through it; replace it with a real file or "
            "folder, or remove it",
        ),
        (
            "link-outside-root",
            None,
            f"memory/a/x.md is a link to {outside / 'x.md'}, outside the memory root: "
            "workmem refuses to read or write through it; replace it with a real file or "
            "folder, or remove it",
        ),
    ]


def test_a_memory_folder_linked_out_is_reported_and_not_walked(
    ws: Workspace, outside: Path
) -> None:
    (ws.memory_dir).rmdir()
    (outside / "inner").mkdir()
    (outside / "inner" / "deep.md").symlink_to("/etc/hostname")
    ws.memory_dir.symlink_to(outside, target_is_directory=True)
    found = [(ws.relative(path), target) for path, target in outside_links(ws)]
    assert found == [("memory", str(outside))]


def test_links_are_listed_in_name_order_and_an_unreadable_folder_is_skipped(
    ws: Workspace, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("b.md", "a.md", "c.md"):
        (ws.memory_dir / name).symlink_to(outside / name)
    names = [path.name for path, _ in outside_links(ws)]
    assert names == ["a.md", "b.md", "c.md"]

    def unreadable(_path: object) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "scandir", unreadable)
    assert list(outside_links(ws)) == []


def test_folders_are_made_under_either_spelling_of_a_linked_root(
    ws: Workspace, tmp_path: Path
) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(ws.root, target_is_directory=True)
    guard = RootGuard(Workspace(alias))
    made = guard.make_folder(alias / "memory" / "via-alias")
    assert made == ws.root.resolve() / "memory" / "via-alias"
    real = guard.make_folder(ws.root.resolve() / "memory" / "via-real")
    assert real == ws.root.resolve() / "memory" / "via-real"
    assert (ws.memory_dir / "via-alias").is_dir() and (ws.memory_dir / "via-real").is_dir()


def test_an_existing_folder_outside_is_fine(ws: Workspace, outside: Path) -> None:
    guard = RootGuard(ws)
    assert guard.make_folder(outside) == outside
    assert guard.make_folder(outside) == outside

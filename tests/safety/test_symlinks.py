"""Attacks with real symbolic links, as a cloned repository can carry them, run through real
``workmem`` processes and the real web viewer: nothing outside the root is read, emptied,
appended to or created, and links that stay inside the root keep working."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.doctor import run as run_doctor
from workmem.root import Workspace

from .util import changes, snapshot, workmem

SID = "2026-05-25-1318-cursor-main-agent"
SECRET = "OUTSIDE-SECRET 7f3a\n"
LOCK = Path("memory/.workmem/locks/memory%2Findex.md.lock")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(SECRET)
    return folder


def _session(root: Path) -> Board:
    board = Board(root)
    assert board.start().session_id == SID
    board.update(SID, topic="Rate limits", sections={"Decisions": "Limit by IP"})
    return board


def _nowhere_in(root: Path, text: str) -> None:
    """``text`` is in no file under ``root`` (memory files, derived index, logs)."""
    needle = text.strip().encode()
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert needle not in path.read_bytes(), f"{path} holds outside content"


def _web() -> None:
    for name in ("starlette", "uvicorn"):
        pytest.importorskip(
            name, reason="the web extra is not installed: pip install 'workmem[web]'"
        )


# -- lock files -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
def test_a_planted_lock_file_does_not_empty_its_target(
    root: Path, outside: Path, kind: str
) -> None:
    _session(root)
    lock = root / LOCK
    lock.unlink(missing_ok=True)
    if kind == "symlink":
        lock.symlink_to(outside / "secret.txt")
    else:
        os.link(outside / "secret.txt", lock)
    board_before = (root / "memory" / "index.md").read_bytes()

    done = workmem("session", "start", root=root, env={"WORKMEM_NOW": "2026-05-25 13:20"})

    assert done.returncode == 4, done.stderr
    assert "lock file" in done.stderr and "Traceback" not in done.stderr
    assert (outside / "secret.txt").read_text() == SECRET
    assert (root / "memory" / "index.md").read_bytes() == board_before
    # Once the planted file is gone, the same command works: the refusal was the link.
    lock.unlink()
    again = workmem("session", "start", root=root, env={"WORKMEM_NOW": "2026-05-25 13:20"})
    assert again.returncode == 0, again.stderr
    assert (outside / "secret.txt").read_text() == SECRET


def test_web_viewer_gets_with_a_planted_lock_link_change_nothing(root: Path, outside: Path) -> None:
    _web()
    from ..web.util import build_site, running

    build_site(root)
    lock = root / LOCK
    lock.unlink(missing_ok=True)
    lock.symlink_to(outside / "secret.txt")
    before = snapshot(root)
    with running(Workspace(root)) as client:
        for url in ("/", "/api/board", f"/sessions/{SID}", f"/api/sessions/{SID}", "/threads"):
            assert client.get(url).status == 200, url
        assert client.get("/events").status == 200
    assert (outside / "secret.txt").read_text() == SECRET
    assert changes(before, snapshot(root)) == []


# -- the hook log ---------------------------------------------------------------------------


def test_a_linked_hook_log_gets_no_error_lines(root: Path, outside: Path) -> None:
    board = root / "memory" / "index.md"
    board.parent.mkdir(parents=True)
    board.write_text("| not | the board |\n|---|---|\n")  # every start fails to register
    log = root / "memory" / ".workmem" / "hook.log"
    log.parent.mkdir(parents=True)
    log.symlink_to(outside / "secret.txt")
    payload = json.dumps({"session_id": "s1", "cwd": str(root)})

    done = workmem("hook", "SessionStart", "--platform", "claude-code", root=root, stdin=payload)

    # The start gives the rest (no ID) and writes nothing through the link.
    assert done.returncode == 0 and "No Memory Session ID yet" in done.stdout
    assert (outside / "secret.txt").read_text() == SECRET
    assert log.is_symlink()
    # Control: without the link, the same failure is logged (so the hook did fail above).
    log.unlink()
    workmem("hook", "SessionStart", "--platform", "claude-code", root=root, stdin=payload)
    assert "expected" in log.read_text()


# -- session snapshots and notes ------------------------------------------------------------


def test_a_snapshot_linked_out_is_refused_by_show_update_and_search(
    root: Path, outside: Path
) -> None:
    _session(root)
    snapshot_file = root / "memory" / "sessions" / f"{SID}.md"
    snapshot_file.unlink()
    snapshot_file.symlink_to(outside / "secret.txt")

    show = workmem("session", "show", SID, root=root)
    assert show.returncode == 4 and "leads outside the memory root" in show.stderr
    assert "OUTSIDE-SECRET" not in show.stdout + show.stderr
    update = workmem("session", "update", SID, "--context", "more work", root=root)
    assert update.returncode == 4, update.stderr
    search = workmem("search", "OUTSIDE-SECRET", "--json", root=root)
    assert search.returncode == 0 and json.loads(search.stdout)["hits"] == []

    assert (outside / "secret.txt").read_text() == SECRET
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    _nowhere_in(root, SECRET)


def test_notes_linked_out_are_refused(root: Path, outside: Path) -> None:
    _session(root)
    notes = root / "memory" / "sessions" / f"{SID}.notes.md"
    notes.symlink_to(outside / "secret.txt")
    view = workmem("notes", "--view", "--session", SID, root=root)
    assert view.returncode == 4 and "OUTSIDE-SECRET" not in view.stdout
    _nowhere_in(root, SECRET)


def test_web_api_refuses_linked_snapshot_and_notes(root: Path, outside: Path) -> None:
    _web()
    from ..web.util import running

    _session(root)
    notes = root / "memory" / "sessions" / f"{SID}.notes.md"
    notes.symlink_to(outside / "secret.txt")
    with running(Workspace(root)) as client:
        reply = client.get(f"/api/sessions/{SID}")
        assert reply.status == 409
        assert reply.json()["kind"] == "OutsideRootError"
        assert "OUTSIDE-SECRET" not in reply.text
        notes.unlink()
        snapshot_file = root / "memory" / "sessions" / f"{SID}.md"
        snapshot_file.unlink()
        snapshot_file.symlink_to(outside / "secret.txt")
        page = client.get(f"/sessions/{SID}")
        assert page.status == 409 and "OUTSIDE-SECRET" not in page.text
    assert (outside / "secret.txt").read_text() == SECRET


def test_a_sessions_folder_linked_out_gets_no_new_snapshot(root: Path, outside: Path) -> None:
    _session(root)
    sessions = root / "memory" / "sessions"
    for path in sessions.iterdir():
        path.unlink()
    sessions.rmdir()
    sessions.symlink_to(outside, target_is_directory=True)
    before = snapshot(outside)

    register = workmem("session", "register", "--topic", "Docs", "--context", "x", root=root)
    update = workmem("session", "update", SID, "--context", "y", root=root)

    assert register.returncode == 4 and "memory/sessions is a link" in register.stderr
    assert update.returncode == 4
    assert changes(before, snapshot(outside)) == []
    assert "Docs" not in (root / "memory" / "index.md").read_text()


def test_a_state_folder_linked_out_gets_no_lock_or_index(root: Path, outside: Path) -> None:
    _session(root)
    state = root / "memory" / ".workmem"
    for path in sorted(state.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    state.rmdir()
    state.symlink_to(outside, target_is_directory=True)
    before = snapshot(outside)

    start = workmem("session", "start", root=root, env={"WORKMEM_NOW": "2026-05-25 13:30"})
    search = workmem("search", "rate", root=root)

    assert start.returncode == 4 and search.returncode == 4
    assert "Traceback" not in start.stderr + search.stderr
    assert changes(before, snapshot(outside)) == []


def test_a_settings_file_linked_out_is_refused(root: Path, outside: Path) -> None:
    (outside / "settings.toml").write_text('agent_name = "stolen"\n')
    (root / "workmem.toml").symlink_to(outside / "settings.toml")
    done = workmem("session", "start", root=root)
    assert done.returncode == 4 and "workmem.toml leads outside" in done.stderr
    assert not (root / "memory" / "index.md").exists()


# -- links that stay inside the root --------------------------------------------------------


def test_links_inside_the_root_still_work(root: Path) -> None:
    _session(root)
    sessions = root / "memory" / "sessions"
    shared = root / "memory" / "shared"
    shared.mkdir()
    (sessions / f"{SID}.md").rename(shared / "snapshot.md")
    (sessions / f"{SID}.md").symlink_to(Path("..") / "shared" / "snapshot.md")

    show = workmem("session", "show", SID, root=root)
    assert show.returncode == 0 and "Limit by IP" in show.stdout
    update = workmem("session", "update", SID, "--section", "Decisions=Also by account", root=root)
    assert update.returncode == 0, update.stderr
    assert (sessions / f"{SID}.md").is_symlink()
    assert "Also by account" in (shared / "snapshot.md").read_text()
    kinds = {f.kind for f in run_doctor(Workspace(root)).findings}
    assert "link-outside-root" not in kinds


def test_doctor_reports_each_link_that_leads_out(root: Path, outside: Path) -> None:
    _session(root)
    (root / "memory" / "sessions" / f"{SID}.notes.md").symlink_to(outside / "secret.txt")
    (root / "MEMORY.md").symlink_to(outside / "secret.txt")
    done = workmem("doctor", "--json", root=root)
    assert done.returncode == 1
    found = [f for f in json.loads(done.stdout)["findings"] if f["kind"] == "link-outside-root"]
    assert sorted(f["message"].split(" is a link")[0] for f in found) == [
        "MEMORY.md",
        f"memory/sessions/{SID}.notes.md",
    ]

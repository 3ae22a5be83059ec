"""Paths workmem did not create, on this system: a project under a CJK folder with spaces,
a transcript given as a ``file://`` URI, a quoted ``WORKMEM_ROOT``. (The Windows forms of the
same are checked with ``PureWindowsPath`` in ``test_oscompat``.)"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from workmem.demo_transcript import claude_code
from workmem.hooks.io import parse_input
from workmem.root import ENV, OPTION, locate_root

from ..safety.util import workmem

CLOUD = "我的雲端硬碟"


def test_hooks_work_in_a_cjk_folder_with_spaces_and_a_uri_transcript(tmp_path: Path) -> None:
    project = tmp_path / CLOUD / "My Project"
    (project / ".git").mkdir(parents=True)  # a project: hooks start memory only in one
    transcript = claude_code(project / "會話 1.jsonl", cwd=str(project))
    payload = {
        "session_id": "s-1",
        "cwd": str(project),
        "transcript_path": "file://" + quote(str(transcript)),
    }
    start = workmem(
        "hook", "SessionStart", "--platform", "claude-code", stdin=json.dumps(payload), cwd=tmp_path
    )
    assert start.returncode == 0 and "Your Memory Session ID is" in start.stdout
    prompt = {**payload, "prompt": "狀態更新"}
    workmem(
        "hook",
        "UserPromptSubmit",
        "--platform",
        "claude-code",
        stdin=json.dumps(prompt),
        cwd=tmp_path,
    )
    snapshots = list((project / "memory" / "sessions").glob("*.md"))
    assert snapshots, "the prompt hook found no transcript"
    assert "src/auth/limit.py" in snapshots[0].read_text()  # read from the transcript
    assert not (project / "memory" / ".workmem" / "hook.log").exists()


def test_payload_paths_are_cleaned_the_same_way_everywhere(tmp_path: Path) -> None:
    folder = tmp_path / CLOUD / "a b"
    raw = json.dumps(
        {"cwd": f'  "{folder}" ', "transcript_path": "file://" + quote(str(folder / "t.jsonl"))}
    )
    parsed = parse_input(raw, "claude-code", "session-start")
    assert parsed.cwd == folder
    assert parsed.transcript == folder / "t.jsonl"
    assert parse_input(json.dumps({"cwd": "   "}), "claude-code", "session-start").cwd is None


def test_roots_from_settings_with_quotes_spaces_and_cjk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / CLOUD / "vault one"
    folder.mkdir(parents=True)
    assert locate_root(f'"{folder}"') == (folder.resolve(), OPTION)
    monkeypatch.setenv("WORKMEM_ROOT", f" {folder} ")
    assert locate_root() == (folder.resolve(), ENV)
    done = workmem("session", "start", root=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "memory" / "index.md").is_file()

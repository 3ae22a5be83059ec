"""Hooks end to end: the real CLI entry, each platform's JSON, the files it leaves behind."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.cli import main
from workmem.demo_transcript import claude_code
from workmem.files.tables import TableDocument

FIXTURES = {
    "claude-code": "claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
    "codex": "codex/cclog-rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
    "gemini": "gemini-cli/agentsessions-gemini-small.json",
    "cursor": "cursor/agentsessions-cursor-small.jsonl",
    "openclaw": "openclaw/agentsessions-openclaw-small.jsonl",
}
START = {
    "claude-code": "SessionStart",
    "codex": "SessionStart",
    "gemini": "SessionStart",
    "cursor": "sessionStart",
    "openclaw": "agent:bootstrap",
}


def hook(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    platform: str,
    event: str,
    payload: dict[str, object],
) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["hook", event, "--platform", platform]) == 0
    return capsys.readouterr().out


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def _context(platform: str, out: str) -> str:
    data = json.loads(out)
    if platform == "cursor":
        return str(data["additional_context"])
    if platform == "openclaw":
        return str(data["context"])
    return str(data["hookSpecificOutput"]["additionalContext"])


def test_claude_code_session_lifecycle_on_a_built_transcript(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = claude_code(tmp_path / "sess-1.jsonl")
    base = {"session_id": "sess-1", "transcript_path": str(transcript), "cwd": str(root)}

    out = hook(capsys, monkeypatch, "claude-code", "SessionStart", {**base, "source": "startup"})
    context = _context("claude-code", out)
    sid = context.splitlines()[0].removeprefix("Your Memory Session ID is: ")
    assert rows(root)[sid]["Status"] == "idle"

    # The same platform session finds the same memory session, on every later hook.
    out = hook(
        capsys, monkeypatch, "claude-code", "UserPromptSubmit", {**base, "prompt": "狀態更新"}
    )
    assert "[workmem: 狀態更新]" in _context("claude-code", out)
    assert rows(root)[sid]["Status"] == "active"
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text()
    assert "src/auth/limit.py" in snapshot

    out = hook(capsys, monkeypatch, "claude-code", "PreCompact", {**base, "trigger": "auto"})
    assert "saved" in json.loads(out)["systemMessage"]
    assert (root / "memory" / "relay-snapshot.md").is_file()
    assert (root / "memory" / "sessions" / f"{sid}.notes.md").is_file()

    out = hook(capsys, monkeypatch, "claude-code", "SessionStart", {**base, "source": "compact"})
    context = _context("claude-code", out)
    assert context.startswith(f"Your Memory Session ID is: {sid}")
    # One document: the request and the files once each, no empty "None" sections.
    # once: a title that only repeats the first message is no heading
    assert context.count("Add rate limiting to the login endpoint") == 1
    assert "## Last request" in context and context.count("src/auth/limit.py") == 2
    assert "None" not in context
    assert len(rows(root)) == 1  # no second registration after the compaction

    assert hook(capsys, monkeypatch, "claude-code", "SessionEnd", {**base, "reason": "exit"}) == ""
    assert list((root / "memory").glob("2026-05-25.md"))
    assert "memory session" in (root / "memory" / "resumption.md").read_text()


@pytest.mark.parametrize("platform", sorted(FIXTURES))
def test_every_platform_with_its_real_fixture(
    platform: str,
    shared_dir: Path,
    root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    transcript = shared_dir / "fixtures" / "transcripts" / FIXTURES[platform]
    key = {"cursor": "conversation_id", "openclaw": "sessionKey"}.get(platform, "session_id")
    payload: dict[str, object] = {key: f"{platform}-1", "transcript_path": str(transcript)}
    payload["cwd" if platform != "openclaw" else "workspaceDir"] = str(root)
    out = hook(capsys, monkeypatch, platform, START[platform], {**payload, "source": "startup"})
    context = _context(platform, out)
    sid = context.splitlines()[0].removeprefix("Your Memory Session ID is: ")
    assert sid.startswith(f"2026-05-25-1318-{platform}-main-agent")
    prompt_event = {
        "claude-code": "UserPromptSubmit",
        "codex": "UserPromptSubmit",
        "gemini": "BeforeAgent",
        "cursor": "beforeSubmitPrompt",
        "openclaw": "message:received",
    }[platform]
    hook(capsys, monkeypatch, platform, prompt_event, {**payload, "prompt": "整理這個 session"})
    assert rows(root)[sid]["Status"] == "active"
    compact = {
        "claude-code": "PreCompact",
        "codex": "PreCompact",
        "gemini": "PreCompress",
        "cursor": "preCompact",
        "openclaw": "session:compact:before",
    }[platform]
    # a /compact (Gemini CLI also asks before every request; only a compression saves)
    hook(capsys, monkeypatch, platform, compact, {**payload, "trigger": "manual"})
    assert (root / "memory" / "relay-snapshot.md").is_file()
    assert not (root / "memory" / ".workmem" / "hook.log").exists()


def test_hook_fails_open_on_a_corrupt_board(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    board = root / "memory" / "index.md"
    board.parent.mkdir(parents=True)
    board.write_text("| not | the board |\n|---|---|\n")
    out = hook(capsys, monkeypatch, "claude-code", "SessionStart", {"session_id": "x"})
    # The board costs its own parts only: no ID, one line saying so, the rest of the start.
    context = _context("claude-code", out)
    assert context.startswith("No Memory Session ID yet") and "workmem doctor" in context
    assert "## Using memory" in context
    assert "expected" in (root / "memory" / ".workmem" / "hook.log").read_text()
    assert board.read_text() == "| not | the board |\n|---|---|\n"


def test_hook_fails_open_when_memory_cannot_be_created(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "memory").write_text("a file where the folder should be")
    assert hook(capsys, monkeypatch, "cursor", "sessionStart", {"conversation_id": "c"}) == ""


def test_hook_deadline_fails_open(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from workmem.cli import hooks_cmds
    from workmem.hooks import handlers

    monkeypatch.setattr(hooks_cmds, "DEFAULT_DEADLINE", 0.2)
    monkeypatch.setitem(handlers.HANDLERS, "user-prompt-submit", lambda run: time.sleep(3))
    started = time.monotonic()
    assert hook(capsys, monkeypatch, "claude-code", "UserPromptSubmit", {"prompt": "hi"}) == ""
    assert time.monotonic() - started < 2
    assert "deadline" in (root / "memory" / ".workmem" / "hook.log").read_text()


def test_unknown_event_is_logged_not_raised(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert hook(capsys, monkeypatch, "claude-code", "Teleport", {}) == ""


def test_real_process_with_garbage_stdin_exits_zero(root: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "workmem", "hook", "SessionStart", "--platform", "claude-code"],
        input="this is not json",
        capture_output=True,
        text=True,
        env={**os.environ},
        check=False,
    )
    assert proc.returncode == 0
    assert "Your Memory Session ID is:" in proc.stdout  # registered even without a session id


def test_say_detects_and_runs(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["say", "整理 memory", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["intent"]["workflow"] == "organize"
    assert main(["say", "hello there"]) == 1
    capsys.readouterr()
    assert main(["say", "註冊 memory session", "--run"]) == 0
    assert capsys.readouterr().out.startswith("Your Memory Session ID is: ")
    assert main(["say", "整理 memory", "--run", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["result"]
    assert result["ok"] is True and "已整理 memory/index.md" in result["text"]


@pytest.mark.parametrize(
    "platform, event, seconds",
    [
        ("claude-code", "PreCompact", 25.0),
        ("gemini", "PreCompress", 25.0),
        ("cursor", "sessionEnd", 60.0),
        ("claude-code", "UserPromptSubmit", 8.0),
    ],
)
def test_each_event_gets_its_own_deadline(
    root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    platform: str,
    event: str,
    seconds: float,
) -> None:
    from workmem.hooks import runner

    seen: list[float] = []

    def record(work: object, *, workspace: object, where: str, seconds: float) -> str:
        seen.append(seconds)
        return ""

    monkeypatch.setattr(runner, "run_fail_open", record)
    hook(capsys, monkeypatch, platform, event, {})
    assert seen == [seconds]


def test_prompt_hook_stays_off_heavy_imports(root: Path, tmp_path: Path) -> None:
    """Guards the hook's speed without timing it: an ordinary prompt below every context
    threshold must not import the transcript model, discovery, hashing or the search index."""
    transcript = claude_code(tmp_path / "t.jsonl", cwd=str(root))
    payload = json.dumps(
        {"session_id": "s", "transcript_path": str(transcript), "cwd": str(root), "prompt": "hi"}
    )
    code = (
        "import sys, json\n"
        "from workmem.cli import main\n"
        "sys.argv = ['workmem', 'hook', 'UserPromptSubmit', '--platform', 'claude-code']\n"
        "main()\n"
        "heavy = ['workmem.transcripts.model', 'workmem.transcripts.discover', 'hashlib',\n"
        "         'workmem.retrieval.search', 'workmem.board.cleanup', 'sqlite3']\n"
        "sys.stderr.write(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    for _ in range(2):  # the second call finds the transcript unchanged
        proc = subprocess.run(
            [sys.executable, "-c", code],
            input=payload,
            capture_output=True,
            text=True,
            check=True,
        )
    assert json.loads(proc.stderr) == []


def test_optional_recall_on_prompt(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import date

    from workmem.files.store import Store
    from workmem.journal.daily import append_entry
    from workmem.root import Workspace

    append_entry(
        Store(Workspace(root)), date(2026, 5, 20), "Decision", "Rate limits live in Redis."
    )
    payload: dict[str, object] = {
        "session_id": "s",
        "cwd": str(root),
        "prompt": "where do the rate limits live",
    }
    assert hook(capsys, monkeypatch, "claude-code", "UserPromptSubmit", payload) == ""
    (root / "workmem.toml").write_text("[hooks]\nrecall_tokens = 300\n")
    out = hook(capsys, monkeypatch, "claude-code", "UserPromptSubmit", payload)
    assert "Rate limits live in Redis." in _context("claude-code", out)


def test_session_end_makes_the_transcript_searchable_when_transcripts_are_on(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.errors import LockTimeoutError
    from workmem.retrieval.index import SearchIndex
    from workmem.retrieval.search import index_transcript, search
    from workmem.root import Workspace

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (root / "workmem.toml").write_text("[search]\ntranscripts = true\n", encoding="utf-8")
    transcript = claude_code(tmp_path / "sess-1.jsonl")
    base: dict[str, object] = {
        "session_id": "sess-1",
        "transcript_path": str(transcript),
        "cwd": str(root),
    }
    hook(capsys, monkeypatch, "claude-code", "SessionStart", {**base, "source": "startup"})
    workspace = Workspace(root)
    assert search(workspace, "rate limiting", kinds=["transcript"]) == []

    # While a reindex holds the index the hook does not wait: it leaves the work to it.
    with SearchIndex(workspace).lock():
        with pytest.raises(LockTimeoutError):
            index_transcript(workspace, transcript, wait=0.2)
        assert hook(capsys, monkeypatch, "claude-code", "SessionEnd", base) == ""
    assert search(workspace, "rate limiting", kinds=["transcript"]) == []

    assert hook(capsys, monkeypatch, "claude-code", "SessionEnd", base) == ""
    hits = search(workspace, "rate limiting", kinds=["transcript"])
    assert hits and {h.path for h in hits} == {str(transcript.resolve())}

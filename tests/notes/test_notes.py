"""Seed 003: the ten-section notes, gates, the heuristic and LLM extractors, detached runs."""

from __future__ import annotations

import contextlib
import json
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import FormatError, UsageError
from workmem.notes import template
from workmem.notes.gates import GateState, NotesSettings, decide
from workmem.notes.llm import LlmConfig, extract_with_llm
from workmem.notes.validate import ExtractionError, enforce_budget
from workmem.notes.workflow import compaction_seed, run_detached, update_notes, view_notes
from workmem.root import Workspace

from ..transcripts.util import ClaudeWriter, claude_project, run_cli

SID = "2026-05-25-1318-claude-code-main-agent"
SECRET = "sk-ant-api03-Qq1Ww2Ee3Rr4Tt5Yy6Uu7Ii8Oo9Pp0AaSs"


def work_session(cwd: Path, used: int = 30_000) -> ClaudeWriter:
    w = ClaudeWriter(session="cc-1", cwd=str(cwd))
    w.user("Add retry logic to the HTTP client")
    w.assistant(
        "Planning.",
        tools=[
            w.tool_use(
                "TodoWrite",
                "p",
                todos=[
                    {"content": "Write retry loop", "status": "completed"},
                    {"content": "Add backoff tests", "status": "in_progress"},
                    {"content": "Update docs", "status": "pending"},
                ],
            )
        ],
    )
    w.result("p", "ok")
    w.assistant(tools=[w.tool_use("Read", "r", file_path=f"{cwd}/client/base.py")])
    w.result("r", "class Base: ...")
    w.assistant(
        tools=[
            w.tool_use(
                "Edit",
                "e",
                file_path=f"{cwd}/client/http.py",
                old_string="x",
                new_string="def fetch_with_retry(url):\n    ...",
            )
        ]
    )
    w.result("e", "ok")
    w.assistant(tools=[w.tool_use("Bash", "b1", command="pytest tests/test_http.py")])
    w.result("b1", "E   TimeoutError: read timed out", is_error=True)
    w.assistant("The test times out; lowering the backoff.")
    w.user(f"no, don't change the timeout, mock the clock instead. my key: {SECRET}")
    w.assistant(tools=[w.tool_use("Bash", "b2", command="pytest tests/test_http.py")])
    w.result("b2", "3 passed")
    w.assistant(
        "All 3 tests pass.",
        usage={
            "input_tokens": used,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 9,
        },
    )
    return w


@pytest.fixture
def transcript(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "WORKMEM_TRANSCRIPT", "WORKMEM_SESSION_ID"):
        monkeypatch.delenv(name, raising=False)
    return work_session(root).write(claude_project(home, root) / "cc-1.jsonl")


def test_heuristic_notes_have_the_ten_sections_and_the_facts(root: Path, transcript: Path) -> None:
    result = update_notes(Workspace(root), session_id=SID, transcript=transcript)
    assert result.ran and result.reason == "forced"
    text = result.path.read_text()
    assert result.path == root / "memory" / "sessions" / f"{SID}.notes.md"
    for name, purpose in template.SECTIONS:
        assert f"## {name}\n_{purpose}_\n" in text
    notes = template.parse(text)
    assert "In progress: Add backoff tests" in notes["Current State"]
    assert "Pending: Update docs" in notes["Current State"]
    assert "Add retry logic to the HTTP client" in notes["Task Specification"]
    assert notes["Workflow"] == "- `pytest tests/test_http.py` (×2)"
    assert (
        "`client/http.py` — modified; functions: fetch_with_retry" in notes["Files and Functions"]
    )
    assert "`client/base.py`" in notes["Codebase Documentation"]
    errors = notes["Errors and Corrections"]
    assert "failed (resolved): E TimeoutError: read timed out" in errors
    assert "→ next: The test times out; lowering the backoff." in errors
    assert "User correction: no, don't change the timeout" in errors
    assert notes["Key Results"].endswith("All 3 tests pass.")
    assert notes["Worklog"].count("\n") == 1  # two user rounds
    assert SECRET not in text and result.secrets_removed >= 1


def test_gates_from_settings_and_counters(root: Path, transcript: Path) -> None:
    (root / "workmem.toml").write_text(
        "[session_memory]\nminimum_tokens_to_init = 40000\nminimum_tokens_between_updates = 5000\n"
    )
    ws = Workspace(root)
    first = update_notes(ws, session_id=SID, transcript=transcript, gated=True)
    assert not first.ran and "< minimum_tokens_to_init 40,000" in first.reason
    assert not (root / "memory" / "sessions").exists()
    (root / "workmem.toml").write_text("[session_memory]\nminimum_tokens_to_init = 20000\n")
    assert update_notes(ws, session_id=SID, transcript=transcript, gated=True).ran
    again = update_notes(ws, session_id=SID, transcript=transcript, gated=True)
    assert not again.ran and "grew 0 tokens" in again.reason
    state = json.loads((root / "memory" / ".workmem" / "notes" / f"{SID}.json").read_text())
    assert state["extractions"] == 1 and state["last_tokens"] == 30_000
    (root / "workmem.toml").write_text("[session_memory]\nenabled = false\n")
    assert "disabled" in update_notes(ws, session_id=SID, transcript=transcript, gated=True).reason
    (root / "workmem.toml").write_text("[session_memory]\nenabled = 'yes'\n")
    with pytest.raises(FormatError, match="enabled must be bool"):
        update_notes(ws, session_id=SID, transcript=transcript, gated=True)


def test_gate_decisions() -> None:
    s = NotesSettings()
    assert not decide(s, GateState(), 9_999).run and decide(s, GateState(), 10_000).run
    done = GateState(last_tokens=20_000, extractions=1)
    assert not decide(s, done, 24_999).run and decide(s, done, 25_000).run
    assert decide(s, done, 6_000).run  # after a compaction growth counts from zero


def test_a_hand_edited_notes_file_is_read_tolerantly_and_the_save_goes_on(
    root: Path, transcript: Path
) -> None:
    path = root / "memory" / "sessions" / f"{SID}.notes.md"
    path.parent.mkdir(parents=True)
    path.write_text(
        "## Session Title\n_changed description_\nMy title\n\n## My Own Notes\n- keep me\n"
    )
    result = update_notes(Workspace(root), session_id=SID, transcript=transcript)
    assert result.ran
    text = path.read_text()
    notes = template.read(text)
    assert notes.sections["Session Title"] == "My title"  # the title is kept once set
    assert ("## My Own Notes", "- keep me") in [(h, b.strip()) for h, b in notes.extra]
    assert [n for n in template.NAMES if f"## {n}\n" in text] == list(template.NAMES)
    for bad in ("../escape", "a/b", ".."):
        with pytest.raises(UsageError):
            update_notes(Workspace(root), session_id=bad, transcript=transcript)


def test_budget_condenses_oversized_sections() -> None:
    contents = {name: "" for name in template.NAMES}
    contents["Worklog"] = "\n".join(f"- step {n} " + "detail " * 40 for n in range(400))
    contents["Key Results"] = "result " * 30000
    from workmem.retrieval.tokens import count_tokens

    fitted, notes = enforce_budget(contents)
    assert all(count_tokens(v) <= 2100 for v in fitted.values())
    assert sum(count_tokens(v) for v in fitted.values()) <= 12000
    assert "step 399" in fitted["Worklog"] and "step 0 " not in fitted["Worklog"]  # oldest go
    assert "condensed Worklog" in notes


def test_seed_and_view(root: Path, transcript: Path) -> None:
    ws = Workspace(root)
    with pytest.raises(Exception, match="no session notes yet"):
        view_notes(ws, SID)
    update_notes(ws, session_id=SID, transcript=transcript)
    seed = compaction_seed(ws, SID)
    assert seed.startswith("This session is being continued")
    assert "## Current State" in seed and "## Learnings" not in seed  # empty sections left out


# ---- LLM extractor against a real local HTTP server ----------------------------------------


class FakeLLM:
    def __init__(self, answers: list[Any], delay: float = 0.0):
        self.answers = answers
        self.delay = delay
        self.requests: list[dict[str, Any]] = []

    def handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                fake.requests.append(
                    {
                        "path": self.path,
                        "body": body,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                    }
                )
                time.sleep(fake.delay)
                answer = fake.answers[min(len(fake.requests) - 1, len(fake.answers) - 1)]
                if isinstance(answer, int):
                    self.send_response(answer)
                    self.end_headers()
                    return
                if self.path.endswith("/v1/messages"):
                    payload = {"content": [{"type": "text", "text": answer}]}
                else:
                    payload = {"choices": [{"message": {"role": "assistant", "content": answer}}]}
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                with contextlib.suppress(OSError):  # the client gave up (timeout test)
                    self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        return Handler


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[ThreadingHTTPServer] = []

    def start(fake: FakeLLM) -> str:
        server = ThreadingHTTPServer(("127.0.0.1", 0), fake.handler())
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def edits(**sections: str) -> str:
    return json.dumps(
        {"edits": [{"section": k.replace("_", " "), "content": v} for k, v in sections.items()]}
    )


def test_llm_extractor_openai_compatible_end_to_end(
    root: Path, transcript: Path, serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeLLM(
        [
            edits(
                Current_State="Mocking the clock in test_http.py",
                Learnings="Mock time, never sleep",
            )
        ]
    )
    url = serve(fake)
    monkeypatch.setenv("TEST_LLM_KEY", "local-test-key")
    (root / "workmem.toml").write_text(
        f'[session_memory]\nextractor = "llm"\n[llm]\nprovider = "openai"\nbase_url = "{url}"\n'
        'model = "fake-model"\napi_key_env = "TEST_LLM_KEY"\n'
    )
    result = update_notes(Workspace(root), session_id=SID, transcript=transcript)
    assert result.ran and result.extractor == "llm"
    notes = template.parse(result.path.read_text())
    assert notes["Current State"] == "Mocking the clock in test_http.py"
    assert notes["Learnings"] == "Mock time, never sleep"
    request = fake.requests[0]
    assert request["path"] == "/chat/completions" and request["body"]["model"] == "fake-model"
    assert request["headers"].get("authorization") == "Bearer local-test-key", request["headers"]
    assert SECRET not in json.dumps(request["body"])  # the transcript was redacted before sending


def test_llm_invalid_answers_are_retried_then_refused(serve: Any) -> None:
    good = edits(Worklog="- did things")
    fake = FakeLLM(["not json at all", edits(Secret_Section="x"), good])
    config = LlmConfig("anthropic", serve(fake), "claude-x")
    assert extract_with_llm(config, "notes", "talk") == {"Worklog": "- did things"}
    assert len(fake.requests) == 3 and fake.requests[0]["path"] == "/v1/messages"
    assert "Refused: unknown notes section" in json.dumps(fake.requests[2]["body"]["messages"])
    # Content that looks like structure is not refused: the writer makes it text.
    forged_text = "## Session Title\n_A short, distinctive title for the session_"
    forged = FakeLLM([edits(Worklog=forged_text)])
    answer = extract_with_llm(LlmConfig("openai", serve(forged), "m"), "notes", "talk")
    assert answer == {"Worklog": forged_text} and len(forged.requests) == 1
    written = template.read(template.render(SID, answer))
    assert written.sections["Session Title"] == "" and not written.problems
    assert written.sections["Worklog"].startswith("\\## Session Title")


def test_llm_failures_leave_notes_unchanged_and_are_logged(
    root: Path, transcript: Path, serve: Any
) -> None:
    ws = Workspace(root)
    update_notes(ws, session_id=SID, transcript=transcript)
    before = (root / "memory" / "sessions" / f"{SID}.notes.md").read_bytes()
    url = serve(FakeLLM([500]))
    (root / "workmem.toml").write_text(
        f'[llm]\nprovider = "openai"\nbase_url = "{url}"\nmodel = "m"\n'
    )
    result = update_notes(ws, session_id=SID, transcript=transcript, extractor="llm")
    assert not result.ran and "HTTP 500" in (result.failed or "")
    assert (root / "memory" / "sessions" / f"{SID}.notes.md").read_bytes() == before
    assert "HTTP 500" in (root / "memory" / ".workmem" / "notes" / "extractor.log").read_text()
    slow = serve(FakeLLM([edits(Worklog="late")], delay=1.5))
    with pytest.raises(ExtractionError, match=r"unreachable|ran out"):
        extract_with_llm(LlmConfig("openai", slow, "m"), "n", "t", max_seconds=0.5)


def test_detached_run_returns_at_once_and_writes(root: Path, transcript: Path) -> None:
    started = time.monotonic()
    pid = run_detached(Workspace(root), session_id=SID, transcript=transcript, gated=False)
    assert pid > 0 and time.monotonic() - started < 1.0
    target = root / "memory" / "sessions" / f"{SID}.notes.md"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not target.exists():
        time.sleep(0.1)
    assert target.exists() and "## Worklog" in target.read_text()


def test_cli_notes_extract_view_seed(
    root: Path,
    transcript: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mod = "workmem.cli.notes_cmds"
    monkeypatch.setenv("WORKMEM_TRANSCRIPT", str(transcript))
    code, out, _ = run_cli(capsys, mod, "notes", "--session", SID)
    assert code == 0 and out.startswith(f"# Session Notes: {SID}")
    code, out, _ = run_cli(capsys, mod, "notes", "--session", SID, "--view", "--json")
    assert code == 0 and json.loads(out)["session_id"] == SID
    code, out, _ = run_cli(capsys, mod, "notes", "seed", "--session", SID)
    assert code == 0 and "## Current State" in out


def test_notes_from_a_terminal_resolve_the_memory_session_as_the_hooks_do(
    root: Path,
    transcript: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mod = "workmem.cli.notes_cmds"
    monkeypatch.setenv("WORKMEM_TRANSCRIPT", str(transcript))
    code, out, _ = run_cli(capsys, mod, "notes", "--view")
    assert code == 3  # nothing linked yet: not found, and nothing written
    assert not (root / "memory" / "sessions").exists()
    code, out, _ = run_cli(capsys, mod, "notes")  # no --session: linked like a session start
    sid = "2026-05-25-1318-claude-code-main-agent"
    assert code == 0 and out.startswith(f"# Session Notes: {sid}")
    assert not (root / "memory" / "sessions" / "cc-1.notes.md").exists()  # no orphan
    code, out, _ = run_cli(capsys, mod, "notes", "--view", "--json")
    assert code == 0 and json.loads(out)["session_id"] == sid
    run_cli(capsys, mod, "notes")
    board = (root / "memory" / "index.md").read_text()
    assert board.count("claude-code-main-agent") == 2  # one row (ID and agent name), not two


def test_notes_end_to_end_on_the_real_claude_fixture(
    root: Path, transcript: Path, fixtures: Path
) -> None:
    source = fixtures / "claude-code" / "ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
    copy = transcript.parent / source.name
    shutil.copy(source, copy)
    result = update_notes(Workspace(root), session_id=SID, transcript=copy)
    notes = template.parse(result.path.read_text())
    assert "- `ls -la`" in notes["Workflow"]
    assert "Write `CLAUDE.md` failed (unresolved)" in notes["Errors and Corrections"]
    assert "Done (1): Create CLAUDE.md with essential information" in notes["Current State"]
    assert result.tokens == 17437


def test_heuristic_notes_fill_what_only_the_conversation_says(root: Path, tmp_path: Path) -> None:
    """Seed 003's sections the hooks cannot see: Codebase Documentation and Learnings come
    from what was said; Key Results hold results, not the replies' ordinary sentences."""
    w = ClaudeWriter(session="cc-2", cwd=str(root))
    w.user("The HTTP tests hang. Always mock the clock in this repo.")
    w.assistant(
        "`Client.fetch` wraps every request in the retry loop. It turns out the backoff "
        "slept for real, so the tests waited 30 s each. I'll switch them to a fake clock."
    )
    w.user("How long does the suite take now?")
    w.assistant("It takes 4.2 s now.\n\nI'll commit it next.")
    notes_path = w.write(tmp_path / "cc-2.jsonl")
    result = update_notes(Workspace(root), session_id=SID, transcript=notes_path)
    notes = template.parse(result.path.read_text())
    assert (
        "- `Client.fetch` wraps every request in the retry loop." in notes["Codebase Documentation"]
    )
    learned = notes["Learnings"]
    assert "It turns out the backoff slept for real" in learned
    assert "User: Always mock the clock in this repo." in learned
    results = notes["Key Results"]
    assert "Q: How long does the suite take now?\nA: It takes 4.2 s now." in results
    assert "I'll commit it next" not in results and "I'll switch them" not in results
    # a second extraction keeps what is there and adds nothing twice
    again = update_notes(Workspace(root), session_id=SID, transcript=notes_path)
    assert template.parse(again.path.read_text())["Learnings"] == learned

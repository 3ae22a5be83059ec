"""``make demo``: workmem inside an agent, on a fresh temporary workspace.

The main job: hooks are installed for Claude Code, a recorded Claude Code session is
replayed through the hook events as the agent would fire them (session start, each user
prompt, a trigger phrase, pre-compact, session end), and a second session starts. The
demo prints the board, the session document, the notes and exactly what the next session
is given. Then a wrap-up with long-term memories and the working-memory loader.

The recorded transcript is ``../shared/fixtures/transcripts/claude-code/…`` when present,
else a small session of our own (``demo_transcript``). Every step runs the real CLI; the
clock is pinned with ``WORKMEM_NOW``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from .cli import main as cli_main

RECORDED = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "transcripts"
RECORDED_SESSION = RECORDED / "claude-code" / "ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"


def run(*argv: str, stdin: str | None = None, show: bool = True, expect: int = 0) -> str:
    """Run one CLI command in-process, echo it and its output, return stdout."""
    if show:
        print(f"\n$ workmem {shlex.join(argv)}")
    buffer, errors = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(errors):
            code = cli_main(list(argv))
    finally:
        sys.stdin = old_stdin
    out = buffer.getvalue()
    if show:
        print((out + errors.getvalue()).rstrip())
    if code != expect:
        raise SystemExit(f"demo step failed with exit code {code}: workmem {shlex.join(argv)}")
    return out


def hook(event: str, payload: Mapping[str, object]) -> str:
    """Fire one Claude Code hook event and return what Claude Code would inject."""
    out = run("hook", event, "--platform", "claude-code", stdin=json.dumps(payload), show=False)
    if not out.strip():
        return ""
    data = json.loads(out)
    specific = data.get("hookSpecificOutput", {})
    return str(specific.get("additionalContext") or data.get("systemMessage") or "")


def _user_prompt(line: str) -> str | None:
    """The text of a real user prompt in a Claude Code JSONL line (not a tool result)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return None
    if record.get("type") != "user" or record.get("isMeta") or record.get("isSidechain"):
        return None
    content = record.get("message", {}).get("content")
    if isinstance(content, str):
        return content.strip() or None
    if isinstance(content, list):
        texts = [
            c.get("text", "") for c in content if isinstance(c, dict) and c.get("type") == "text"
        ]
        return " ".join(t for t in texts if t).strip() or None
    return None


def _show(title: str, text: str, limit: int = 40) -> None:
    lines = text.rstrip().splitlines()
    print(f"\n--- {title} ---")
    print("\n".join(lines[:limit]))
    if len(lines) > limit:
        print(f"… ({len(lines) - limit} more lines)")


def agent_demo(root: Path, source: Path) -> None:
    print("== workmem inside Claude Code: hooks, a replayed session, the next session ==")
    run("hooks", "install", "--platform", "claude-code")
    # Where Claude Code keeps this project's transcripts, so the next session finds it.
    home = Path(os.environ["HOME"])
    folder = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root))
    folder.mkdir(parents=True)
    live = folder / "demo-session-1.jsonl"
    live.write_text("", encoding="utf-8")
    base = {"session_id": "demo-session-1", "transcript_path": str(live), "cwd": str(root)}

    print("\n[SessionStart] Claude Code starts; workmem registers the session:")
    print(hook("SessionStart", {**base, "source": "startup"}).splitlines()[0])

    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    prompts = 0
    with live.open("a", encoding="utf-8") as transcript:
        for line in lines:
            prompt = _user_prompt(line)
            if prompt is not None:
                prompts += 1
                answer = hook("UserPromptSubmit", {**base, "prompt": prompt})
                shown = prompt if len(prompt) < 70 else prompt[:67] + "..."
                print(f"[UserPromptSubmit] {shown!r} -> {answer or '(nothing injected)'}")
            transcript.write(line if line.endswith("\n") else line + "\n")
    print(f"(replayed {len(lines)} transcript lines, {prompts} user prompts)")

    print('\n[UserPromptSubmit] the user says 狀態更新 ("status update", a trigger phrase):')
    print(hook("UserPromptSubmit", {**base, "prompt": "狀態更新"}))
    print("\n[PreCompact] before compaction: notes, snapshot and relay snapshot saved:")
    print(hook("PreCompact", {**base, "trigger": "auto"}))
    print("\n[SessionEnd]")
    hook("SessionEnd", {**base, "reason": "exit"})

    sid = next(
        p.stem
        for p in sorted((root / "memory" / "sessions").glob("*.md"))
        if ".notes" not in p.name
    )
    _show("memory/index.md (the board)", (root / "memory" / "index.md").read_text())
    _show(f"memory/sessions/{sid}.md", (root / "memory" / "sessions" / f"{sid}.md").read_text())
    _show(
        f"memory/sessions/{sid}.notes.md",
        (root / "memory" / "sessions" / f"{sid}.notes.md").read_text(),
        limit=30,
    )

    os.environ["WORKMEM_NOW"] = "2026-05-26 09:00"
    second = {"session_id": "demo-session-2", "cwd": str(root), "source": "startup"}
    _show(
        "what the next session is given (SessionStart, next morning)",
        hook("SessionStart", second),
        limit=60,
    )


WRAP_MEMORIES = """\
- type: project
  topic: demo-app
  description: login rate limiting in progress
  content: |
    ## Status
    Rate limiting added to the login endpoint; counters in Redis.
- type: feedback
  topic: testing
  description: integration tests need a real database
  content: Integration tests must use a real database, not mocks.
"""


def long_term_demo(root: Path) -> None:
    print("\n\n== Long-term memory: wrap-up, then the working-memory loader ==")
    run("wrap", "--platform", "claude-code", "--lang", "en", "--no-bootstrap", stdin=WRAP_MEMORIES)
    run("note", "decision", "Counters live in Redis", "--why", "shared across app servers")
    run(
        "event",
        "add",
        "--type",
        "milestone",
        "--text",
        "Rate limiting shipped to staging yesterday.",
        "--object",
        "rate limiting",
    )
    run(
        "end",
        "--summary",
        "Login rate limiting done; metrics next.",
        "--resumption",
        "-",
        stdin="Next I add metrics for rejected logins; the user wants a dashboard.\n",
    )
    os.environ["WORKMEM_NOW"] = "2026-05-27 10:00"
    run("load", "What did we ship yesterday?")
    run("doctor")


def main() -> int:
    source = RECORDED_SESSION
    with tempfile.TemporaryDirectory(prefix="workmem-demo-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        os.environ["WORKMEM_ROOT"] = str(root)
        os.environ["WORKMEM_NOW"] = "2026-05-25 13:18"
        os.environ["WORKMEM_PLATFORM"] = "claude-code"
        os.environ["HOME"] = str(Path(tmp) / "home")  # discovery looks at an empty home
        # the replay reads each hook's result at once: session end is not handed to a
        # detached process here, as it is inside an agent
        os.environ["WORKMEM_HOOK_FOREGROUND"] = "1"
        if not source.is_file():
            from .demo_transcript import claude_code

            source = claude_code(Path(tmp) / "embedded-session.jsonl", cwd=str(root))
            print("(../shared is absent: replaying workmem's own embedded sample session)")
        print(f"workmem demo in a fresh workspace: {root}\nreplaying: {source.name}\n")
        agent_demo(root, source)
        long_term_demo(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())

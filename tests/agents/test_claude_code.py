"""Claude Code itself (``@anthropic-ai/claude-code`` from npm), hooks installed by
``workmem setup``, a scripted session, a compaction and a resume.

Claude Code is pointed at the fake model with ``ANTHROPIC_BASE_URL`` and a dummy key; it
reads the project's ``.claude/settings.json`` hooks, writes its real transcript under
``~/.claude/projects/`` and sends the context a SessionStart hook returns with the next
request (hooks reference: https://code.claude.com/docs/en/hooks).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Sandbox, board_rows, client, wait_for
from .fake_model import Scenario, Step, hook_context, plan_and_edit, serve

pytestmark = pytest.mark.slow

PROMPT = "[[build]] Write a token-bucket rate limiter in ratelimit.py"


def _claude(sandbox: Sandbox, claude: Path, *args: str) -> dict[str, object]:
    proc = sandbox.run_ok(
        [
            str(claude),
            "-p",
            *args,
            "--output-format",
            "json",
            "--permission-mode",
            "acceptEdits",
            "--allowedTools",
            "Write TaskCreate TaskUpdate TodoWrite",
        ]
    )
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    return result


def test_claude_code_session_compaction_and_resume(sandbox: Sandbox) -> None:
    claude = client("claude")
    installed = sandbox.workmem("setup", "--platform", "claude-code")
    assert installed.returncode == 0, installed.stderr
    # the hooks name this checkout's virtualenv, a path of this machine: Claude Code's
    # personal settings file, not the shared one
    assert not (sandbox.project / ".claude" / "settings.json").exists()
    settings = json.loads((sandbox.project / ".claude" / "settings.local.json").read_text())
    assert set(settings["hooks"]) == {
        "SessionStart",
        "UserPromptSubmit",
        "PreCompact",
        "Stop",
        "SessionEnd",
    }

    target = sandbox.project / "ratelimit.py"
    scenarios = [
        plan_and_edit("[[build]]", str(target)),
        Scenario("[[resume]]", [Step("text", text="We were writing the rate limiter.")]),
    ]
    with serve(scenarios) as (url, model):
        sandbox.env.update(
            {
                "ANTHROPIC_BASE_URL": url,
                "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
            }
        )
        first = _claude(sandbox, claude, PROMPT)
        session = str(first["session_id"])
        assert target.is_file(), "the scripted edit was not made"
        transcripts = list((sandbox.home / ".claude" / "projects").glob(f"*/{session}.jsonl"))
        assert transcripts, "Claude Code wrote no transcript"

        # SessionStart registered the session on the board and mapped it to Claude's id.
        rows = board_rows(sandbox.project)
        assert len(rows) == 1
        (sid,) = rows

        _claude(sandbox, claude, "--resume", session, "/compact")
        notes = sandbox.project / "memory" / "sessions" / f"{sid}.notes.md"
        assert notes.is_file(), f"pre-compact saved no notes\n{sandbox.hook_log()}"
        assert (sandbox.project / "memory" / "relay-snapshot.md").is_file()

        before = len(model.model_requests())
        _claude(sandbox, claude, "--resume", session, "[[resume]] where were we?")
        resumed = [r for r in model.model_requests()[before:] if "[[resume]]" in r.text]
        assert resumed, "the resumed prompt never reached the model"

    # Session end runs detached after Claude Code exits: wait for its daily-log entry.
    daily = sandbox.project / "memory"
    wait_for(
        lambda: any(daily.glob("20??-??-??.md")) and (daily / "resumption.md").is_file(),
        what=f"the session-end save\n{sandbox.hook_log()}",
    )
    assert len(board_rows(sandbox.project)) == 1, "the resume registered a second session"
    snapshot = (sandbox.project / "memory" / "sessions" / f"{sid}.md").read_text()
    assert "ratelimit.py" in snapshot
    assert sandbox.hook_log() == "", sandbox.hook_log()

    # What the model received from workmem after the resume: the memory session, the
    # request, the file and the plan item.
    seen = hook_context(resumed[0], "SessionStart hook additional context:")
    assert f"Your Memory Session ID is: {sid}" in seen
    assert "token-bucket rate limiter" in seen
    assert "ratelimit.py" in seen
    if "Write the rate limiter" not in seen:
        pytest.xfail(
            "the plan item (Claude Code's TaskCreate) is not in the context workmem returns "
            "after the resume (context content, being rebuilt in issue 11)"
        )

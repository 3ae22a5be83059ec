"""Gemini CLI itself (``@google/gemini-cli`` from npm): folder trust, a scripted session, an
automatic compression, a resume and the prompt after it.

Gemini CLI is pointed at the fake model with ``GOOGLE_GEMINI_BASE_URL`` and a dummy
``GEMINI_API_KEY`` (packages/core/src/core/contentGenerator.ts). In a folder that is not
trusted it skips every hook (packages/core/src/hooks/hookRegistry.ts), so the test first
sees them skipped, then trusts the folder as the user would (``~/.gemini/
trustedFolders.json``). No SessionStart follows a compression (its sources are startup,
resume and clear: packages/core/src/hooks/types.ts), so the context a compressed session
needs comes with the next prompt, through BeforeAgent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Sandbox, board_rows, client, wait_for
from .fake_model import Scenario, Step, hook_context, plan_and_edit, serve

pytestmark = pytest.mark.slow

PROMPT = "[[build]] Write a token-bucket rate limiter in ratelimit.py"
MODEL = "gemini-2.5-flash"
#: Reported after the first turn: past half of the model's window, so the next turn compresses.
BIG = 900_000


def _gemini(sandbox: Sandbox, gemini: Path, *args: str) -> str:
    return sandbox.run_ok([str(gemini), "--yolo", "-m", MODEL, "-o", "json", *args]).stdout


def test_gemini_cli_trust_session_compression_and_resume(sandbox: Sandbox) -> None:
    gemini = client("gemini")
    target = sandbox.project / "ratelimit.py"
    scenarios = [
        plan_and_edit("[[build]]", str(target), final_usage=BIG),
        Scenario("[[resume]]", [Step("text", text="We were writing the rate limiter.")]),
        Scenario("[[after]]", [Step("text", text="Carrying on.")]),
    ]
    settings = sandbox.home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        json.dumps(
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "model": {"compressionThreshold": 0.5},
                "general": {"disableAutoUpdate": True},
                "privacy": {"usageStatisticsEnabled": False},
            }
        )
    )
    with serve(scenarios) as (url, model):
        sandbox.env.update({"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dummy"})
        installed = sandbox.workmem("setup", "--platform", "gemini", "--json")
        assert installed.returncode == 0, installed.stderr
        assert any("Trust this folder" in s for s in json.loads(installed.stdout)["user_steps"])

        # Untrusted: headless Gemini CLI refuses to start, and no hook runs.
        probe = sandbox.run([str(gemini), "-m", MODEL, "-p", "[[probe]] hello"])
        assert probe.returncode != 0 and "trusted" in probe.stderr
        assert not (sandbox.project / "memory" / "index.md").exists()

        trusted = sandbox.home / ".gemini" / "trustedFolders.json"
        trusted.write_text(json.dumps({str(sandbox.project): "TRUST_FOLDER"}))
        again = sandbox.workmem("setup", "--platform", "gemini", "--json")
        assert json.loads(again.stdout)["user_steps"] == []

        _gemini(sandbox, gemini, "-p", PROMPT)
        assert target.is_file(), "the scripted edit was not made"
        rows = board_rows(sandbox.project)
        assert len(rows) == 1, f"SessionStart did not register\n{sandbox.hook_log()}"
        (sid,) = rows

        _gemini(sandbox, gemini, "--resume", "latest", "-p", "[[resume]] where were we?")
        count = len(model.model_requests())
        _gemini(sandbox, gemini, "--resume", "latest", "-p", "[[after]] go on")
        after = [r for r in model.model_requests()[count:] if "[[after]]" in r.text]
        assert after, "the prompt after the compression never reached the model"

    memory = sandbox.project / "memory"
    wait_for(
        lambda: (memory / "resumption.md").is_file(), what=f"session end\n{sandbox.hook_log()}"
    )
    assert (memory / "sessions" / f"{sid}.notes.md").is_file()
    assert len(board_rows(sandbox.project)) == 1, "the resume registered a second session"
    assert sandbox.hook_log() == "", sandbox.hook_log()
    # Gemini CLI puts what hooks add inside the user's turn, in <hook_context> tags.
    seen = hook_context(after[-1], "<hook_context>Your Memory Session ID is:")
    assert "<hook_context>" not in seen.split("</hook_context>", 1)[0][len("<hook_context>") :]
    assert f"Your Memory Session ID is: {sid}" in seen
    assert "token-bucket rate limiter" in seen
    assert "ratelimit.py" in seen
    assert "Write the rate limiter" in seen

"""Codex itself (``@openai/codex`` from npm): hooks installed and trusted through Codex's own
app server, a scripted ``codex exec`` session, an automatic compaction, a resume.

Codex is pointed at the fake model with a ``[model_providers.*]`` entry whose ``base_url``
is the fake (Responses API). It runs a user-level ``hooks.json`` hook only once the hook is
trusted (codex-rs/hooks/src/engine/discovery.rs, ``hook_trust_status``); ``workmem hooks
install --trust`` asks ``codex app-server`` (hooks/list, config/batchWrite) to trust them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from workmem.platforms.codex_trust import list_ours

from .conftest import Sandbox, board_rows, client, wait_for
from .fake_model import Scenario, Step, hook_context, plan_and_edit, serve

pytestmark = pytest.mark.slow

PROMPT = "[[build]] Write a token-bucket rate limiter in ratelimit.py"
#: Reported by the fake after the first turn; past Codex's limit, so the next turn compacts.
COMPACT_LIMIT = 20_000


def _configure(sandbox: Sandbox, url: str) -> None:
    config = sandbox.home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        'model = "fake-model"\n'
        'model_provider = "fake"\n'
        f"model_auto_compact_token_limit = {COMPACT_LIMIT}\n\n"
        "[model_providers.fake]\n"
        'name = "fake"\n'
        f'base_url = "{url}/v1"\n'
        'env_key = "FAKE_MODEL_KEY"\n'
        'wire_api = "responses"\n',
        encoding="utf-8",
    )
    sandbox.env["FAKE_MODEL_KEY"] = "dummy"
    sandbox.env["CODEX_HOME"] = str(config.parent)


def _exec(sandbox: Sandbox, codex: Path, *args: str) -> str:
    flags = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
    return sandbox.run_ok([str(codex), "exec", *flags, *args]).stderr


def test_codex_session_compaction_and_resume(sandbox: Sandbox) -> None:
    codex = client("codex")
    target = sandbox.project / "ratelimit.py"
    scenarios = [
        plan_and_edit("[[build]]", str(target), final_usage=COMPACT_LIMIT + 5_000),
        Scenario("[[resume]]", [Step("text", text="We were writing the rate limiter.")]),
    ]
    with serve(scenarios) as (url, model):
        _configure(sandbox, url)
        # Without trust Codex would skip every hook, silently.
        before = sandbox.workmem("setup", "--platform", "codex", "--scope", "user")
        assert before.returncode == 0, before.stderr
        assert "/hooks" in before.stdout  # the one step left: trust them
        assert {h.trust for h in list_ours(sandbox.project, sandbox.home, env=sandbox.env)} == {
            "untrusted"
        }
        # The user consents: workmem asks Codex's own app server to trust the hooks.
        installed = sandbox.workmem(
            "hooks", "install", "--platform", "codex", "--scope", "user", "--trust", "--json"
        )
        assert installed.returncode == 0, installed.stderr
        report = json.loads(installed.stdout)
        assert report["trusted"] is True and report["user_steps"] == []
        hooks = list_ours(sandbox.project, sandbox.home, env=sandbox.env)
        assert {h.event for h in hooks} == {
            "sessionStart",
            "userPromptSubmit",
            "preCompact",
            "stop",
            "sessionEnd",
        }
        assert {h.trust for h in hooks} == {"trusted"}
        doctor = sandbox.workmem("doctor", "--json")
        assert "hook-trust" not in doctor.stdout, doctor.stdout

        log = _exec(sandbox, codex, PROMPT)
        session = re.search(r"session id: (\S+)", log)
        assert session, log
        assert target.is_file(), "the scripted edit was not made"
        rollouts = list((sandbox.home / ".codex" / "sessions").rglob(f"*{session.group(1)}.jsonl"))
        assert rollouts, "Codex wrote no rollout"
        rows = board_rows(sandbox.project)
        assert len(rows) == 1, f"SessionStart did not register\n{sandbox.hook_log()}"
        (sid,) = rows

        count = len(model.model_requests())
        _exec(sandbox, codex, "resume", session.group(1), "[[resume]] where were we?")
        later = model.model_requests()[count:]
        resumed = [r for r in later if "[[resume]]" in r.text and "CHECKPOINT" not in r.text]
        assert resumed, "the resumed prompt never reached the model"

    notes = sandbox.project / "memory" / "sessions" / f"{sid}.notes.md"
    memory = sandbox.project / "memory"
    wait_for(
        lambda: (memory / "resumption.md").is_file(),
        what=f"the session-end save\n{sandbox.hook_log()}",
    )
    assert notes.is_file(), f"no session notes were saved\n{sandbox.hook_log()}"
    assert len(board_rows(sandbox.project)) == 1, "the resume registered a second session"
    assert "ratelimit.py" in (memory / "sessions" / f"{sid}.md").read_text()
    assert sandbox.hook_log() == "", sandbox.hook_log()

    # What workmem gave the model after the compaction and the resume (Codex adds a
    # SessionStart hook's context as a developer message): the memory session, the
    # request, the file and the plan item.
    seen = hook_context(resumed[-1], "Your Memory Session ID is:")
    assert f"Your Memory Session ID is: {sid}" in seen
    assert "token-bucket rate limiter" in seen
    assert "ratelimit.py" in seen
    assert "Write the rate limiter" in seen

"""A patch given to ``apply_patch`` through the shell is an edit, like the patch tool's.

Codex tells models without its patch tool to run ``apply_patch`` as a command, and applies
such a patch itself; Codex 0.171 recorded it this way in tests/agents/test_handoff.py
(``exec_command`` with a heredoc). The file it created was missing from the files in play
handed to the next session.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workmem.transcripts.facts import extract_facts
from workmem.transcripts.read import read_transcript

CWD = "/work/proj"


def _patch(kind: str, path: str, body: str) -> str:
    return f"*** Begin Patch\n*** {kind} File: {path}\n{body}*** End Patch\n"


def _rollout(path: Path, calls: list[tuple[str, dict[str, Any], str]]) -> Path:
    """A Codex rollout: one request, then (name, arguments, output) calls."""
    records: list[dict[str, Any]] = [
        {"type": "session_meta", "payload": {"id": "s1", "cwd": CWD}},
        {
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Write the rate limiter"}],
            },
        },
    ]
    for number, (name, arguments, output) in enumerate(calls):
        call = {"type": "function_call", "name": name, "call_id": f"c{number}"}
        records.append(
            {"type": "response_item", "payload": {**call, "arguments": json.dumps(arguments)}}
        )
        result = {"type": "function_call_output", "call_id": f"c{number}", "output": output}
        records.append({"type": "response_item", "payload": result})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_apply_patch_run_through_the_shell_puts_its_files_in_play(tmp_path: Path) -> None:
    created = _patch("Add", f"{CWD}/ratelimit.py", "+class TokenBucket:\n+    rate = 1.0\n")
    updated = _patch("Update", "src/app.py", "@@\n-old\n+def limit():\n")
    rollout = _rollout(
        tmp_path / "rollout.jsonl",
        [
            ("exec_command", {"cmd": f"apply_patch <<'EOF'\n{created}EOF\n"}, "Success."),
            ("shell", {"command": ["apply_patch", updated]}, "Success."),
        ],
    )
    facts = extract_facts(read_transcript(rollout, "codex"))
    files = {f.path: f for f in facts.files}
    assert set(files) == {"ratelimit.py", "src/app.py"}
    assert files["ratelimit.py"].created and files["ratelimit.py"].edits == 1
    assert files["ratelimit.py"].functions == ["TokenBucket"]
    assert not files["src/app.py"].created and files["src/app.py"].functions == ["limit"]


def test_a_command_that_only_mentions_a_patch_or_failed_edits_nothing(tmp_path: Path) -> None:
    patch = _patch("Add", "notes.py", "+x = 1\n")
    broken = _patch("Add", "broken.py", "+y\n")
    rollout = _rollout(
        tmp_path / "rollout.jsonl",
        [
            # a patch printed, grepped or saved is not applied
            ("exec_command", {"cmd": f"cat > saved.patch <<'EOF'\n{patch}EOF\n"}, ""),
            ("exec_command", {"cmd": "grep -n '*** Begin Patch' my_apply_patch_notes.md"}, ""),
            # a patch that failed edited nothing
            (
                "exec_command",
                {"cmd": f"apply_patch <<'EOF'\n{broken}EOF\n"},
                "Exit code: 1\nOutput:\nerror: invalid patch",
            ),
        ],
    )
    facts = extract_facts(read_transcript(rollout, "codex"))
    edited = [f.path for f in facts.files if f.edits]
    assert edited == []
    assert len(facts.commands) == 3  # still commands that ran

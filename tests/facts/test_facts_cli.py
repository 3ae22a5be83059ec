"""The facts commands through their argparse face (registered the way cli/__init__ does)."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.cli import common_options, facts_cmds
from workmem.cli.output import run_handler


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    common = common_options()
    parser = argparse.ArgumentParser(prog="workmem", parents=[common])
    facts_cmds.register(parser.add_subparsers(dest="command"), common)
    args = parser.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = out, err
    sys.stdin = io.StringIO(stdin) if stdin is not None else _Tty()
    try:
        code = run_handler(args.handler, args)
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return code, out.getvalue(), err.getvalue()


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_platform_json(root: Path) -> None:
    code, out, _ = run(["platform", "--json", "--home", str(root / "nohome")])
    data = json.loads(out)
    assert code == 0 and data["platform"] == "cursor"  # WORKMEM_PLATFORM from the fixture
    assert data["signal"] == "$WORKMEM_PLATFORM=cursor"
    assert data["memory_path"].endswith(".cursor/memory")


def test_memory_add_list_show(root: Path) -> None:
    code, out, _ = run(
        ["memory", "add", "--type", "user", "--topic", "style", "--description", "terse"],
        stdin="Prefers terse answers.\n",
    )
    assert code == 0 and out.startswith("created: memory/user_style.md")
    assert "(memory/user_style.md) — terse" in (root / "MEMORY.md").read_text()
    code, out, _ = run(["memory", "list", "--json"])
    listed = json.loads(out)["memories"]
    assert [m["file"] for m in listed] == ["user_style.md"]
    assert listed[0]["expires"] is None and listed[0]["stale"] is None
    code, out, _ = run(["memory", "show", "user_style"])
    assert "Prefers terse answers." in out and "type: user" in out
    code, _, err = run(["memory", "show", "../etc/passwd"])
    assert code == 2 and "not a typed memory name" in err
    code, _, err = run(["memory", "show", "project_none"])
    assert code == 3


def test_memory_add_broken_file_exit_code(root: Path) -> None:
    bad = root / "memory" / "user_style.md"
    bad.parent.mkdir()
    bad.write_text("---\nname: [x\n---\n")
    code, out, _ = run(
        ["memory", "add", "--json", "--type", "user", "--topic", "style", "--content", "y"]
    )
    assert code == 5
    assert json.loads(out)["kind"] == "FormatError"
    assert bad.read_text() == "---\nname: [x\n---\n"


def test_maintain_and_curate_commands(root: Path) -> None:
    run(["memory", "add", "--type", "project", "--topic", "app", "--content", "x"])
    code, out, _ = run(["maintain"])
    assert code == 0
    code, out, _ = run(["curate", "--json"])
    data = json.loads(out)
    assert code == 0 and data["ok"] is True and data["memory_file"] == "MEMORY.md"
    code, out, _ = run(["curate", "--dry-run"])
    assert out.startswith("Curated MEMORY.md: would have promoted 0")


def test_bootstrap_command(root: Path) -> None:
    code, out, _ = run(["bootstrap", "--platform", "gemini", "--dry-run"])
    assert code == 0 and "Would add the boot directive to GEMINI.md" in out
    assert not (root / "GEMINI.md").exists()
    run(["bootstrap", "--platform", "gemini"])
    code, out, _ = run(["bootstrap", "--platform", "gemini"])
    assert "already in GEMINI.md" in out
    code, out, _ = run(["bootstrap", "--platform", "claude-code"])
    assert out.startswith("Skipped: Claude Code has native memory")
    code, out, _ = run(["bootstrap", "--platform", "tabnine"])
    assert "# Auto-Memory (session-wrap)" in out


def test_wrap_command_from_stdin_and_file(root: Path, tmp_path: Path) -> None:
    items = '[{"type": "feedback", "topic": "tests", "description": "real DB",'
    items += ' "content": "Integration tests need a real DB."}]'
    code, out, _ = run(["wrap", "--platform", "codex", "--home", str(tmp_path)], stdin=items)
    assert code == 0
    assert out.splitlines()[0] == "Memory updated:"
    assert "| feedback_tests.md | created | real DB |" in out
    code, out, _ = run(["wrap", "--platform", "codex", "--home", str(tmp_path), "--lang", "zh"])
    assert out.strip() == "本次 session 沒有需要持久化的新資訊"
    f = tmp_path / "m.yaml"
    f.write_text("- type: feedback\n  topic: tests\n  content: Integration tests need a real DB.\n")
    code, out, _ = run(["wrap", "--json", "--from-file", str(f), "--platform", "codex"])
    assert json.loads(out)["nothing_new"] is True
    code, out, _ = run(["wrap", "--state", "--json"])
    assert json.loads(out)["memories"][0]["file"] == "feedback_tests.md"


def test_context_command() -> None:
    counts = ["--user-turns", "30", "--tool-results", "60", "--responses", "30"]
    code, out, _ = run(["context", *counts, "--platform", "claude-code"])
    assert code == 0
    assert out.startswith("Context: 66.0% (132,000 of 200,000 tokens, estimated)")
    assert "zone: active-management (wrap profile)" in out
    code, out, _ = run(["context", "--json", "--responses", "100", "--profile", "relay"])
    assert json.loads(out)["zone"] == "none"


def test_module_imports_stay_light() -> None:
    code = (
        "import sys, workmem.cli.facts_cmds;"
        "heavy = [m for m in ('yaml', 'workmem.wrap.run', 'workmem.facts.curate') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("argv", [["wrap", "--lang", "fr"], ["memory", "add", "--type", "x"]])
def test_bad_arguments_exit(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        run(argv)


def test_curate_command_clears_the_journals_review_flag(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from workmem.cli import main as cli_main
    from workmem.journal import init

    init(root)
    state_path = root / "memory" / "state.json"
    state = json.loads(state_path.read_text())
    state.setdefault("flags", {})["memory_review_due"] = True
    state_path.write_text(json.dumps(state))
    assert cli_main(["curate", "--dry-run"]) == 0
    assert json.loads(state_path.read_text())["flags"]["memory_review_due"] is True
    assert cli_main(["curate"]) == 0
    assert json.loads(state_path.read_text())["flags"]["memory_review_due"] is False
    capsys.readouterr()

"""Seed 000's platform detection table: every row, its order, and the explicit override."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import UsageError
from workmem.platforms.detect import TABLE, Context, claude_project_dir, detect, row_for

# (expected platform, files/folders in the project, folders in home, env, commands on PATH)
ROWS: list[tuple[str, list[str], list[str], dict[str, str], list[str]]] = [
    ("claude-code", [], [".claude"], {}, []),
    ("claude-code", [], [], {"CLAUDE_CODE_ENTRYPOINT": "cli"}, []),
    ("claude-code", [], [], {}, ["claude"]),  # installed, never run yet: no ~/.claude
    ("codex", ["AGENTS.md"], [], {}, []),
    ("codex", [], [], {}, ["codex"]),
    ("gemini", [], [".gemini"], {}, []),
    ("gemini", ["GEMINI.md"], [], {}, []),
    ("cursor", [".cursor/"], [], {}, []),
    ("windsurf", [".windsurf/"], [], {}, []),
    ("windsurf", [".windsurfrules"], [], {}, []),
    ("cline", [".cline/"], [], {}, []),
    ("cline", [".clinerules"], [], {}, []),
    ("roo", [".roo/"], [], {}, []),
    ("roo", [".roorules"], [], {}, []),
    ("aider", [".aider.conf.yml"], [], {}, []),
    ("continue", [".continue/"], [], {}, []),
    ("copilot", [".github/copilot-instructions.md"], [], {}, []),
    ("amp", ["AGENT.md"], [], {}, []),
    ("openclaw", [], [".openclaw"], {}, []),
    ("openclaw", ["openclaw.json"], [], {}, []),
    ("openhands", [".openhands/"], [], {}, []),
    ("openhands", [], [], {"OPENHANDS_RUNTIME": "docker"}, []),
    ("amazon-q", [".amazonq/"], [], {}, []),
    ("amazon-q", [], [], {"Q_TERM": "1"}, []),
    ("tabnine", [".tabnine/"], [], {}, []),
    ("supermaven", [".supermaven/"], [], {}, []),
    ("devin", [], [], {"DEVIN_SESSION": "abc"}, []),
    ("bolt", [], [], {"SHELL": "/bin/jsh"}, []),
    ("universal", [], [], {}, []),
]


def _ctx(
    tmp_path: Path, files: list[str], homes: list[str], env: dict[str, str], cmds: list[str]
) -> Context:
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir(parents=True)
    home.mkdir(parents=True)
    for name in files:
        target = project / name.rstrip("/")
        if name.endswith("/"):
            target.mkdir(parents=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("x\n")
    for name in homes:
        (home / name).mkdir()
    return Context(project, home, env, lambda c: f"/usr/bin/{c}" if c in cmds else None)


@pytest.mark.parametrize(("expected", "files", "homes", "env", "cmds"), ROWS)
def test_each_row(
    tmp_path: Path,
    expected: str,
    files: list[str],
    homes: list[str],
    env: dict[str, str],
    cmds: list[str],
) -> None:
    found = detect(_ctx(tmp_path, files, homes, env, cmds))
    assert found.key == expected
    if expected != "universal":
        assert found.signal  # says why
        assert any(part in found.signal for part in [*files, *homes, *env, *cmds])


def test_table_is_the_seeds_rows_in_order() -> None:
    assert [row.key for row in TABLE] == [
        "claude-code", "codex", "gemini", "cursor", "windsurf", "cline", "roo", "aider",
        "continue", "copilot", "amp", "openclaw", "openhands", "amazon-q", "tabnine",
        "supermaven", "devin", "bolt",
    ]  # fmt: skip
    # Every row except the fallback is exercised above.
    assert {row.key for row in TABLE} | {"universal"} == {r[0] for r in ROWS}


def test_first_match_wins(tmp_path: Path) -> None:
    # A Cursor project with AGENTS.md is Codex by the seed's order; ~/.claude beats both.
    ctx = _ctx(tmp_path, [".cursor/", "AGENTS.md"], [], {}, [])
    assert detect(ctx).key == "codex"
    (ctx.home / ".claude").mkdir()
    found = detect(ctx)
    assert found.key == "claude-code" and found.signal == "~/.claude/"


def test_memory_paths(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, [], [".claude"], {}, [])
    found = detect(ctx)
    expected_dir = claude_project_dir(ctx.project)
    assert found.memory_path == ctx.home / ".claude" / "projects" / expected_dir / "memory"
    assert expected_dir.startswith("-") and "/" not in expected_dir
    assert claude_project_dir(Path("/home/u/my_app.v2")) == "-home-u-my-app-v2"
    assert claude_project_dir(Path("/home/u/研究")) == "-home-u---"
    cursor = detect(_ctx(tmp_path / "c", [".cursor/"], [], {}, []))
    assert cursor.memory_path == tmp_path / "c" / "proj" / ".cursor" / "memory"
    unknown = detect(_ctx(tmp_path / "u", [], [], {}, []))
    assert unknown.memory_path == tmp_path / "u" / "proj" / ".ai-memory"


def test_explicit_override(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, [".cursor/"], [".claude"], {"WORKMEM_PLATFORM": "gemini-cli"}, [])
    found = detect(ctx)
    assert found.key == "gemini" and found.signal == "$WORKMEM_PLATFORM=gemini-cli"
    plain = Context(ctx.project, ctx.home, {}, lambda c: None)
    assert detect(plain, configured="aider").key == "aider"
    with pytest.raises(UsageError, match="unknown platform"):
        row_for("vim")


def test_to_dict_names_everything(tmp_path: Path) -> None:
    data = detect(_ctx(tmp_path, ["GEMINI.md"], [], {}, [])).to_dict()
    assert data["platform"] == "gemini"
    assert data["instructions_file"] == "GEMINI.md (3 layers)"
    assert data["memory_path_seed"] == ".ai-memory/"
    assert data["signal"] == "GEMINI.md"

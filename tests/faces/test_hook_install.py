"""Hook configuration for five platforms: merged, idempotent, removable, others kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import FormatError
from workmem.files.store import Store
from workmem.hooks.events import PLATFORM_EVENTS, PLATFORMS, canonical_event
from workmem.hooks.install import install
from workmem.platforms.codex_trust import codex_feature
from workmem.platforms.hook_line import entry
from workmem.root import Workspace

CMD = "/opt/wm/bin/workmem"


def _store(root: Path) -> Store:
    return Store(Workspace(root))


@pytest.mark.parametrize("platform", [p for p in PLATFORMS if p != "openclaw"])
def test_install_twice_adds_once_and_uninstall_removes_only_ours(
    tmp_path: Path, platform: str
) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    store = _store(project)
    first = install(store, platform, project=project, home=home, command=CMD)
    assert sorted(first.added) == sorted(PLATFORM_EVENTS[platform])
    path = Path(first.files[0])
    text = path.read_text()
    second = install(store, platform, project=project, home=home, command=CMD)
    assert second.unchanged and second.added == []
    assert path.read_text() == text
    data = json.loads(text)
    for event in PLATFORM_EVENTS[platform]:
        entries = data["hooks"][event]
        assert len(entries) == 1
        assert f"hook {event} --platform {platform}" in json.dumps(entries)
    removed = install(store, platform, project=project, home=home, command=CMD, remove=True)
    assert sorted(removed.removed) == sorted(PLATFORM_EVENTS[platform])
    left = json.loads(path.read_text())
    assert left == ({"version": 1} if platform == "cursor" else {})  # no "hooks": {} left


def test_claude_settings_keep_other_hooks_byte_for_byte(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    original: dict[str, Any] = {
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]}
            ],
            "SessionStart": [{"hooks": [{"type": "command", "command": "echo 你好"}]}],
        },
    }
    text = json.dumps(original, indent=2, ensure_ascii=False) + "\n"
    settings.write_text(text)
    # `workmem` from PATH: the shared settings.json (a path would go to settings.local.json)
    install(_store(project), "claude-code", project=project, home=tmp_path, command="workmem")
    merged = settings.read_text()
    for line in json.dumps(original["hooks"]["PreToolUse"], indent=2).splitlines()[1:-1]:
        assert line in merged
    data = json.loads(merged)
    assert data["permissions"] == original["permissions"]
    assert data["hooks"]["PreToolUse"] == original["hooks"]["PreToolUse"]
    assert data["hooks"]["SessionStart"][0] == original["hooks"]["SessionStart"][0]
    assert len(data["hooks"]["SessionStart"]) == 2
    install(_store(project), "claude-code", project=project, home=tmp_path, remove=True)
    assert settings.read_text() == text


def test_four_space_indent_is_kept(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 1, "hooks": {"stop": [{"command": "x"}]}}, indent=4))
    install(_store(project), "cursor", project=project, home=tmp_path, command=CMD)
    assert '\n    "version": 1' in path.read_text()
    assert json.loads(path.read_text())["hooks"]["stop"][0] == {"command": "x"}


def test_gemini_uses_milliseconds_and_leaves_hooks_config_alone(tmp_path: Path) -> None:
    """Gemini CLI's hooks are on by default (hooksConfig.enabled defaults to true): nothing
    is written there, so nothing is left there after an uninstall."""
    project = tmp_path / "proj"
    install(_store(project), "gemini", project=project, home=tmp_path, command=CMD)
    data = json.loads((project / ".gemini" / "settings.json").read_text())
    hook = data["hooks"]["PreCompress"][0]["hooks"][0]
    assert hook["timeout"] == 30_000 and hook["name"] == "workmem-pre-compact"
    assert "hooksConfig" not in data
    settings = project / ".gemini" / "settings.json"
    settings.write_text('{"hooksConfig": {"enabled": false}}\n')
    report = install(_store(project), "gemini", project=project, home=tmp_path, command=CMD)
    assert "hooksConfig.enabled is false" in report.user_steps[0]


def test_codex_needs_no_feature_flag_and_the_deprecated_key_is_renamed(tmp_path: Path) -> None:
    # The feature key is `hooks`, on by default; `codex_hooks` is a deprecated alias.
    assert codex_feature(None) is None
    assert codex_feature('model = "o3"\n') is None
    old = 'model = "o3"\n\n[features]\ncodex_hooks = true\nweb_search = true\n'
    assert codex_feature(old) == 'model = "o3"\n\n[features]\nhooks = true\nweb_search = true\n'
    both = "[features]\nhooks = true\ncodex_hooks = true\n"
    assert codex_feature(both) == "[features]\nhooks = true\n"
    project = tmp_path / "proj"
    install(_store(project), "codex", project=project, home=tmp_path, command=CMD)
    assert not (project / ".codex" / "config.toml").exists()
    (project / ".codex" / "config.toml").write_text(old)
    install(_store(project), "codex", project=project, home=tmp_path, command=CMD)
    assert "codex_hooks" not in (project / ".codex" / "config.toml").read_text()


def test_user_scope_writes_under_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    report = install(
        _store(tmp_path), "claude-code", scope="user", project=tmp_path, home=home, command=CMD
    )
    assert report.files == [str(home / ".claude" / "settings.json")]


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    report = install(
        _store(project), "claude-code", project=project, home=tmp_path, dry_run=True, command=CMD
    )
    assert report.added and not (project / ".claude").exists()
    assert "SessionStart" in next(iter(report.preview.values()))


def test_broken_settings_are_refused_untouched(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": {,}')
    with pytest.raises(FormatError, match="not valid JSON"):
        install(_store(project), "claude-code", project=project, home=tmp_path, command=CMD)
    assert path.read_text() == '{"hooks": {,}'


def test_openclaw_hook_folder(tmp_path: Path) -> None:
    project = tmp_path / "ws"
    report = install(_store(project), "openclaw", project=project, home=tmp_path, command=CMD)
    folder = project / "hooks" / "workmem"
    assert sorted(p.name for p in folder.iterdir()) == ["HOOK.md", "handler.ts"]
    assert '"agent:bootstrap"' in (folder / "HOOK.md").read_text()
    assert f'"{CMD}"' in (folder / "handler.ts").read_text()
    assert report.added
    again = install(_store(project), "openclaw", project=project, home=tmp_path, command=CMD)
    assert again.unchanged
    install(_store(project), "openclaw", project=project, home=tmp_path, remove=True)
    assert not folder.exists()


@pytest.mark.parametrize(
    "name, platform, expected",
    [
        ("SessionStart", "claude-code", "session-start"),
        ("session-start", "claude-code", "session-start"),
        ("user_prompt_submit", "codex", "user-prompt-submit"),
        ("beforeSubmitPrompt", "cursor", "user-prompt-submit"),
        ("PreCompress", "gemini", "pre-compact"),
        ("AfterAgent", "gemini", "stop"),
        ("agent:bootstrap", "openclaw", "session-start"),
        ("command:new", "openclaw", "session-end"),
    ],
)
def test_event_names(name: str, platform: str, expected: str) -> None:
    assert canonical_event(name, platform) == expected


def test_each_platform_gets_the_timeouts_it_reads(tmp_path: Path) -> None:
    """Cursor reads a per-hook `timeout` in seconds; Codex clamps SessionEnd to 3 s (and
    warns on every start when more is written); Gemini reads milliseconds."""
    project = tmp_path / "proj"
    store = _store(project)
    install(store, "cursor", project=project, home=tmp_path, command=CMD)
    cursor = json.loads((project / ".cursor" / "hooks.json").read_text())
    assert cursor["hooks"]["preCompact"] == [
        {
            "command": f"command -v {CMD} >/dev/null 2>&1 && {CMD} hook preCompact "
            "--platform cursor || true",
            "timeout": 30,
            "workmem": True,
        }
    ]
    assert cursor["hooks"]["beforeSubmitPrompt"][0]["timeout"] == 10
    install(store, "codex", project=project, home=tmp_path, command=CMD)
    codex = json.loads((project / ".codex" / "hooks.json").read_text())
    assert codex["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] == 3
    assert codex["hooks"]["PreCompact"][0]["hooks"][0]["timeout"] == 30


def test_an_older_workmem_entry_is_replaced_not_doubled(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir(parents=True)
    old = {"command": f"{CMD} hook stop --platform cursor"}  # written without a timeout
    path.write_text(json.dumps({"version": 1, "hooks": {"stop": [old, {"command": "x"}]}}))
    report = install(_store(project), "cursor", project=project, home=tmp_path, command=CMD)
    assert "stop" in report.added
    stops = json.loads(path.read_text())["hooks"]["stop"]
    assert stops == [{"command": "x"}, entry("cursor", "stop", "stop", CMD)]


def test_cursor_rules_file_is_git_ignored_once(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".gitignore").write_text("node_modules/")
    install(_store(project), "cursor", project=project, home=tmp_path, command=CMD)
    install(_store(project), "cursor", project=project, home=tmp_path, command=CMD)
    assert (project / ".gitignore").read_text() == "node_modules/\n/.cursor/rules/workmem.mdc\n"
    rules = project / ".cursor" / "rules" / "workmem.mdc"
    rules.parent.mkdir()
    rules.write_text("---\nalwaysApply: true\n---\n\nstate\n")
    install(_store(project), "cursor", project=project, home=tmp_path, command=CMD, remove=True)
    assert (project / ".gitignore").read_text() == "node_modules/\n" and not rules.exists()
    # a .gitignore that held only workmem's line goes away with it
    other = tmp_path / "other"
    install(_store(other), "cursor", project=other, home=tmp_path, command=CMD)
    install(_store(other), "cursor", project=other, home=tmp_path, command=CMD, remove=True)
    assert not (other / ".gitignore").exists()


def test_codex_user_scope_honours_codex_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "elsewhere"))
    report = install(
        _store(tmp_path), "codex", scope="user", project=tmp_path, home=tmp_path / "h", command=CMD
    )
    assert report.files == [str(tmp_path / "elsewhere" / "hooks.json")]
    monkeypatch.delenv("CODEX_HOME")
    report = install(
        _store(tmp_path), "codex", scope="user", project=tmp_path, home=tmp_path / "h", command=CMD
    )
    assert report.files == [str(tmp_path / "h" / ".codex" / "hooks.json")]


def test_user_steps_name_the_one_thing_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (
        "GEMINI_CLI_TRUST_WORKSPACE",
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
        "OPENCLAW_STATE_DIR",
        "OPENCLAW_CONFIG_PATH",
    ):
        monkeypatch.delenv(name, raising=False)
    project, home = tmp_path / "proj", tmp_path / "home"
    store = _store(project)

    def steps(platform: str, scope: str = "project") -> list[str]:
        return install(
            store, platform, scope=scope, project=project, home=home, command=CMD
        ).user_steps

    assert steps("claude-code") == [] and steps("cursor") == []
    codex = steps("codex")
    assert "/hooks" in codex[0] and "trust the project" in codex[1]
    assert any("Trust this folder in Gemini CLI" in s for s in steps("gemini"))
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "trustedFolders.json").write_text(
        json.dumps({str(tmp_path): "TRUST_FOLDER"})  # a parent folder: trusts the project
    )
    assert steps("gemini") == []
    (home / ".gemini" / "trustedFolders.json").write_text(
        json.dumps({str(tmp_path): "TRUST_FOLDER", str(project): "DO_NOT_TRUST"})
    )
    assert steps("gemini") != []  # the longest rule wins
    assert any("openclaw hooks enable workmem" in s for s in steps("openclaw", "user"))
    (home / ".openclaw").mkdir(exist_ok=True)
    (home / ".openclaw" / "openclaw.json").write_text(
        json.dumps({"hooks": {"internal": {"entries": {"workmem": {"enabled": True}}}}})
    )
    assert steps("openclaw", "user") == []
    assert any("agent's workspace" in s for s in steps("openclaw"))
    (project / ".codex" / "config.toml").write_text("[features]\nhooks = false\n")
    assert "hooks = false" in steps("codex")[0]


def test_codex_trust_without_codex_is_a_warning_not_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    project = tmp_path / "proj"
    report = install(
        _store(project),
        "codex",
        scope="user",
        project=project,
        home=tmp_path,
        command=CMD,
        trust=True,
    )
    assert not report.trusted and "not on PATH" in report.warnings[0]
    assert "/hooks" in report.user_steps[0]
    assert (tmp_path / ".codex" / "hooks.json").is_file()


def test_codex_trust_in_a_project_codex_does_not_trust_is_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex reads a project's .codex/ only in a project it trusts: trusting the hooks there
    cannot work, and saying "trusted" would be false."""
    monkeypatch.delenv("CODEX_HOME", raising=False)
    project, home = tmp_path / "proj", tmp_path / "home"
    store = _store(project)
    report = install(store, "codex", project=project, home=home, command=CMD, trust=True)
    assert not report.trusted and report.trust_state == {}
    assert "has not trusted the project" in report.warnings[0]
    assert any("trust the project" in s for s in report.user_steps)
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "config.toml").write_text(
        f'[projects."{tmp_path}"]\ntrust_level = "trusted"\n'  # a folder above: trusted
    )
    again = install(store, "codex", project=project, home=home, command=CMD)
    assert not any("trust the project" in s for s in again.user_steps)


WINDOWS_PATHS = [
    r"C:\Users\dev\.local\bin\workmem.exe",
    r"C:\Program Files (x86)\workmem\workmem.exe",
    r"G:\我的雲端硬碟\tools\workmem.exe",
    r"D:\O'Brien & Co\workmem.exe",
]


@pytest.mark.parametrize("program", WINDOWS_PATHS)
def test_windows_command_lines_for_each_shell(tmp_path: Path, program: str) -> None:
    """Codex runs hooks with cmd.exe /C, Gemini CLI with powershell -Command, Claude Code
    with PowerShell when the hook says "shell": "powershell" (see platforms.shell)."""
    from pathlib import PureWindowsPath

    assert PureWindowsPath(program).name == "workmem.exe"
    project = tmp_path / "proj"
    store = _store(project)
    for platform in ("claude-code", "codex", "gemini", "cursor"):
        install(store, platform, project=project, home=tmp_path, command=program, windows=True)
    # a path of this user's: Claude Code's personal file, not the shared one
    claude = json.loads((project / ".claude" / "settings.local.json").read_text())
    hook = claude["hooks"]["SessionStart"][0]["hooks"][0]
    quoted = "'" + program.replace("'", "''") + "'"
    assert hook["shell"] == "powershell"
    assert hook["command"] == (
        f"if (Get-Command {quoted} -ErrorAction SilentlyContinue) "
        f"{{ & {quoted} hook SessionStart --platform claude-code }}"
    )
    gemini = json.loads((project / ".gemini" / "settings.json").read_text())
    assert (
        f"{{ & {quoted} hook BeforeAgent"
        in gemini["hooks"]["BeforeAgent"][0]["hooks"][0]["command"]
    )
    codex = json.loads((project / ".codex" / "hooks.json").read_text())
    line = codex["hooks"]["Stop"][0]["hooks"][0]["command"]
    # cmd.exe /C: the line starts with `if`, so cmd keeps every quote as written
    word = f'"{program}"' if any(c in program for c in " ()&") else program
    assert line == f"if exist {word} {word} hook Stop --platform codex"
    # each result is still recognised as workmem's, so a second run adds nothing
    for platform in ("claude-code", "codex", "gemini", "cursor"):
        again = install(
            store, platform, project=project, home=tmp_path, command=program, windows=True
        )
        assert again.unchanged, platform


def test_a_path_cmd_exe_cannot_quote_is_refused_before_writing(tmp_path: Path) -> None:
    from workmem.errors import UsageError

    project = tmp_path / "proj"
    with pytest.raises(UsageError, match=r"cmd\.exe"):
        install(
            _store(project),
            "codex",
            project=project,
            home=tmp_path,
            command=r"C:\100%\workmem.exe",
            windows=True,
        )
    assert not (project / ".codex" / "hooks.json").exists()


def test_openclaw_handler_is_asynchronous_and_forwards_only_what_workmem_reads(
    tmp_path: Path,
) -> None:
    project = tmp_path / "ws"
    install(_store(project), "openclaw", project=project, home=tmp_path, command=CMD)
    folder = project / "hooks" / "workmem"
    handler = (folder / "handler.ts").read_text()
    assert "spawnSync" not in handler and "spawn(" in handler
    assert "cfg" not in handler.replace(
        "// Only the fields workmem reads leave this process: never cfg", ""
    )
    assert "...(event.context" not in handler and "kill(" not in handler
    hook_md = (folder / "HOOK.md").read_text()
    for event in (
        "agent:bootstrap",
        "message:received",
        "session:compact:before",
        "command:stop",
        "message:sent",
        "command:new",
        "command:reset",
    ):
        assert f'"{event}"' in hook_md


def test_doctor_reports_hooks_their_platform_will_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem import doctor

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GEMINI_CLI_TRUST_WORKSPACE", raising=False)
    monkeypatch.delenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    project = tmp_path / "proj"
    store = _store(project)
    for platform in ("gemini", "codex", "claude-code"):
        install(store, platform, project=project, home=home, command=CMD)
    report = doctor.run(Workspace(project))
    trust = [f.message for f in report.findings if f.kind == "hook-trust"]
    assert any(m.startswith("gemini (project)") for m in trust)
    # Codex is not installed here, but its config says the project is not trusted
    assert any(m.startswith("codex (project): Codex has not trusted the project") for m in trust)
    assert not any("claude" in m for m in trust)
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "trustedFolders.json").write_text(
        json.dumps({str(project): "TRUST_FOLDER"})
    )
    report = doctor.run(Workspace(project))
    assert not any(
        f.message.startswith("gemini") for f in report.findings if f.kind == "hook-trust"
    )

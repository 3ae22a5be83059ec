"""Asking Codex itself whether workmem's hooks are trusted, and trusting them on consent.

Codex runs a hook from ``hooks.json`` only when ``hooks.state."<key>".trusted_hash`` in the
user's config equals the hash of the hook as configured now (codex-rs/hooks/src/engine/
discovery.rs: ``hook_trust_status``); a changed command (a moved virtualenv) is untrusted
again. The hash is Codex's to compute: ``codex app-server`` (JSON-RPC over stdio) answers
``hooks/list`` with each hook's ``key``, ``trustStatus`` and ``currentHash``, and
``config/batchWrite`` stores the trusted hash, exactly as Codex's own ``/hooks`` screen does.
Nothing here computes a hash or edits Codex's trust state by hand.

Also here: the feature key in ``config.toml`` (``[features] hooks``, on by default;
``codex_hooks`` is its deprecated alias).
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import WorkmemError

#: Seconds to wait for one answer of the app server.
ANSWER_SECONDS = 20.0


class CodexUnavailableError(WorkmemError):
    """Codex is not installed here, or its app server did not answer."""


@dataclass(frozen=True)
class CodexHook:
    key: str
    event: str
    command: str
    source_path: str
    trust: str  # "trusted" | "untrusted" | "modified" | "managed"
    current_hash: str


def codex_home(home: Path, env: Mapping[str, str] | None = None) -> Path:
    """``$CODEX_HOME``, else ``~/.codex`` (the folder of the user's config and hooks)."""
    environ = os.environ if env is None else env
    value = environ.get("CODEX_HOME")
    return Path(value).expanduser() if value else home / ".codex"


class AppServer:
    """One ``codex app-server`` process, asked a few questions, then closed."""

    def __init__(self, executable: str, *, cwd: Path, env: dict[str, str] | None = None):
        try:
            self.process = subprocess.Popen(
                [executable, "app-server"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=cwd,
                env=env,
                text=True,
                encoding="utf-8",
            )
        except OSError as exc:
            raise CodexUnavailableError(f"could not start {executable} app-server: {exc}") from exc
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.call("initialize", {"clientInfo": {"name": "workmem", "version": "1"}})
        self._send({"method": "initialized"})

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except OSError as exc:
            raise CodexUnavailableError(f"codex app-server stopped: {exc}") from exc

    def call(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        wanted = self.next_id
        self._send({"id": wanted, "method": method, "params": params})
        while True:
            try:
                line = self.lines.get(timeout=ANSWER_SECONDS)
            except queue.Empty as exc:
                raise CodexUnavailableError(f"codex app-server gave no answer to {method}") from exc
            if line is None:
                raise CodexUnavailableError(f"codex app-server exited before answering {method}")
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if not isinstance(message, dict) or message.get("id") != wanted:
                continue  # notifications and other answers
            if "error" in message:
                error = message["error"]
                detail = error.get("message") if isinstance(error, dict) else error
                raise CodexUnavailableError(f"codex app-server refused {method}: {detail}")
            return message.get("result")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)

    def __enter__(self) -> AppServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _hooks(result: Any) -> list[CodexHook]:
    found: list[CodexHook] = []
    data = result.get("data", []) if isinstance(result, dict) else []
    for entry in data if isinstance(data, list) else []:
        for hook in entry.get("hooks", []) if isinstance(entry, dict) else []:
            if not isinstance(hook, dict) or not isinstance(hook.get("key"), str):
                continue
            found.append(
                CodexHook(
                    key=hook["key"],
                    event=str(hook.get("eventName", "")),
                    command=str(hook.get("command") or ""),
                    source_path=str(hook.get("sourcePath") or ""),
                    trust=str(hook.get("trustStatus", "")),
                    current_hash=str(hook.get("currentHash", "")),
                )
            )
    return found


def find_codex(env: Mapping[str, str] | None = None) -> str | None:
    environ = os.environ if env is None else env
    return shutil.which("codex", path=environ.get("PATH"))


def _server(project: Path, home: Path, env: Mapping[str, str] | None) -> AppServer:
    environ = dict(os.environ if env is None else env)
    environ.setdefault("HOME", str(home))
    codex = find_codex(environ)
    if codex is None:
        raise CodexUnavailableError("codex is not on PATH")
    return AppServer(codex, cwd=project, env=environ)


def _is_ours(hook: CodexHook) -> bool:
    from .hook_line import is_our_command

    return is_our_command(hook.command, "codex")


def list_ours(
    project: Path, home: Path, *, env: Mapping[str, str] | None = None
) -> list[CodexHook]:
    """workmem's hooks as Codex sees them from ``project``, with their trust."""
    with _server(project, home, env) as server:
        listed = server.call("hooks/list", {"cwds": [str(project)]})
    return [h for h in _hooks(listed) if _is_ours(h)]


def project_trusted(project: Path, home: Path, env: Mapping[str, str] | None = None) -> bool | None:
    """Whether Codex trusts ``project`` (its ``[projects."<path>"] trust_level`` for the
    folder or a folder above it, the nearest deciding); None when the config cannot be read."""
    import tomllib

    path = codex_home(home, env) / "config.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    projects = data.get("projects")
    if not isinstance(projects, dict):
        return False
    target = project.resolve()
    for folder in (target, *target.parents):
        entry = projects.get(str(folder))
        if isinstance(entry, dict) and isinstance(entry.get("trust_level"), str):
            return bool(entry["trust_level"] == "trusted")
    return False


def untrusted_project_reason(project: Path) -> str:
    return (
        f"Codex has not trusted the project {project} yet, so it does not read its .codex/ "
        "folder and runs none of these hooks: start `codex` there once and trust the "
        "project, then run this again"
    )


def trust_ours(
    project: Path,
    home: Path,
    *,
    env: Mapping[str, str] | None = None,
    scope: str = "user",
) -> list[CodexHook]:
    """Trust every workmem hook Codex reports as not trusted; returns the hooks as Codex
    reports them afterwards.

    Raises ``CodexUnavailableError`` when Codex cannot be asked, when the project's hooks
    cannot run because Codex does not trust the project, or when Codex shows none of
    workmem's hooks (nothing is reported as trusted that Codex does not confirm).
    """
    if scope == "project" and project_trusted(project, home, env) is False:
        raise CodexUnavailableError(untrusted_project_reason(project))
    with _server(project, home, env) as server:
        ours = [
            h for h in _hooks(server.call("hooks/list", {"cwds": [str(project)]})) if _is_ours(h)
        ]
        pending = {h.key: {"trusted_hash": h.current_hash} for h in ours if h.trust != "trusted"}
        if pending:
            edit = {"keyPath": "hooks.state", "value": pending, "mergeStrategy": "upsert"}
            server.call("config/batchWrite", {"edits": [edit]})
        after = [
            h for h in _hooks(server.call("hooks/list", {"cwds": [str(project)]})) if _is_ours(h)
        ]
    if not after:
        raise CodexUnavailableError(
            "Codex lists none of workmem's hooks from this folder (is the project trusted "
            "in Codex, and are hooks on?), so there was nothing to trust"
        )
    left = [h.event for h in after if h.trust not in ("trusted", "managed")]
    if left:
        raise CodexUnavailableError(f"Codex still reports these hooks as not trusted: {left}")
    return after


def codex_feature(text: str | None) -> str | None:
    """config.toml with the deprecated ``codex_hooks`` feature key renamed to ``hooks``.

    Codex's hooks are on by default under the feature key ``hooks``; ``codex_hooks`` (which
    earlier workmem versions wrote) is an alias that makes Codex print a warning on every
    start. Edited as text; None when there is nothing to change.
    """
    current = text or ""
    if not re.search(r"(?m)^\s*codex_hooks\s*=", current):
        return None
    if re.search(r"(?m)^\s*hooks\s*=", current):
        return re.sub(r"(?m)^\s*codex_hooks\s*=.*\n?", "", current)
    return re.sub(r"(?m)^(\s*)codex_hooks(\s*=)", r"\1hooks\2", current)


def codex_hooks_off(text: str | None) -> bool:
    return bool(re.search(r"(?m)^\s*(?:codex_)?hooks\s*=\s*false\b", text or ""))

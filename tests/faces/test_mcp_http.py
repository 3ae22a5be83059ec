"""The MCP server over HTTP serves its own user only: a token on 127.0.0.1, a socket only
that user can open, and another local account refused (a real one, when the tests run as
root, as CI does)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP extra is not installed (pip install 'workmem[mcp]')")

import anyio

from workmem.errors import OutsideRootError, WorkmemError
from workmem.mcp_server.token import TOKEN_ENV, load_token, token_path

from .mcp_util import run_hook, server_env

NOBODY = 65534
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running(args: list[str], env: dict[str, str], ready: Any) -> Iterator[subprocess.Popen[str]]:
    server = subprocess.Popen(
        [sys.executable, "-m", "workmem", "mcp", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not ready():
            if server.poll() is not None:
                raise AssertionError(f"the server stopped: {server.stderr.read()}")  # type: ignore[union-attr]
            if time.monotonic() > deadline:
                raise AssertionError("the server did not start")
            time.sleep(0.1)
        yield server
    finally:
        server.terminate()
        server.wait(timeout=10)


def _listening(port: int) -> Any:
    def ready() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        except OSError:
            return False
        return True

    return ready


def _post(url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any] | str]:
    request = urllib.request.Request(
        url,
        data=json.dumps(INIT).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


async def _tools_with(url: str, token: str, uds: str | None = None) -> list[str]:
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    transport = httpx2.AsyncHTTPTransport(uds=uds) if uds else None
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, transport=transport, timeout=30) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        names = [t.name for t in (await session.list_tools()).tools]
        result = await session.call_tool("which_workflow", {"text": "整理 memory"})
        assert not result.is_error
        current = await session.call_tool("session_current", {})
        assert not current.is_error
        # a server several clients share serves no one conversation: it guesses none
        assert current.structured_content in (None, {"result": None}), current
        return names


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    return tmp_path / "config" / "workmem" / "mcp-token"


def test_http_answers_only_requests_with_the_token(tmp_path: Path, token_file: Path) -> None:
    port = _free_port()
    env = server_env(tmp_path / "home", **{TOKEN_ENV: str(token_file)})
    url = f"http://127.0.0.1:{port}/mcp"
    # a session the hooks registered from this process, which also starts the server
    (tmp_path / "workmem.toml").write_text("", encoding="utf-8")
    run_hook(tmp_path, "codex", "SessionStart", {"session_id": "t-1", "source": "startup"}, env)
    with running(["--http", "--port", str(port), "--root", str(tmp_path)], env, _listening(port)):
        # the token file: made on the first start, readable by its user alone
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700
        token = token_file.read_text().strip()
        assert len(token) >= 40
        status, body = _post(url, {})
        assert status == 401 and isinstance(body, dict)
        assert "answers its own user only" in body["message"] and str(token_file) in body["message"]
        assert token not in json.dumps(body)
        assert _post(url, {"Authorization": f"Bearer {token[:-1]}x"})[0] == 401
        assert _post(url, {"Authorization": token})[0] == 401  # the scheme is part of it
        assert _post(url, {"Authorization": f"Bearer {token}"})[0] == 200
        names = anyio.run(_tools_with, url, token)
        assert "session_start" in names and "get" in names
    # a second start keeps the same token (clients keep working)
    port = _free_port()
    with running(["--http", "--port", str(port), "--root", str(tmp_path)], env, _listening(port)):
        assert token_file.read_text().strip() == token
        assert anyio.run(_tools_with, f"http://127.0.0.1:{port}/mcp", token)


def test_a_token_file_others_can_read_or_a_link_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "mcp-token"
    token, where, created = load_token(path)
    assert created and where == path and load_token(path) == (token, path, False)
    path.chmod(0o644)
    with pytest.raises(OutsideRootError, match=r"can be read by other users \(mode 644\)"):
        load_token(path)
    path.chmod(0o600)
    link = tmp_path / "cfg" / "link-token"
    link.symlink_to(path)
    with pytest.raises(OutsideRootError, match="symbolic link"):
        load_token(link)
    fifo = tmp_path / "cfg" / "fifo-token"
    os.mkfifo(fifo)
    with pytest.raises(OutsideRootError):  # refused at once, not waited on
        load_token(fifo)
    short = tmp_path / "cfg" / "short-token"
    short.write_text("abc\n")
    short.chmod(0o600)
    with pytest.raises(WorkmemError, match="does not hold a token"):
        load_token(short)


def test_the_server_will_not_start_on_a_token_others_can_read(
    tmp_path: Path, token_file: Path
) -> None:
    load_token(token_file)
    token_file.chmod(0o640)
    env = server_env(tmp_path / "home", **{TOKEN_ENV: str(token_file)})
    done = subprocess.run(
        [sys.executable, "-m", "workmem", "mcp", "--http", "--port", str(_free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 4
    assert f"chmod 600 {token_file}" in done.stderr


def test_mcp_help_says_where_the_token_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from workmem.cli import main

    monkeypatch.delenv(TOKEN_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert token_path() == tmp_path / "xdg" / "workmem" / "mcp-token"
    with pytest.raises(SystemExit):
        main(["mcp", "--help"])
    out = capsys.readouterr().out
    assert str(tmp_path / "xdg" / "workmem" / "mcp-token") in out
    assert '--header "Authorization: Bearer $(cat' in out
    assert "--bearer-token-env-var WORKMEM_MCP_TOKEN" in out
    assert not (tmp_path / "xdg").exists()  # showing the place creates nothing


def test_a_unix_socket_only_its_user_can_open(tmp_path: Path) -> None:
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"wm-sock-{os.getpid()}"
    folder.mkdir(mode=0o755)
    try:
        path = folder / "mcp.sock"
        env = server_env(tmp_path / "home")
        with running(["--socket", str(path), "--root", str(tmp_path)], env, path.exists):
            assert stat.S_ISSOCK(path.lstat().st_mode)
            assert stat.S_IMODE(path.lstat().st_mode) == 0o600
            names = anyio.run(_tools_with, "http://localhost/mcp", "", str(path))
            assert "session_start" in names
        assert not path.exists()  # removed when the server stops
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---- another account of this machine ------------------------------------------------------------

CLIENT = """
INIT = %INIT%
import json, socket, sys, urllib.error, urllib.request
token_file, url, sock_path = sys.argv[1:4]
seen = {}
try:
    open(token_file).read()
    seen["token"] = "read"
except OSError as exc:
    seen["token"] = type(exc).__name__
body = json.dumps(INIT).encode()
request = urllib.request.Request(url, data=body, method="POST", headers={
    "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
try:
    urllib.request.urlopen(request, timeout=10)
    seen["http"] = 200
except urllib.error.HTTPError as error:
    seen["http"] = error.code
    seen["message"] = json.loads(error.read())["message"]
client = socket.socket(socket.AF_UNIX)
try:
    client.connect(sock_path)
    seen["socket"] = "connected"
except OSError as exc:
    seen["socket"] = type(exc).__name__
print(json.dumps(seen))
""".replace("%INIT%", repr(INIT))


def _as_another_user() -> list[str]:
    """The command prefix that runs a program as ``nobody``, or skip saying why not."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("running a client as another account needs root (CI runs the tests as root)")
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not installed: no way to become another account")
    prefix = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import os; print(os.getuid())"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if probe.returncode != 0 or probe.stdout.strip() != str(NOBODY):
        pytest.skip(f"nobody cannot run this Python ({sys.executable}): {probe.stderr[-200:]}")
    return prefix


def test_another_local_account_is_refused(tmp_path: Path) -> None:
    prefix = _as_another_user()
    shared = Path(os.environ.get("TMPDIR", "/tmp")) / f"wm-other-{os.getpid()}"
    shared.mkdir(mode=0o755)  # a folder every account can enter: only the modes inside protect
    try:
        token_file = shared / "config" / "mcp-token"
        sock_path = shared / "mcp.sock"
        script = shared / "client.py"
        script.write_text(CLIENT, encoding="utf-8")
        script.chmod(0o644)
        port = _free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        env = server_env(tmp_path / "home", **{TOKEN_ENV: str(token_file)})
        with (
            running(
                ["--http", "--port", str(port), "--root", str(tmp_path)], env, _listening(port)
            ),
            running(["--socket", str(sock_path), "--root", str(tmp_path)], env, sock_path.exists),
        ):
            token_file.parent.chmod(0o755)  # even with its folder open, the file stays closed
            done = subprocess.run(
                [*prefix, sys.executable, str(script), str(token_file), url, str(sock_path)],
                capture_output=True,
                text=True,
                timeout=60,
                cwd=shared,
            )
            assert done.returncode == 0, done.stderr
            seen = json.loads(done.stdout)
            # and the owner, with the token, is served by both
            token = token_file.read_text().strip()
            assert anyio.run(_tools_with, url, token)
            assert anyio.run(_tools_with, "http://localhost/mcp", "", str(sock_path))
        assert seen["token"] == "PermissionError"
        assert seen["http"] == 401 and "answers its own user only" in seen["message"]
        assert seen["socket"] == "PermissionError"
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_only_the_mcp_command_imports_the_sdk() -> None:
    probe = (
        "import sys\nfrom workmem.cli import build_parser\nbuild_parser().format_help()\n"
        "import workmem.mcp_server, workmem.mcp_server.token, workmem.mcp_server.coverage\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'mcp', 'uvicorn', 'starlette', 'httpx2', 'pydantic', 'anyio'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"

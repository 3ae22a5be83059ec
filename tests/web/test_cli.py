"""``workmem serve``: its help, a missing extra, the network warning, and a real server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from workmem.cli import main
from workmem.web import allowed_hosts, is_loopback


def test_serve_help_names_its_options_and_extra(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--host" in out and "--port" in out
    assert "default 127.0.0.1" in out and "default 8766" in out
    assert "optional extra `web`" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "serve" in capsys.readouterr().out


@pytest.mark.parametrize("module", ["starlette", "uvicorn"])
def test_a_missing_extra_says_how_to_install_it(
    root: Path, module: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # the import now fails as if not installed
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert f"the web viewer ({module} is missing) needs the optional extra `web`" in err
    # the route of this install (the test virtualenv: pip), with the extra's packages
    assert "-m pip install 'starlette>=0.37' 'uvicorn>=0.30'" in " ".join(err.split())
    assert "Traceback" not in err


class FakeServe:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, workspace: Any, *, host: str, port: int) -> None:
        self.calls.append({"root": workspace.root, "host": host, "port": port})


@pytest.fixture
def fake_serve(monkeypatch: pytest.MonkeyPatch) -> FakeServe:
    pytest.importorskip("uvicorn")
    import workmem.web.app

    fake = FakeServe()
    monkeypatch.setattr(workmem.web.app, "serve", fake)
    return fake


def test_loopback_by_default_and_a_warning_for_other_hosts(
    root: Path, fake_serve: FakeServe, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve"]) == 0
    quiet = capsys.readouterr()
    assert fake_serve.calls[-1] == {"root": root, "host": "127.0.0.1", "port": 8766}
    assert "http://127.0.0.1:8766/" in quiet.out and "read-only" in quiet.out
    assert quiet.err == ""

    assert main(["serve", "--host", "0.0.0.0", "--port", "9000"]) == 0
    loud = capsys.readouterr()
    assert fake_serve.calls[-1]["host"] == "0.0.0.0"
    assert "warning: listening on 0.0.0.0" in loud.err
    assert "visible on the network" in loud.err

    assert main(["serve", "--json", "--port", "9001"]) == 0
    assert json.loads(capsys.readouterr().out)["url"] == "http://127.0.0.1:9001/"
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port takes 0 to 65535" in capsys.readouterr().err


def test_which_hosts_count_as_loopback() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "192.168.1.5", "example.com"))
    assert allowed_hosts("0.0.0.0") == ["*"]
    assert "localhost" in allowed_hosts("127.0.0.1") and "*" not in allowed_hosts("127.0.0.1")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_real_command_serves_and_a_taken_port_is_an_error(root: Path) -> None:
    pytest.importorskip("uvicorn")
    (root / "memory").mkdir()
    port = _free_port()
    command = [sys.executable, "-m", "workmem", "serve", "--root", str(root), "--port", str(port)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as reply:
                    page = reply.read().decode("utf-8")
                break
            except OSError:
                assert server.poll() is None, server.communicate()
                assert time.monotonic() < deadline, "workmem serve did not answer"
                time.sleep(0.05)
        assert "<h1>Session board</h1>" in page and "No sessions on the board." in page

        second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=20)
        assert second.returncode == 1
        assert f"could not listen on 127.0.0.1:{port}" in second.stderr
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert f"http://127.0.0.1:{port}/" in (server.stdout.read() if server.stdout else "")


_PROBE = """
import json, sys
from workmem.cli import build_parser
import workmem.web, workmem.cli.web_cmds
build_parser()  # every command's parser, as `workmem --help` builds them
print(json.dumps(sorted(m for m in ("starlette", "uvicorn") if m in sys.modules)))
"""


def test_only_serve_imports_starlette_and_uvicorn() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == []

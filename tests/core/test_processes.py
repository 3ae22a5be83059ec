"""The agent process a hook runs for, and whether it is still there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workmem.files.oscompat import _proc_stat, still_running

linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


@linux
def test_the_agent_is_the_first_ancestor_that_is_not_a_shell(tmp_path: Path) -> None:
    # awk (standing for the agent) -> sh -> python: a hook started through `sh -c`
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from workmem.files.oscompat import _proc_stat, agent_process\n"
        "found = agent_process()\n"
        "print(_proc_stat(int(found.split(':')[0]))[0] if found else None)\n"
    )
    inner = f"{sys.executable} {probe}"
    command = f"BEGIN {{ system(\"sh -c '{inner}'\") }}"
    out = subprocess.run(["awk", command], capture_output=True, text=True, check=True)
    assert out.stdout.strip() in ("awk", "mawk", "gawk", "busybox")


@linux
def test_a_dead_or_recycled_process_is_not_running() -> None:
    me = _proc_stat(os.getpid())
    assert me is not None
    assert still_running(f"{os.getpid()}:{me[2]}") is True
    assert still_running(f"{os.getpid()}:{me[2]}0") is False  # same PID, another process
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert still_running(f"{child.pid}:1") is False


@linux
def test_a_killed_process_nobody_reaped_yet_is_not_running() -> None:
    """A killed agent stays a zombie until its parent reaps it (a container whose first
    process never reaps, a parent busy elsewhere); it runs nothing: stopped."""
    child = subprocess.Popen(["sleep", "60"])
    try:
        found = _proc_stat(child.pid)
        assert found is not None
        identity = f"{child.pid}:{found[2]}"
        assert still_running(identity) is True
        os.kill(child.pid, signal.SIGKILL)  # not reaped: Popen.wait/poll would reap it
        stat = Path(f"/proc/{child.pid}/stat")
        deadline = time.monotonic() + 10
        while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":
            assert time.monotonic() < deadline, "the killed child never became a zombie"
            time.sleep(0.01)
        assert still_running(identity) is False
    finally:
        child.kill()
        child.wait()


def test_a_record_without_an_identity_cannot_tell() -> None:
    assert still_running(None) is None and still_running({"pid": 3}) is None
    assert still_running("x:1") is None and still_running("12") is None

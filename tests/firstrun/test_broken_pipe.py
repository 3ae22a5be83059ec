"""``workmem … | head``: a reader that leaves early ends the command quietly, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.cli.output import CLOSED_PIPE


def run_into_closed_pipe(
    root: Path, *argv: str, buffered: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run workmem with stdout a pipe whose reader closed before the first write.

    Closing the read end before the process starts makes every write fail with EPIPE, as
    it does once ``head`` has read its lines and exited; nothing depends on timing.
    """
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "workmem", *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=root,
            env=env,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "argv",
    [
        ("--help",),
        ("session", "list"),
        ("session", "list", "--json"),
        ("search", "login rate limiting"),
        ("platform",),
    ],
    ids=["help", "session-list", "session-list-json", "search", "platform"],
)
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_closed_pipe_ends_quietly(root: Path, argv: tuple[str, ...], buffered: bool) -> None:
    for n in range(3):
        subprocess.run(
            [sys.executable, "-m", "workmem", "session", "register", "--topic", f"login {n}"],
            cwd=root,
            check=True,
            capture_output=True,
        )
    done = run_into_closed_pipe(root, *argv, buffered=buffered)
    assert done.stderr == "", done.stderr  # no traceback, no "Exception ignored"
    # argparse itself swallows a failed write of --help and exits 0; everything else says
    # that its output was cut short
    assert done.returncode == (0 if argv == ("--help",) and not buffered else CLOSED_PIPE)


def test_open_pipe_still_gets_everything(root: Path) -> None:
    """The guard changes nothing while the reader stays."""
    done = subprocess.run(
        [sys.executable, "-m", "workmem", "--help"],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
    )
    assert done.returncode == 0 and "usage: workmem" in done.stdout

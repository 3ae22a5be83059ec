"""Every reader of a file it is handed goes through the bounded read.

A FIFO, ``/dev/zero``, a socket or a huge sparse file given as a transcript (to the
reader, the incremental reader the hooks use, the notes refresh the MCP tool and the CLI
call, the CLI's ``--transcript``), as ``workmem.toml``, as a memory file, as an ``@file``
argument: each is refused in the core with a message that names what it is, whichever
face passed it. Each call runs in a child process with a timeout and a memory cap, so a
regression fails here instead of hanging or filling the machine.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from workmem.errors import FormatError, OutsideRootError, UsageError
from workmem.files.bounded import NotAFileError, ReadLimitError
from workmem.transcripts import window
from workmem.transcripts.read import read_transcript

from ..core.test_bounded import run_child

SID = "2026-05-25-1318-cursor-main-agent"

#: One call of one reader on ``sys.argv[1]`` (root in ``sys.argv[2]``); prints the outcome.
PROBES: dict[str, str] = {
    "read_transcript": "from workmem.transcripts.read import read_transcript as f\n"
    "f(path, 'claude-code')",
    "read_window": "from workmem.transcripts.read import read_transcript as f\n"
    "f(path, 'claude-code', max_bytes=1024)",
    "incremental (hooks)": "from workmem.files.store import Store\n"
    "from workmem.transcripts.incremental import TranscriptTail\n"
    "TranscriptTail(Store(Workspace(root))).update(path, 'claude-code')",
    "context usage (hooks)": "from workmem.files.store import Store\n"
    "from workmem.relay.usage import context_usage\n"
    "context_usage(path, 'claude-code', store=Store(Workspace(root)))",
    "notes refresh (MCP, CLI)": "from workmem.notes.workflow import update_notes\n"
    f"update_notes(Workspace(root), session_id='{SID}', transcript=path)",
    "relay snapshot": "from workmem.relay.template import SnapshotNotes\n"
    "from workmem.relay.workflows import snapshot\n"
    "snapshot(Workspace(root), SnapshotNotes(), transcript=path, force=True)",
}
_CHILD = """
import sys
from pathlib import Path
from workmem.root import Workspace
path, root = Path(sys.argv[1]), Path(sys.argv[2])
try:
{body}
except Exception as exc:
    print(type(exc).__name__ + ": " + str(exc))
else:
    print("no error")
"""


def probe(name: str, path: Path, root: Path) -> str:
    body = "\n".join("    " + line for line in PROBES[name].split("\n"))
    return run_child(_CHILD.format(body=body), str(path), str(root))


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="wm-", dir="/tmp"))
    path = folder / "s.jsonl"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    try:
        yield path
    finally:
        server.close()
        path.unlink()
        folder.rmdir()


@pytest.mark.parametrize("name", sorted(PROBES))
def test_a_fifo_given_as_a_transcript_is_refused_by_every_reader(
    name: str, fifo: Path, root: Path
) -> None:
    out = probe(name, fifo, root)
    assert out == f"NotAFileError: {fifo}: is a named pipe (FIFO), not a regular file; not read"
    assert not (root / "memory").exists()  # nothing was started for it


@pytest.mark.parametrize("name", sorted(PROBES))
def test_dev_zero_given_as_a_transcript_is_refused_by_every_reader(name: str, root: Path) -> None:
    out = probe(name, Path("/dev/zero"), root)
    assert out == "NotAFileError: /dev/zero: is a character device, not a regular file; not read"


def test_a_socket_and_dev_null_are_refused_by_the_reader(unix_socket: Path) -> None:
    with pytest.raises(NotAFileError, match="is a socket"):
        read_transcript(unix_socket, "claude-code")
    with pytest.raises(NotAFileError, match="is a character device"):
        read_transcript(Path("/dev/null"), "claude-code")


def test_a_huge_sparse_transcript_is_refused_whole_and_read_in_part(tmp_path: Path) -> None:
    """Read whole, it is refused by its size; read by a save (head, plan, tail), the scan of
    its middle is bounded in time and what it did not reach counts as not read."""
    sparse = tmp_path / "huge.jsonl"
    head = json.dumps({"type": "user", "message": {"role": "user", "content": "hi"}})
    with sparse.open("wb") as handle:
        handle.write(head.encode() + b"\n")
        handle.truncate(3 * 1024**3)
    with pytest.raises(ReadLimitError, match="over the 1,073,741,824-byte limit; nothing was read"):
        read_transcript(sparse, "claude-code")
    data, skipped = window.read_window(sparse, 1024, seconds=0)
    assert data.startswith(head.encode()) and len(data) < 2 * 1024 + window.HEAD_BYTES
    assert skipped == 3 * 1024**3 - len(data)


def test_settings_and_memory_files_that_are_not_files_are_refused(root: Path, fifo: Path) -> None:
    from workmem.config import load_settings
    from workmem.files.store import Store
    from workmem.root import Workspace

    (root / "workmem.toml").symlink_to(fifo)  # a link to a pipe outside: refused by the guard
    with pytest.raises(OutsideRootError):
        load_settings(Workspace(root))
    (root / "workmem.toml").unlink()
    os.mkfifo(root / "workmem.toml")
    out = run_child(
        "import sys\nfrom pathlib import Path\nfrom workmem.config import load_settings\n"
        "from workmem.root import Workspace\n"
        "try:\n    load_settings(Workspace(Path(sys.argv[1])))\n"
        "except Exception as exc:\n    print(exc)\n",
        str(root),
    )
    assert out == f"{root}/workmem.toml: is a named pipe (FIFO), not a regular file; not read"
    (root / "memory").mkdir()
    os.mkfifo(root / "memory" / "index.md")
    with pytest.raises(NotAFileError, match=r"memory/index\.md: is a named pipe"):
        Store(Workspace(root)).read_bytes(root / "memory" / "index.md")


def test_an_at_file_argument_is_bounded(fifo: Path) -> None:
    out = run_child(
        "import sys\nfrom workmem.cli.inputs import text_arg\n"
        "try:\n    text_arg('@' + sys.argv[1])\n"
        "except Exception as exc:\n    print(type(exc).__name__ + ': ' + str(exc))\n",
        str(fifo),
    )
    assert out == f"NotAFileError: {fifo}: is a named pipe (FIFO), not a regular file; not read"
    from workmem.cli.inputs import text_arg

    with pytest.raises(UsageError, match="cannot read /nonexistent/file: no such file"):
        text_arg("@/nonexistent/file")


def test_the_cli_transcript_option_refuses_a_fifo_with_a_clear_error(
    fifo: Path, root: Path, tmp_path: Path
) -> None:
    """As a user runs it: exit code of a format error, one line that says what it is."""
    env = {**os.environ, "WORKMEM_ROOT": str(root), "HOME": str(tmp_path / "home")}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "workmem", "notes", "--session", SID, "--transcript", str(fifo)],
            capture_output=True,
            text=True,
            timeout=30,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("workmem notes --transcript FIFO hung")
    assert done.returncode == FormatError.exit_code
    assert "is a named pipe (FIFO), not a regular file; not read" in done.stderr
    assert "Traceback" not in done.stderr

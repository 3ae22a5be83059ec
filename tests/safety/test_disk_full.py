"""A full disk, for real: a 512 KB tmpfs mounted in a private mount namespace
(``unshare -rm``, no root needed where user namespaces are allowed), filled to the last
byte. ``workmem search`` must end with a clear message and exit 6, never a traceback, and
no memory file may change. Skips with the reason where namespaces are not available."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .util import SRC, workmem

INNER = textwrap.dedent(
    """
    import json, os, shutil, subprocess, sys
    from pathlib import Path

    source, mount, python, src = map(Path, sys.argv[1:5])
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], check=True)
    root = mount / "ws"
    shutil.copytree(source, root, symlinks=True)
    extra = root / "memory" / "2026-05-26.md"  # a new file the index has not seen
    extra.write_text("# 2026-05-26\\n\\n" + "The quokka benchmark ran again. " * 40 + "\\n")
    fd = os.open(mount / "filler", os.O_WRONLY | os.O_CREAT)  # fill it to the last byte
    for size in (65536, 4096, 512, 64, 1):
        try:
            while True:
                os.write(fd, b"\\0" * size)
        except OSError:
            pass
    os.close(fd)
    files = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
             if p.is_file() and ".workmem" not in p.parts}
    env = {**os.environ, "PYTHONPATH": str(src), "WORKMEM_ROOT": str(root)}
    results = {}
    for name, argv in {
        "search": ["search", "quokka"],
        "search-json": ["search", "quokka", "--json"],
        "reindex": ["reindex", "--full"],
        "session-start": ["session", "start"],
    }.items():
        done = subprocess.run([str(python), "-m", "workmem", *argv], env=env,
                              capture_output=True, text=True, timeout=120)
        results[name] = [done.returncode, done.stdout, done.stderr]
    after = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
             if p.is_file() and ".workmem" not in p.parts}
    results["memory files unchanged"] = after == files
    results["disk free"] = shutil.disk_usage(mount).free
    leftovers = [str(p) for p in root.rglob("*.tmp")]
    results["temp files"] = leftovers
    print(json.dumps(results))
    """
)


def _namespaces_work() -> str | None:
    if shutil.which("unshare") is None:
        return "the unshare command is not installed"
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt 2>&1 || exit 1"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return f"no private mount namespace here ({(probe.stderr or probe.stdout).strip()})"
    return None


def test_search_on_a_full_disk_is_a_clean_error(root: Path, tmp_path: Path) -> None:
    reason = _namespaces_work()
    if reason:
        pytest.skip(reason)
    for argv in (
        ["init"],
        ["session", "register", "--topic", "Benchmarks", "--context", "The quokka won."],
        ["note", "decision", "Use SQLite", "--why", "no server"],
    ):
        assert workmem(*argv, root=root).returncode == 0
    assert workmem("search", "quokka", root=root).returncode == 0  # an index to refresh
    mount = tmp_path / "mnt"
    mount.mkdir()
    inner = tmp_path / "inner.py"
    inner.write_text(INNER)

    done = subprocess.run(
        ["unshare", "-rm", sys.executable, str(inner), str(root), str(mount), sys.executable, SRC],
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["disk free"] < 4096, "the disk was not full"
    for name in ("search", "reindex", "session-start"):
        code, _out, err = results[name]
        assert code == 6, (name, err)
        assert "Traceback" not in err, err
        assert "the disk is full" in err, err
    code, out, _err = results["search-json"]
    payload = json.loads(out)
    assert code == 6 and payload["ok"] is False and payload["kind"] == "WriteError"
    assert "the disk is full" in payload["error"]
    assert "unchanged" in results["search"][2]
    assert results["memory files unchanged"]
    assert results["temp files"] == []

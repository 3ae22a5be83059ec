"""The safe-write primitive every workflow goes through.

One discipline for every file (DESIGN.md principle 2): take the file's lock, re-read the
latest content, change only what the operation owns, write a temp file, fsync it,
``os.replace`` it over the original, fsync the folder, re-read and compare. Only then
does the caller hear "done". Any failure leaves the previous file in place and raises
``WriteError``; no temp file is left behind.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import WriteError
from ..root import Workspace
from .text import PLAIN, TextStyle, decode, encode

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .locks import FileLock

_tmp_counter = itertools.count()


def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise WriteError(f"{path}: is a folder, expected a file") from None


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on folders; the rename is still atomic
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{next(_tmp_counter)}.tmp")
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        reason = errno.errorcode.get(exc.errno or 0, "") if exc.errno else ""
        detail = f"{exc.strerror or exc}" + (f" [{reason}]" if reason else "")
        raise WriteError(
            f"writing {path} failed: {detail}; the previous file is unchanged"
        ) from exc
    _fsync_dir(path.parent)


def remove_orphan_temps(path: Path, pid: int) -> None:
    """Delete the temp files that writer ``pid``, killed mid-write, left beside ``path``.

    Called by the lock of ``path`` when it finds its last holder died holding it: every
    write of ``path`` happens under that lock, so such a temp can only be garbage. The
    file itself is always whole (temps are renamed over it in one step).
    """
    import glob

    for leftover in path.parent.glob(f".{glob.escape(path.name)}.{pid}.*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


@dataclass(frozen=True)
class WriteResult:
    """What ``update`` did, so callers can report "unchanged" without re-reading."""

    path: Path
    changed: bool
    created: bool


class Store:
    """Locked, verified access to the files of one workspace.

    Locks are cached per path so one workflow can hold a file's lock across several
    steps (re-read, decide, write) and nested helpers can take it again.
    """

    def __init__(self, workspace: Workspace, lock_timeout: float = 10.0):
        self.workspace = workspace
        self.lock_timeout = lock_timeout
        self._locks: dict[Path, FileLock] = {}

    def lock(self, path: Path) -> FileLock:
        key = path.absolute()
        existing = self._locks.get(key)
        if existing is not None:
            return existing
        from .locks import FileLock  # on first lock only: a read-only hook never takes one

        try:
            rel = key.relative_to(self.workspace.root.absolute()).as_posix()
        except ValueError:
            rel = "abs" + key.as_posix()
        name = rel.replace("%", "%25").replace("/", "%2F") + ".lock"
        created = FileLock(
            self.workspace.locks_dir / name,
            timeout=self.lock_timeout,
            label=self.show(path),
            on_takeover=functools.partial(remove_orphan_temps, key),
        )
        self._locks[key] = created
        return created

    def show(self, path: Path) -> str:
        return self.workspace.relative(path)

    def read_text(self, path: Path) -> tuple[str, TextStyle] | None:
        data = read_bytes(path)
        if data is None:
            return None
        return decode(data, self.show(path))

    def write_text(self, path: Path, text: str, style: TextStyle = PLAIN) -> None:
        """Write and verify; the caller must already hold ``path``'s lock."""
        if not self.lock(path).held:
            raise RuntimeError(f"write to {path} without holding its lock")
        data = encode(text, style)
        atomic_write_bytes(path, data)
        if read_bytes(path) != data:
            raise WriteError(
                f"{self.show(path)}: re-read after writing does not match what was written"
            )

    def update(
        self,
        path: Path,
        change: Callable[[str | None], str],
        *,
        verify: Callable[[str], None] | None = None,
    ) -> WriteResult:
        """Lock, re-read the latest content, apply ``change``, write atomically, verify.

        ``change`` receives the current text (``None`` if the file is missing) and returns
        the full new text; it must raise rather than return something it cannot stand by.
        ``verify`` re-checks the re-read file from the caller's point of view.
        """
        with self.lock(path):
            previous = read_bytes(path)
            current = None if previous is None else decode(previous, self.show(path))
            old_text, style = current if current is not None else (None, TextStyle())
            new_text = change(old_text)
            if new_text == old_text:
                return WriteResult(path, changed=False, created=False)
            self.write_text(path, new_text, style)
            if verify is not None:
                reread = self.read_text(path)
                try:
                    verify(reread[0] if reread else "")
                except BaseException:
                    # The caller's check failed: put the previous file back, then report.
                    FileUndo(path, previous).restore()
                    raise
            return WriteResult(path, changed=True, created=old_text is None)

    def move(self, source: Path, target: Path) -> None:
        """Atomically move a file inside the workspace and verify both ends."""
        data = read_bytes(source)
        if data is None:
            raise WriteError(f"cannot move {self.show(source)}: it does not exist")
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(source, target)
        except OSError as exc:
            raise WriteError(
                f"moving {self.show(source)} to {self.show(target)} failed: {exc.strerror or exc}"
            ) from exc
        _fsync_dir(target.parent)
        _fsync_dir(source.parent)
        if source.exists() or read_bytes(target) != data:
            raise WriteError(f"moving {self.show(source)} to {self.show(target)} did not verify")


@dataclass
class FileUndo:
    """The previous bytes of a file, to restore when a later step of a workflow fails."""

    path: Path
    previous: bytes | None

    def restore(self) -> None:
        try:
            if self.previous is None:
                self.path.unlink(missing_ok=True)
            else:
                atomic_write_bytes(self.path, self.previous)
        except (OSError, WriteError):
            pass  # best effort: the caller is already reporting the original failure

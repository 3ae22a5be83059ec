"""The safe-write primitive every workflow goes through.

One discipline for every file (DESIGN.md principle 2): take the file's lock, re-read the
latest content, change only what the operation owns, write a temp file, fsync it,
``os.replace`` it over the original, fsync the folder, re-read and compare. Only then
does the caller hear "done". Any failure leaves the previous file in place and raises
``WriteError``; no temp file is left behind, whatever stopped the write (a disk error, a
hook's deadline, Ctrl-C).

Every path the store reads, writes, locks, moves or creates a folder for first passes its
``RootGuard`` (``confine``): inside the root only, never through a link that leads out,
and no memory root started where nobody asked for one. Reads take no lock and create
nothing, so a read-only command or the web viewer leaves the files as they were.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import NotFoundError, WorkmemError, WriteError
from ..root import Workspace
from .bounded import NotAFileError, read_file, reason
from .confine import RootGuard
from .oscompat import NO_FOLLOW, fsync_dir
from .text import MAX_FILE_BYTES, PLAIN, TextStyle, decode, encode

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .locks import FileLock

_tmp_counter = itertools.count()


def read_bytes(path: Path, *, limit: int | None = None) -> bytes | None:
    """The bytes of ``path``, ``None`` when it does not exist. Not confined: the store's
    ``read_bytes`` is, and is what workflows use. Bounded like every read (``bounded``):
    ``limit`` bytes, ``MAX_FILE_BYTES`` unless said."""
    return _read_memory_file(path, str(path), limit)


def _read_memory_file(path: Path, shown: str, limit: int | None = None) -> bytes | None:
    try:
        return read_file(
            path, limit=MAX_FILE_BYTES if limit is None else limit, what="file", shown=shown
        )
    except NotFoundError:
        return None  # missing, or a file stands where a folder on the way should be
    except NotAFileError as exc:
        if exc.is_folder:
            raise WriteError(f"{shown}: is a folder, expected a file") from None
        raise


def atomic_write_bytes(path: Path, data: bytes, *, shown: str | None = None) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, never a mix.

    Not confined by itself (it also writes the platforms' own files outside the root);
    memory files go through ``Store``, which checks the path first. ``shown``: the name
    to use in a message (the store's root-relative one).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{next(_tmp_counter)}.tmp")
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW, 0o666)
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
    except BaseException as exc:
        # Any exception, not only a disk error: a hook's deadline (a signal) or Ctrl-C can
        # land between the temp's creation and the rename, and must not leave it behind.
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise WriteError(
                f"writing {shown or path} failed: {reason(exc)}; the previous file is unchanged"
            ) from exc
        raise
    fsync_dir(path.parent)


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
    """Locked, verified, confined access to the files of one workspace.

    Locks are cached per path so one workflow can hold a file's lock across several
    steps (re-read, decide, write) and nested helpers can take it again.
    """

    def __init__(
        self, workspace: Workspace, lock_timeout: float = 10.0, *, read_only: bool = False
    ):
        self.workspace = workspace
        self.lock_timeout = lock_timeout
        self.guard = RootGuard(workspace)
        #: A dry run or a viewer: locks are not taken (no lock file is created) and any
        #: write is a bug, refused.
        self.read_only = read_only
        self._locks: dict[Path, FileLock] = {}

    def lock(self, path: Path) -> FileLock:
        """The lock of ``path`` (its real file when a link inside the root names it)."""
        key = self.guard.check(path)
        existing = self._locks.get(key)
        if existing is not None:
            return existing
        if self.read_only:
            from .locks import NoLock

            return NoLock(key)
        from .locks import FileLock, lock_file_name  # a read-only hook never takes a lock

        try:
            rel = key.relative_to(self.guard.real_root).as_posix()
        except ValueError:
            rel = "abs" + key.as_posix()
        created = FileLock(
            self.workspace.locks_dir / lock_file_name(rel),
            timeout=self.lock_timeout,
            label=self.show(path),
            on_takeover=functools.partial(remove_orphan_temps, key),
            make_folder=self.guard.make_folder,
        )
        self._locks[key] = created
        return created

    def show(self, path: Path) -> str:
        return self.workspace.relative(path)

    def make_folder(self, folder: Path) -> Path:
        """Create ``folder`` inside the root (checked level by level); its real path."""
        return self.guard.make_folder(folder)

    def read_bytes(self, path: Path) -> bytes | None:
        """The bytes of ``path`` (``None`` if missing), never through a link that leads out.

        Read through ``bounded.read_file``: a pipe, device or socket planted at a memory
        file's name is refused by its type before it is opened, and a file over
        ``MAX_FILE_BYTES`` before it is read.
        """
        return _read_memory_file(self.guard.check(path), self.show(path))

    def read_derived(self, path: Path) -> bytes | None:
        """Derived state (caches, counters, offsets): ``None`` when missing, unreadable or
        reached through a link that leads out; its owner rebuilds it then."""
        try:
            return self.read_bytes(path)
        except WorkmemError:
            return None

    def read_text(self, path: Path) -> tuple[str, TextStyle] | None:
        data = self.read_bytes(path)
        if data is None:
            return None
        return decode(data, self.show(path))

    def write_bytes(self, path: Path, data: bytes) -> None:
        """Write and verify; the caller must already hold ``path``'s lock."""
        if self.read_only:
            raise RuntimeError(f"write to {path} through a read-only store")
        if not self.lock(path).held:
            raise RuntimeError(f"write to {path} without holding its lock")
        real = self.guard.check(path)
        self.guard.make_folder(real.parent)
        atomic_write_bytes(real, data, shown=self.show(path))
        if self.read_bytes(path) != data:
            raise WriteError(
                f"{self.show(path)}: re-read after writing does not match what was written"
            )

    def write_text(self, path: Path, text: str, style: TextStyle = PLAIN) -> str:
        """Write and verify; hold ``path``'s lock first. Returns the text written: in a
        memory file, secrets the write adds are redacted first (``workmem.redact``)."""
        from ..redact import redact_write  # the one redaction every memory write passes

        written = redact_write(self, path, text)
        self.write_bytes(path, encode(written, style))
        return written

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
            previous = self.read_bytes(path)
            current = None if previous is None else decode(previous, self.show(path))
            old_text, style = current if current is not None else (None, TextStyle())
            new_text = change(old_text)
            if new_text == old_text:
                return WriteResult(path, changed=False, created=False)
            written = self.write_text(path, new_text, style)
            if verify is not None:
                reread = self.read_text(path)
                text = reread[0] if reread else ""
                try:
                    # A file that holds exactly what was written, with secrets redacted, is
                    # checked from the caller's side on the text the caller meant.
                    verify(new_text if text == written != new_text else text)
                except BaseException:
                    # The caller's check failed: put the previous file back, then report.
                    FileUndo(self.guard.check(path), previous).restore()
                    raise
            return WriteResult(path, changed=True, created=old_text is None)

    def move(self, source: Path, target: Path) -> None:
        """Atomically move a file inside the workspace and verify both ends."""
        data = self.read_bytes(source)
        if data is None:
            raise WriteError(f"cannot move {self.show(source)}: it does not exist")
        real_source = self.guard.check(source)
        real_target = self.guard.check(target)
        self.guard.make_folder(real_target.parent)
        try:
            os.replace(real_source, real_target)
        except OSError as exc:
            raise WriteError(
                f"moving {self.show(source)} to {self.show(target)} failed: {reason(exc)}"
            ) from exc
        fsync_dir(real_target.parent)
        fsync_dir(real_source.parent)
        if os.path.lexists(real_source) or self.read_bytes(target) != data:
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

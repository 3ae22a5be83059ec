"""Errors that reach the user.

Every failure a person can act on is a ``WorkmemError`` with a message that says what
was wrong and that nothing was written (or what was). Faces map the class to an exit
code, so scripts can tell "your input was bad" from "the disk failed" without parsing text.
"""

from __future__ import annotations


class WorkmemError(Exception):
    """Base class: a failure explained to the user, never a traceback."""

    exit_code = 1


class UsageError(WorkmemError):
    """The request itself is invalid (bad ID, unknown session, conflicting options)."""

    exit_code = 2


class NotFoundError(WorkmemError):
    """A session, file or row the request names does not exist."""

    exit_code = 3


class ConflictError(WorkmemError):
    """The files are in a state the workflow refuses to act on (references, inconsistencies)."""

    exit_code = 4


class FormatError(WorkmemError):
    """A file could not be parsed; carries the path and line so a person can fix it."""

    exit_code = 5

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(f"{where}{message}")
        self.path = path
        self.line = line


class WriteError(WorkmemError):
    """A write or its verification failed; the previous file content is still in place."""

    exit_code = 6


class LockTimeoutError(WriteError):
    """Another process held a file's lock for longer than we were willing to wait."""


class OutsideRootError(ConflictError):
    """A memory file or folder is reached through a link that leads outside the memory
    root (or a lock or log file is a link): refused, nothing was read or written there."""


class NoMemoryRootError(NotFoundError):
    """A write would start a new memory root where none exists and nobody asked for one."""

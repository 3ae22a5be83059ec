"""The ``Board`` facade: one object, one method per seed-001 workflow."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..doctor import DoctorReport
from .archive import archive_session
from .cleanup import OrganizeReport, organize
from .context import BoardContext
from .inspect import SessionView, doctor, list_sessions, show_session
from .lifecycle import SessionResult, register_session, start_session, update_session
from .links import continue_session, release_reference
from .model import BoardRow
from .snapshot import SnapshotChange


class Board:
    def __init__(self, root: str | Path | None = None, *, platform: str | None = None):
        self.ctx = BoardContext.open(root, platform=platform)

    def start(self, agent_name: str | None = None) -> SessionResult:
        return start_session(self.ctx, agent_name)

    def register(
        self,
        *,
        topic: str | None = None,
        summary: str | None = None,
        keywords: str | None = None,
        context: str | None = None,
        sections: Mapping[str, str] | None = None,
        agent_name: str | None = None,
    ) -> SessionResult:
        return register_session(
            self.ctx,
            topic=topic,
            summary=summary,
            keywords=keywords,
            context=context,
            sections=list((sections or {}).items()),
            agent_name=agent_name,
        )

    def update(
        self,
        session_id: str,
        *,
        topic: str | None = None,
        summary: str | None = None,
        keywords: str | None = None,
        status: str | None = None,
        sections: Mapping[str, str] | None = None,
        fragment: str | None = None,
    ) -> SessionResult:
        change = SnapshotChange()
        if fragment:
            change.add_fragment(fragment)
        for name, text in (sections or {}).items():
            change.add(name, text)
        return update_session(
            self.ctx,
            session_id,
            topic=topic,
            summary=summary,
            keywords=keywords,
            status=status,
            change=change,
        )

    def continue_from(
        self, source_id: str, *, as_id: str | None = None, context: str | None = None
    ) -> SessionResult:
        return continue_session(self.ctx, source_id, as_id=as_id, context=context)

    def release(self, source_id: str, *, as_id: str) -> SessionResult:
        return release_reference(self.ctx, source_id, as_id=as_id)

    def organize(
        self,
        stale_days: int | None = None,
        *,
        archive_after_days: int | None = None,
        dry_run: bool = False,
        current: str | None = None,
    ) -> OrganizeReport:
        return organize(
            self.ctx,
            stale_days,
            archive_after_days=archive_after_days,
            dry_run=dry_run,
            current=current,
        )

    def archive(self, session_id: str) -> SessionResult:
        return archive_session(self.ctx, session_id)

    def list(self, statuses: list[str] | None = None) -> list[BoardRow]:
        return list_sessions(self.ctx, statuses)

    def show(self, session_id: str) -> SessionView:
        return show_session(self.ctx, session_id)

    def doctor(self) -> DoctorReport:
        return doctor(self.ctx)

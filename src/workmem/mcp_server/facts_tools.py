"""Long-term memory over MCP: typed memories, MEMORY.md's upkeep, the wrap-up, the context
guardian and which platform the project uses."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .base import Kinds, Served, failed, friendly

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


def register(server: MCPServer, served: Served, kinds: Kinds) -> None:
    @server.tool(annotations=kinds.write)
    @friendly
    def memory_add(
        type: str,
        topic: str,
        content: str,
        description: str = "",
        name: str | None = None,
        reason: str | None = None,
        expires: str | None = None,
        update_index: bool = True,
    ) -> dict[str, Any]:
        """Create or update a typed memory (user, feedback, project, reference) and its line
        in MEMORY.md's index; replaced text is kept under ## History."""
        from .. import clock
        from ..facts.index import update_index as index
        from ..facts.write import MemoryInput, save_memory
        from ..files.store import Store
        from ..platforms.runtime import running_platform

        item = MemoryInput.from_mapping(
            {
                "type": type,
                "topic": topic,
                "description": description,
                "content": content,
                "name": name,
                "reason": reason,
                "expires": expires,
            },
            "memory_add",
        )
        store = Store(served.workspace())
        result = save_memory(store, item, today=clock.now().date(), platform=running_platform())
        if update_index and result.action != "unchanged":
            index(store, touched={result.filename})
        return dict(result.to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def memory_list(type: str | None = None) -> dict[str, Any]:
        """Typed memories with their dates and stale marks; unreadable files named."""
        from .. import clock
        from ..facts.typed import check_type, list_memories
        from ..files.store import Store

        listing = list_memories(Store(served.workspace()))
        today = clock.now().date()
        kind = check_type(type) if type else None
        return {
            "memories": [
                m.summary(today) for m in listing.memories if kind is None or m.type == kind
            ],
            "problems": [{"file": f, "error": e} for f, e in listing.problems],
        }

    @server.tool(annotations=kinds.read)
    @friendly
    def memory_show(name: str) -> dict[str, Any]:
        """One typed memory whole (``project_myapp`` or ``project_myapp.md``)."""
        from ..errors import NotFoundError, UsageError
        from ..facts.typed import parse_filename, read_memory
        from ..files.store import Store

        filename = name if name.endswith(".md") else f"{name}.md"
        if "/" in filename or "\\" in filename or parse_filename(filename) is None:
            raise UsageError(f"{name!r} is not a typed memory name such as project_myapp")
        store = Store(served.workspace())
        path = store.workspace.memory_dir / filename
        memory = read_memory(store, path)
        text = store.read_text(path)
        if memory is None or text is None:
            raise NotFoundError(f"no memory {store.show(path)}")
        front = {k: str(v) for k, v in memory.front.data.items()}
        return {"file": filename, "frontmatter": front, "text": text[0]}

    @server.tool(annotations=kinds.write)
    @friendly
    def maintain(dry_run: bool = False) -> dict[str, Any]:
        """Compress long memories, merge duplicates, mark stale ones, update MEMORY.md's
        index. A memory that cannot be read is left as it is and makes the call fail."""
        from ..facts.maintain import maintain as run_maintain

        report = run_maintain(served.workspace(), dry_run=dry_run)
        if report.problems:
            listed = "; ".join(f"{name}: {error}" for name, error in report.problems)
            done = (
                f"{len(report.compressed)} compressed, {len(report.merged)} merged, "
                f"{len(report.stale)} marked stale"
            )
            raise failed(
                f"these memories could not be read and were left as they are (fix them by "
                f"hand): {listed}. The rest was done: {done}"
            )
        return dict(report.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def curate(dry_run: bool = False) -> dict[str, Any]:
        """Curate MEMORY.md's tiers: promote, fade, archive, merge (never deletes)."""
        from ..facts.curate import curate as run_curate

        workspace = served.workspace()
        if (workspace.memory_dir / "state.json").is_file():
            # as `workmem curate`: the journal's review also promotes confirmed patterns
            from ..journal.writer import MemoryWriter

            report = MemoryWriter(workspace.root).run_curation(dry_run=dry_run)
        else:
            report = run_curate(workspace, dry_run=dry_run)
        return dict(report.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def wrap(
        memories: list[dict[str, Any]],
        checkpoint: bool = False,
        publish: bool = False,
        bootstrap: bool = True,
        strict: bool = False,
    ) -> dict[str, Any]:
        """Session wrap-up: save typed memories {type, topic, description, content}, maintain
        them, update MEMORY.md's index and report what changed. ``publish`` mirrors them to
        the platform's own memory folder; ``strict`` refuses memories holding code or lists."""
        from ..wrap.inputs import parse_items
        from ..wrap.run import wrap as run_wrap

        items = parse_items(json.dumps(memories), "<mcp>")
        report = run_wrap(
            served.workspace(),
            items,
            checkpoint=checkpoint,
            publish_to_platform=publish,
            run_bootstrap=bootstrap,
            strict=strict,
        )
        return dict(report.to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def wrap_state() -> dict[str, Any]:
        """What a wrap-up starts from: git branch and status, recent commits, memories."""
        from ..wrap.gather import gather_state

        return dict(gather_state(served.workspace()).to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def context_usage(
        transcript: str | None = None, profile: str = "wrap", window: int | None = None
    ) -> dict[str, Any]:
        """How full the context window is, its zone and what to do (this conversation's
        transcript unless one is named, from the memory root or an agent's folders)."""
        from ..wrap.guardian import context_report

        report = context_report(
            workspace=served.workspace(),
            transcript=served.transcript(transcript),
            profile=profile,
            window=window,
        )
        return dict(report.to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def platform() -> dict[str, Any]:
        """Which agent platform this project uses, and why."""
        from ..platforms.detect import detect_platform

        return dict(detect_platform(served.root).to_dict())

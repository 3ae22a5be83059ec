"""One real workspace and one running viewer, shared by the web tests that only read."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from workmem.root import Workspace

from .util import Client, build_site, running


@dataclass(frozen=True)
class Site:
    root: Path
    client: Client


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The workspace of ``util.build_site``, served for the whole package (read-only tests)."""
    for name in ("starlette", "uvicorn"):
        pytest.importorskip(
            name, reason="the web extra is not installed: pip install 'workmem[web]'"
        )
    root = tmp_path_factory.mktemp("site") / "ws"
    root.mkdir()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("WORKMEM_ROOT", str(root))
        env.setenv("WORKMEM_NOW", "2026-05-25 13:18")
        env.setenv("WORKMEM_PLATFORM", "cursor")
        env.setenv("WORKMEM_EMBEDDER", "none")  # lexical search: deterministic and fast
        for name in ("WORKMEM_SESSION_ID", "WORKMEM_AGENT_NAME"):
            env.delenv(name, raising=False)
        build_site(root)
        with running(Workspace(root)) as client:
            yield Site(root, client)

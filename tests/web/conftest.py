"""One real workspace and one running viewer, shared by the web tests that only read; one
real headless browser for the tests that look at the pages as a person would."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from workmem.root import Workspace

from .browser import Browser, find_browser, launch
from .journal_site import build_journal_site
from .util import Client, build_site, running, write_big_board, write_big_ledger


@dataclass(frozen=True)
class Site:
    root: Path
    client: Client


@contextmanager
def served(
    factory: pytest.TempPathFactory, build: Callable[[Path], object], name: str = "site"
) -> Iterator[Site]:
    """A workspace made by ``build`` (clock pinned, lexical search), served until the end."""
    for module in ("starlette", "uvicorn"):
        pytest.importorskip(
            module, reason="the web extra is not installed: pip install 'workmem[web]'"
        )
    root = factory.mktemp(name) / "ws"
    root.mkdir()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("WORKMEM_ROOT", str(root))
        env.setenv("WORKMEM_NOW", "2026-05-25 13:18")
        env.setenv("WORKMEM_PLATFORM", "cursor")
        env.setenv("WORKMEM_EMBEDDER", "none")  # lexical search: deterministic and fast
        for variable in ("WORKMEM_SESSION_ID", "WORKMEM_AGENT_NAME"):
            env.delenv(variable, raising=False)
        build(root)
        with running(Workspace(root)) as client:
            yield Site(root, client)


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The workspace of ``util.build_site``, served for the whole package (read-only tests)."""
    with served(tmp_path_factory, build_site) as shown:
        yield shown


@dataclass(frozen=True)
class Journal:
    site: Site
    ids: dict[str, str]


@pytest.fixture(scope="package")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journal]:
    """A day of work made by the hooks (``journal_site``), served for the package."""
    ids: dict[str, str] = {}
    with served(tmp_path_factory, lambda root: ids.update(build_journal_site(root)), "day") as s:
        yield Journal(s, ids)


BIG_BOARD_ROWS = 10_000
BIG_LEDGER = 2_500


@pytest.fixture(scope="package")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A board of 10,000 sessions and a ledger of 2,500 events (a long year of work)."""

    def build(root: Path) -> None:
        write_big_board(root, BIG_BOARD_ROWS)
        write_big_ledger(root, BIG_LEDGER)

    with served(tmp_path_factory, build, "big") as shown:
        yield shown


#: Set (as ``.ci/run`` does) to make a missing browser a failure instead of a skip.
REQUIRE_BROWSER = "WORKMEM_REQUIRE_BROWSER"


def browser_missing(what: str) -> None:
    """Skip with the way to install ``what``, or fail when the run requires the browser."""
    message = f"{what} is not installed: run `make browser` (Debian: chromium-headless-shell)"
    if os.environ.get(REQUIRE_BROWSER) == "1":
        pytest.fail(f"{message}; {REQUIRE_BROWSER}=1 requires it")
    pytest.skip(message)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One real headless Chromium for the package's browser tests (each opens its own tab)."""
    executable = find_browser()
    if executable is None:
        browser_missing("a headless Chromium")
    assert executable is not None
    with launch(executable) as running_browser:
        yield running_browser

"""Lazy package exports: names resolve on first use, nothing loads before, errors as usual."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import types

import pytest

from workmem import _lazy_exports as lazy_exports

PACKAGES = ("workmem", "workmem.board", "workmem.journal", "workmem.transcripts")


def test_helper_resolves_relative_and_absolute_modules() -> None:
    load = lazy_exports("workmem.files", {"Store": ".store", "FormatError": "workmem.errors"})
    from workmem.errors import FormatError
    from workmem.files.store import Store

    assert load("Store") is Store
    assert load("FormatError") is FormatError


def test_unknown_name_is_an_attribute_error() -> None:
    load = lazy_exports("workmem.files", {})
    with pytest.raises(
        AttributeError, match=re.escape("module 'workmem.files' has no attribute 'Nope'")
    ):
        load("Nope")


def test_a_name_whose_module_lacks_it_fails_loudly() -> None:
    load = lazy_exports("workmem", {"Missing": "workmem.errors"})
    with pytest.raises(AttributeError, match="Missing"):
        load("Missing")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        assert value is not None, (package, name)
        if not isinstance(value, (str, types.ModuleType)):
            # The package hands out the defining module's own object, not a copy.
            origin = getattr(value, "__module__", None)
            if origin is not None and origin.startswith("workmem"):
                assert getattr(importlib.import_module(origin), name) is value
    assert not hasattr(module, "NoSuchName")
    with pytest.raises(AttributeError, match=re.escape(f"module '{package}' has no attribute")):
        module.NoSuchName  # noqa: B018


def test_from_import_of_a_missing_name_is_an_import_error() -> None:
    with pytest.raises(ImportError):
        exec("from workmem.board import NoSuchName", {})


_PROBE = """
import json, sys
import workmem.board, workmem.journal, workmem.transcripts
before = sorted(m for m in sys.modules if m.startswith("workmem"))
from workmem.board import BoardRow
after = sorted(m for m in sys.modules if m.startswith("workmem"))
print(json.dumps({"before": before, "after": after}))
"""


def test_importing_the_packages_loads_no_submodule_until_a_name_is_used() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    ).stdout
    seen = json.loads(out)
    assert seen["before"] == [
        "workmem",
        "workmem.board",
        "workmem.journal",
        "workmem.transcripts",
    ]
    assert "workmem.board.model" in seen["after"]
    assert "workmem.board.api" not in seen["after"]

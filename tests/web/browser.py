"""A small DevTools-protocol client for a real headless Chromium, with no dependency.

The viewer's browser tests need a real browser engine (layout, fonts, the CSP as a browser
enforces it, real clicks and typing), not a driver library: Chromium speaks the DevTools
protocol over a pair of pipes when started with ``--remote-debugging-pipe`` (file
descriptors 3 and 4, one JSON message per NUL-terminated frame), so this module needs only
the standard library. That keeps the development install lean: no 171 MB driver wheel, no
WebSocket package, and nothing is downloaded (browsers cannot be fetched on these machines;
Debian's ``chromium-headless-shell`` is installed by ``make browser``).

Only what the tests use is here: open a page, wait for its load, evaluate an expression in
it, click an element with real mouse events, type with real key events, read the fonts a
node was painted with, take a screenshot, and collect events (a binding the page might
call, console and log entries).
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Names and places of a headless Chromium, in the order they are tried.
CANDIDATES = (
    "chromium-headless-shell",
    "/usr/lib/chromium/chromium-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
)
#: Set to a browser's path to use that one; the tests then never look elsewhere.
BROWSER_ENV = "WORKMEM_BROWSER"

#: Flags for a closed network: without the background-networking ones Chromium keeps
#: trying to reach Google's hosts. ``--no-sandbox`` because tests and CI run as root.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)

TIMEOUT = 20.0

#: Functions every page gets from DevTools: ``pwned(label)`` for attack payloads to call
#: if they ever run, ``cspViolation(text)`` called for each thing the page's CSP blocks.
BINDINGS = ("pwned", "cspViolation")
_REPORT_VIOLATIONS = (
    "document.addEventListener('securitypolicyviolation', e => "
    "cspViolation(e.effectiveDirective + ' ' + (e.blockedURI || '')));"
)


class BrowserError(RuntimeError):
    """The browser died, answered with an error, or did not answer in time."""


def find_browser() -> str | None:
    """The headless Chromium to use, or None when this machine has none."""
    chosen = os.environ.get(BROWSER_ENV)
    if chosen:
        return chosen if Path(chosen).is_file() else shutil.which(chosen)
    for name in CANDIDATES:
        found = shutil.which(name) if "/" not in name else (name if Path(name).is_file() else None)
        if found:
            return found
    return None


@dataclass
class _Connection:
    """One pipe pair to the browser: requests out, answers and events in."""

    process: subprocess.Popen[bytes]
    to_browser: int
    from_browser: int
    events: list[dict[str, Any]] = field(default_factory=list)
    _buffer: bytes = b""
    _next_id: int = 0

    def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.to_browser, data) :]
        answer = self._read_until(lambda m: m.get("id") == self._next_id, TIMEOUT, method)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message', answer['error'])}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float, what: str
    ) -> dict[str, Any]:
        """The first event (already received or still to come) that ``predicate`` accepts;
        it is taken out of ``events``."""
        for index, event in enumerate(self.events):
            if predicate(event):
                return self.events.pop(index)
        return self._read_until(predicate, timeout, what, keep=False)

    def drain(self, seconds: float) -> None:
        """Read whatever arrives within ``seconds`` (events the page may still send)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self._read_one(left)

    def _read_until(
        self,
        predicate: Callable[[dict[str, Any]], bool],
        timeout: float,
        what: str,
        *,
        keep: bool = True,
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"no answer from the browser within {timeout:.0f} s: {what}")
            message = self._read_one(left, store=False)
            if message is None:
                continue
            if predicate(message):
                return message
            if "method" in message:
                self.events.append(message)

    def _read_one(self, timeout: float, *, store: bool = True) -> dict[str, Any] | None:
        if b"\0" not in self._buffer:
            ready, _, _ = select.select([self.from_browser], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise BrowserError(f"the browser closed its pipe (exit {self.process.poll()})")
            self._buffer += chunk
            if b"\0" not in self._buffer:
                return None
        frame, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(frame)
        if store and "method" in message:
            self.events.append(message)
        return message


class Tab:
    """One page (a target with its own session) of the browser."""

    def __init__(self, connection: _Connection, session: str) -> None:
        self._con = connection
        self.session = session

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._con.send(method, params, self.session)

    def events(self, method: str) -> list[dict[str, Any]]:
        """Params of every event ``method`` of this tab received so far (they stay)."""
        return [
            e.get("params", {})
            for e in self._con.events
            if e.get("method") == method and e.get("sessionId") == self.session
        ]

    def settle(self, seconds: float = 0.3) -> None:
        """Let the page finish what it started (image errors, late events)."""
        self._con.drain(seconds)

    def calls(self, binding: str) -> list[str]:
        """What the page passed to ``binding`` (see ``BINDINGS``) since the last ``forget``."""
        return [
            str(p.get("payload"))
            for p in self.events("Runtime.bindingCalled")
            if p.get("name") == binding
        ]

    def forget_calls(self) -> None:
        self._forget("Runtime.bindingCalled")

    # ---- navigation ----------------------------------------------------------------------
    def goto(self, url: str) -> None:
        """Open ``url`` and wait until its load event."""
        self._forget("Page.loadEventFired")
        answer = self.send("Page.navigate", {"url": url})
        if answer.get("errorText"):
            raise BrowserError(f"could not open {url}: {answer['errorText']}")
        self.wait_loaded(url)

    def wait_loaded(self, what: str) -> None:
        self._con.wait_for(
            lambda m: (
                m.get("method") == "Page.loadEventFired" and m.get("sessionId") == self.session
            ),
            TIMEOUT,
            f"load of {what}",
        )

    def _forget(self, method: str) -> None:
        self._con.events = [
            e
            for e in self._con.events
            if not (e.get("method") == method and e.get("sessionId") == self.session)
        ]

    # ---- reading the page ----------------------------------------------------------------
    def evaluate(self, expression: str) -> Any:
        """The value of ``expression`` in the page (a DevTools evaluation: the page's CSP,
        which forbids the page's own scripts, does not apply to it)."""
        answer = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"evaluating {expression[:60]!r} failed: {text}")
        return answer["result"].get("value")

    @property
    def url(self) -> str:
        return str(self.evaluate("location.href"))

    @property
    def status(self) -> int:
        """The HTTP status of the document now shown."""
        return int(self.evaluate("performance.getEntriesByType('navigation')[0].responseStatus"))

    def text(self, selector: str = "body") -> str:
        found = self.evaluate(f"document.querySelector({json.dumps(selector)})?.innerText ?? null")
        if found is None:
            raise BrowserError(f"nothing matches {selector!r} on {self.url}")
        return str(found)

    def count(self, selector: str) -> int:
        return int(self.evaluate(f"document.querySelectorAll({json.dumps(selector)}).length"))

    def fonts(self, selector: str) -> dict[str, int]:
        """The fonts the browser really painted ``selector``'s text with: family -> glyphs."""
        self.send("DOM.enable")
        self.send("CSS.enable")
        root = self.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        if not node:
            raise BrowserError(f"nothing matches {selector!r} on {self.url}")
        fonts = self.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        return {f["familyName"]: int(f["glyphCount"]) for f in fonts}

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))

    # ---- acting as a user ----------------------------------------------------------------
    def click(self, selector: str, *, navigates: bool = True) -> None:
        """A real mouse click on the first element ``selector`` matches (the middle of its
        first line), as a person would; ``navigates``: wait for the page it opens."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return null; e.scrollIntoView({block: 'center'});"
            # the first line box: a link that wraps has a gap between its lines
            " const r = e.getClientRects()[0] || e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        if box is None:
            raise BrowserError(f"nothing to click: {selector!r} on {self.url}")
        x, y = box
        if navigates:
            self._forget("Page.loadEventFired")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )
        if navigates:
            self.wait_loaded(f"the page after clicking {selector!r}")

    def type_into(self, selector: str, text: str) -> None:
        """Focus a field by clicking it, clear it, and type ``text`` as key input."""
        self.click(selector, navigates=False)
        self.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
        self.send("Input.insertText", {"text": text})

    def press_enter(self) -> None:
        """Press Enter in the focused field, which submits its form; wait for the new page."""
        self._forget("Page.loadEventFired")
        for kind in ("rawKeyDown", "char", "keyUp"):
            params: dict[str, Any] = {
                "type": kind,
                "key": "Enter",
                "code": "Enter",
                "windowsVirtualKeyCode": 13,
            }
            if kind == "char":
                params["text"] = "\r"
            self.send("Input.dispatchKeyEvent", params)
        self.wait_loaded("the page after pressing Enter")


class Browser:
    """A running headless Chromium; ``tab()`` opens a fresh page."""

    def __init__(self, connection: _Connection) -> None:
        self._con = connection

    def tab(self, *, width: int = 1280, height: int = 900) -> Tab:
        target = self._con.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self._con.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        tab = Tab(self._con, session)
        tab.send("Page.enable")
        tab.send("Runtime.enable")
        for name in BINDINGS:
            tab.send("Runtime.addBinding", {"name": name})
        # Every document reports what its Content-Security-Policy blocks, from its first
        # moment (this runs as DevTools' own script, which the page's CSP does not govern).
        tab.send("Page.addScriptToEvaluateOnNewDocument", {"source": _REPORT_VIOLATIONS})
        tab.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        return tab


def _above_nine(fd: int) -> int:
    import fcntl  # POSIX only, like the pipe protocol itself; imported when a browser starts

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


@contextmanager
def launch(executable: str) -> Iterator[Browser]:
    """Start ``executable`` headless with a fresh profile; stop it (and its children) after."""
    profile = tempfile.mkdtemp(prefix="workmem-browser-")
    to_read, to_browser = os.pipe()  # the browser reads requests on its fd 3
    from_browser, to_write = os.pipe()  # and writes answers on its fd 4
    # Move the browser's ends above 9, so they never are the 3 or 4 the shell assigns.
    to_read, to_write = (_above_nine(fd) for fd in (to_read, to_write))
    # The shell gives the pipe ends the numbers Chromium expects, then becomes the browser.
    command = [
        "/bin/bash",  # dash cannot redirect descriptors above 9
        "-c",
        f'exec "$0" "$@" 3<&{to_read} 4>&{to_write} {to_read}<&- {to_write}>&-',
        executable,
        *FLAGS,
        f"--user-data-dir={profile}",
        "about:blank",
    ]
    process = subprocess.Popen(
        command,
        pass_fds=(to_read, to_write),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, so stopping it stops its helpers
    )
    os.close(to_read)
    os.close(to_write)
    connection = _Connection(process, to_browser, from_browser)
    try:
        connection.send("Target.setDiscoverTargets", {"discover": False})
        yield Browser(connection)
    finally:
        with suppress(BrowserError, OSError):
            connection.send("Browser.close")
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        with suppress(ProcessLookupError):  # helpers (renderers) that outlived the browser
            os.killpg(process.pid, signal.SIGKILL)
        os.close(to_browser)
        os.close(from_browser)
        shutil.rmtree(profile, ignore_errors=True)

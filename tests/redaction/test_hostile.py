"""Inputs built to make a pattern backtrack finish: no catastrophic regular expression.

The redactor runs in hooks on every save, over text anyone can put in a transcript. Each
input below targets one detector's expression (a long run it could try to split many
ways, a prefix repeated thousands of times, a long line with no end in sight); all of
them are redacted in one child process that must finish well within a generous bound
(linear work takes a second or two on a loaded machine; a quadratic or exponential one
on these sizes takes minutes). The bound is a timeout, not a timing assertion.
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD_SECONDS = 120

HOSTILE: dict[str, str] = {
    "names on one line": "password=abcdefgh " * 5000,
    "cut-off PEM headers": "-----BEGIN PRIVATE KEY-----\n" * 2000,
    "mysql with no -p": "mysql " * 5000,
    "one long identifier": "a" * 100_000,
    "PuTTY headers": "PuTTY-User-Key-File-3: ssh-rsa\n" * 3000,
    "PuTTY private lines never ending": "PuTTY-User-Key-File-3: x\nPrivate-Lines: 9\n"
    + ("A" * 64 + "\n") * 3000,
    "sqlplus and long words": "sqlplus " + ("a" * 150 + " ") * 500 + "/@",
    "@ in one long word": "conn " + "a/" * 20_000 + "@" * 2000,
    "colon labels": "password: " * 10_000,
    "key chains": "token: a: " * 10_000,
    "base64 key runs": "LS0tLS1CRUdJTi" + ("A" * 16 + " ") * 5000,
    "Korean labels": "비밀번호는 abc-" * 10_000,
    "Chinese set-to": "密碼設為" * 10_000,
    "PASS then a long run": "PASS: " + "a" * 100_000,
    "Go test lines": "--- PASS: Test" * 5000,
    "Discord-shaped prefixes": "MTIzNDU2Nzg5MDEyMzQ1Njc4." * 5000,
    "dots": "a." * 50_000,
    "whose secret": "the password for " + "a " * 20_000 + "is x",
    "docker auth runs": '"auth": "' + "A" * 100_000 + "-",
    "authorization schemes": "Authorization: Basic " * 5000,
    "digest without response": "Authorization: Digest " + "x " * 20_000,
    "indented block scalars": "secrets:\n" + "  value line here\n" * 10_000,
    "JSON escapes": '{"token": "' + "\\\\" * 50_000 + '"}',
}

_CHILD = """
import json, sys
from workmem.redact import redact
cases = json.loads(sys.stdin.read())
for name, text in cases.items():
    clean, count = redact(text)
    assert redact(clean) == (clean, 0), name
print(len(cases))
"""


def test_hostile_inputs_are_redacted_in_linear_time() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=json.dumps(HOSTILE),
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,  # a regression fails here instead of hanging the suite
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(HOSTILE))

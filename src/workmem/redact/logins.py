"""Oracle's ``user/password@database``: a login written as one word after a tool's name.

``sqlplus scott/tiger@orcl``, ``expdp hr/…@pdb1``, ``rman target sys/…@prod``,
``sqlldr userid=…``, ``CONNECT app/…@db``, ``jdbc:oracle:thin:scott/…@host:1521:ORCL``.
The shape alone (a word, a slash, a word, an at sign) is everywhere (``actions/checkout@v4``,
``user/repo@v1.2``), so the login counts only on a line that names an Oracle tool, CONNECT
or an Oracle JDBC URL before it.

Found from the ``@`` outward rather than by one expression over the text: a tool's name
is a common word ("export", "import", "connect"), and a scan for it at every position
would cost every text that holds one; an ``@`` is rarer and says where to look.
"""

from __future__ import annotations

from collections.abc import Iterator

from .names import compiled, is_placeholder

#: The word before the ``@``: user, slash, password.
_LOGIN = r"[A-Za-z_][\w$#]*/([^\s/@'\"|]+)"
#: What must stand earlier on the line (case is not looked at).
_TOOL = (
    r"(?i)\b(?:sqlplus|sqlldr|sqlcl|expdp|impdp|exp|imp|rman|dgmgrl|conn(?:ect)?|userid"
    r"|jdbc:oracle:[a-z]+)\b"
)
#: Characters that end the word before the login (a space, a quote, ``=`` or ``:``).
_BEFORE = " \t'\"=:"
_REACH = 200


class OracleLogin:
    kind = "oracle-password"
    triggers: tuple[str, ...] = ("sql", "exp", "imp", "rman", "dgmgrl", "conn", "userid", "oracle")
    also: tuple[str, ...] = ("/", "@")

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        at = text.find("@")
        while at >= 0:
            found = self._before(text, at)
            if found is not None:
                yield found
            at = text.find("@", at + 1)

    @staticmethod
    def _before(text: str, at: int) -> tuple[int, int] | None:
        if at + 1 >= len(text) or not (text[at + 1].isalnum() or text[at + 1] in "_/.["):
            return None  # a database name, an easy-connect "//host" or "[" follows the @
        # The line's start, looked for two reaches back at most (one long line, many @):
        # past that, the line is taken to start there, which keeps the search inside it.
        reach = max(0, at - 2 * _REACH)
        newline = text.rfind("\n", reach, at)
        line_start = newline + 1 if newline >= 0 else reach
        floor = max(line_start, at - _REACH)  # a login is short: look that far back only
        start = at
        while start > floor and text[start - 1] not in _BEFORE:
            start -= 1
        if start == floor and start > line_start and text[start - 1] not in _BEFORE:
            return None
        login = compiled(_LOGIN).fullmatch(text, start, at)
        if login is None or is_placeholder(login.group(1)):
            return None
        prefix_start = max(line_start, start - _REACH)
        if compiled(_TOOL).search(text, prefix_start, start) is None:
            return None
        return login.span(1)


__all__ = ["OracleLogin"]

"""Reading hand-edited JSON files: a value, or an error naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import FormatError, WorkmemError
from workmem.files.jsondoc import parse_json, parse_json_object
from workmem.files.store import Store
from workmem.root import Workspace


def test_an_object_is_returned_as_is() -> None:
    assert parse_json_object('{"a": [1, 2], "b": {"c": null}}', "x.json") == {
        "a": [1, 2],
        "b": {"c": None},
    }
    assert parse_json_object('{"名前": "記憶"}', "x.json") == {"名前": "記憶"}


@pytest.mark.parametrize("text", [None, "", "   ", "\n\n"])
def test_a_missing_or_blank_file_is_an_empty_object(text: str | None) -> None:
    assert parse_json_object(text, "x.json") == {}


def test_broken_json_names_the_file_and_the_line() -> None:
    with pytest.raises(FormatError) as caught:
        parse_json_object('{\n  "a": 1,\n}\n', "memory/state.json")
    error = caught.value
    assert isinstance(error, WorkmemError) and error.exit_code == 5
    assert error.path == "memory/state.json" and error.line == 3
    assert "not valid JSON" in str(error)
    assert "fix it by hand, nothing was written" in str(error)


def test_the_advice_can_be_worded_for_the_caller() -> None:
    with pytest.raises(FormatError, match="fix it first, nothing was written"):
        parse_json_object('{"hooks": {,}', ".claude/settings.json", fix="fix it first")


@pytest.mark.parametrize("text", ["[]", "[1, 2]", "3", '"text"', "null", "true"])
def test_anything_but_an_object_is_refused(text: str) -> None:
    with pytest.raises(FormatError, match="expected a JSON object") as caught:
        parse_json_object(text, "x.json")
    assert caught.value.path == "x.json"


def test_parse_json_accepts_any_value_and_still_reports_the_line() -> None:
    assert parse_json("[1, {}]", "events.json") == [1, {}]
    assert parse_json("null", "events.json") is None
    with pytest.raises(FormatError) as caught:
        parse_json('[\n{"id": 1}\n{"id": 2}\n]', "events.json")
    assert caught.value.line == 3 and caught.value.path == "events.json"


def test_a_bom_left_in_the_text_is_a_clear_error() -> None:
    with pytest.raises(FormatError, match="BOM"):
        parse_json_object('\ufeff{"a": 1}', "x.json")


def _workspace(tmp_path: Path) -> Store:
    workspace = tmp_path / "ws"
    (workspace / "memory").mkdir(parents=True)
    return Store(Workspace(workspace))


def test_files_read_through_the_store_with_bom_and_crlf(tmp_path: Path) -> None:
    store = _workspace(tmp_path)
    path = store.workspace.memory_dir / "state.json"
    path.write_bytes(b'\xef\xbb\xbf{\r\n  "session_count": 3,\r\n  "flags": {}\r\n}\r\n')
    current = store.read_text(path)
    assert current is not None
    assert parse_json_object(current[0], str(path)) == {"session_count": 3, "flags": {}}


def test_a_broken_file_is_reported_and_left_untouched(tmp_path: Path) -> None:
    store = _workspace(tmp_path)
    path = store.workspace.memory_dir / "state.json"
    raw = b'{\r\n  "session_count": 3\r\n  "flags": {}\r\n}\r\n'
    path.write_bytes(raw)
    current = store.read_text(path)
    assert current is not None
    with pytest.raises(FormatError) as caught:
        parse_json_object(current[0], str(path))
    assert caught.value.line == 3
    assert path.read_bytes() == raw


def test_absurdly_nested_json_is_a_format_error_not_a_crash() -> None:
    from workmem.errors import FormatError
    from workmem.files.jsondoc import parse_json

    with pytest.raises(FormatError, match="nested too deeply"):
        parse_json("[" * 100_000, "memory/state.json")

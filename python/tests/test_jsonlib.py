"""jsonlib: strict JSON in, JSON.stringify-identical JSON out, both backends (IDL `meta`)."""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dsh_sdk import jsonlib
from transport_support import as_javascript_sees


@pytest.fixture(params=jsonlib.available_backends())
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    previous = jsonlib.set_backend(request.param)
    yield request.param
    jsonlib.set_backend(previous)


def test_orjson_is_the_default_backend_when_it_is_installed() -> None:
    pytest.importorskip("orjson")
    assert jsonlib.available_backends() == ("orjson", "json")
    assert jsonlib.backend() == "orjson"


def test_set_backend_switches_and_returns_the_previous_one() -> None:
    previous = jsonlib.set_backend("json")
    try:
        assert jsonlib.backend() == "json"
        assert jsonlib.set_backend("json") == "json"
    finally:
        jsonlib.set_backend(previous)
    with pytest.raises(ValueError):
        jsonlib.set_backend("simplejson")  # type: ignore[arg-type]


REJECTED = [
    pytest.param("NaN", id="nan"),
    pytest.param("Infinity", id="infinity"),
    pytest.param("-Infinity", id="minus-infinity"),
    pytest.param('{"a":NaN}', id="nested-nan"),
    pytest.param('"a\tb"', id="raw-tab-in-string"),
    pytest.param('"a\x00b"', id="raw-nul-in-string"),
    pytest.param('"a\nb"', id="raw-newline-in-string"),
    pytest.param('{"a":1} x', id="trailing-garbage"),
    pytest.param('{"a":1}{"b":2}', id="two-values"),
    pytest.param("\ufeff{}", id="byte-order-mark"),
    pytest.param("", id="empty"),
    pytest.param("  \t ", id="whitespace-only"),
    pytest.param("{'a':1}", id="single-quotes"),
    pytest.param('{"a":1,}', id="trailing-comma"),
    pytest.param("[1,]", id="trailing-comma-in-array"),
    pytest.param("01", id="leading-zero"),
    pytest.param("1.", id="bare-decimal-point"),
    pytest.param(".5", id="no-integer-part"),
    pytest.param("+1", id="plus-sign"),
    pytest.param("0x10", id="hex"),
    pytest.param('{"a":1 /* c */}', id="comment"),
    pytest.param("\u00a0{}", id="non-json-whitespace"),
    pytest.param('"\\x41"', id="bad-escape"),
    pytest.param('"\\u12"', id="short-unicode-escape"),
    pytest.param("[" * 100_000 + "]" * 100_000, id="nesting-too-deep"),
]


@pytest.mark.parametrize("text", REJECTED)
def test_loads_rejects_what_rfc_8259_rejects(backend: str, text: str) -> None:
    with pytest.raises(ValueError):
        jsonlib.loads(text)


ACCEPTED = [
    pytest.param(' {"a" : [1, 2.5, -0, 1e2]} \r\n', {"a": [1, 2.5, 0, 100.0]}, id="whitespace"),
    pytest.param('"\\ud800"', "\ud800", id="escaped-lone-surrogate"),
    pytest.param('"\\ud83d\\ude00"', "😀", id="escaped-surrogate-pair"),
    pytest.param('"\x7f\u2028é"', "\x7f\u2028é", id="raw-del-and-line-separator"),
    pytest.param("[1e400]", [float("inf")], id="overflowing-number"),
    pytest.param('{"a":1,"a":2}', {"a": 2}, id="duplicate-key-last-wins"),
    pytest.param("[" * 500 + "]" * 500, [[[]]], id="deep-nesting"),
]


@pytest.mark.parametrize(("text", "expected"), ACCEPTED)
def test_loads_accepts_what_json_parse_accepts(backend: str, text: str, expected: Any) -> None:
    value = jsonlib.loads(text)
    if text.startswith("[" * 500):
        depth = 0
        while value:
            value = value[0]
            depth += 1
        assert depth == 499
    else:
        assert value == expected


def test_loads_reads_utf8_bytes_and_rejects_invalid_utf8(backend: str) -> None:
    assert jsonlib.loads('{"t":"é"}'.encode()) == {"t": "é"}
    with pytest.raises(ValueError):
        jsonlib.loads(b'{"t":"\xff"}')


def test_dumps_is_compact_and_writes_non_ascii_raw(backend: str) -> None:
    assert (
        jsonlib.dumps({"a": [1, {"b": None}], "c": "世界 é"}) == '{"a":[1,{"b":null}],"c":"世界 é"}'
    )


def test_dumps_escapes_strings_exactly_like_json_stringify(backend: str) -> None:
    # node -e 'process.stdout.write(JSON.stringify("\0\x1f\b\f\n\r\t\"\\/\x7f\u2028é😀"))'
    text = '\x00\x1f\b\f\n\r\t"\\/\x7f\u2028é😀'
    assert jsonlib.dumps(text) == '"\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\/\x7f\u2028é😀"'


def test_dumps_escapes_a_lone_surrogate_so_the_line_is_valid_utf8(backend: str) -> None:
    line = jsonlib.dumps_line({"a": "x\ud800y", "\udfff": 1})
    assert line == b'{"a":"x\\ud800y","\\udfff":1}\n'
    line.decode("utf-8")  # valid UTF-8
    assert jsonlib.loads(line) == {"a": "x\ud800y", "\udfff": 1}


def test_dumps_writes_a_hand_made_surrogate_pair_as_the_character_javascript_sees(
    backend: str,
) -> None:
    assert jsonlib.dumps("\ud83d\ude00") == '"😀"'


def test_dumps_writes_nan_and_infinities_as_null_like_json_stringify(backend: str) -> None:
    assert jsonlib.dumps([float("nan"), float("inf"), -float("inf"), 1.5]) == "[null,null,null,1.5]"


def test_dumps_writes_integers_beyond_64_bits_exactly(backend: str) -> None:
    assert jsonlib.dumps({"n": 2**70}) == '{"n":1180591620717411303424}'


def test_dumps_writes_int_enums_as_numbers(backend: str) -> None:
    class Code(enum.IntEnum):
        METHOD_NOT_FOUND = -32601

    assert jsonlib.dumps({"code": Code.METHOD_NOT_FOUND}) == '{"code":-32601}'


def test_dumps_refuses_what_json_cannot_hold_on_both_backends(backend: str) -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    for value in (object(), {1, 2}, Point(1), b"bytes"):
        with pytest.raises(TypeError):
            jsonlib.dumps({"v": value})


def test_dumps_refuses_a_circular_reference(backend: str) -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises((TypeError, ValueError)):
        jsonlib.dumps(loop)


def test_dumps_line_ends_with_one_newline(backend: str) -> None:
    assert (
        jsonlib.dumps_line({"jsonrpc": "2.0", "method": "m"}) == b'{"jsonrpc":"2.0","method":"m"}\n'
    )


# --- the two backends agree ----------------------------------------------------------------

TRICKY_CHARACTERS = [
    "\ud800",
    "\udfff",
    "\ud83d",
    "é",
    "世",
    "😀",
    "\u2028",
    "\x00",
    "\x7f",
    "\n",
    '"',
]
ANY_CHARACTER = st.characters(codec=None, categories=None) | st.sampled_from(TRICKY_CHARACTERS)
# st.text() drops surrogates whatever its alphabet; joining characters keeps them.
json_keys = st.lists(ANY_CHARACTER, max_size=8).map("".join)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.lists(ANY_CHARACTER, max_size=20).map("".join)
)
json_values_without_floats = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(json_keys, children, max_size=4)
    ),
    max_leaves=20,
)
json_values = st.recursive(
    json_scalars | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(json_keys, children, max_size=4)
    ),
    max_leaves=20,
)


def with_backend(name: str, function: Any, *args: Any) -> Any:
    previous = jsonlib.set_backend(name)  # type: ignore[arg-type]
    try:
        return function(*args)
    finally:
        jsonlib.set_backend(previous)


def comparable(value: Any) -> Any:
    """Integers past 2**53 as the double JSON.parse makes of them: orjson reads integers past 64
    bits as floats, the standard library keeps them exact (a documented difference)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) > 2**53:
        return float(value)
    if isinstance(value, list):
        return [comparable(item) for item in value]
    if isinstance(value, dict):
        return {key: comparable(item) for key, item in value.items()}
    return value


def outcome(name: str, text: str) -> tuple[str, Any]:
    try:
        return "ok", comparable(with_backend(name, jsonlib.loads, text))
    except ValueError:
        return "invalid", None


requires_orjson = pytest.mark.skipif(
    "orjson" not in jsonlib.available_backends(), reason="orjson is not installed"
)


@requires_orjson
@given(json_values_without_floats)
def test_both_backends_write_the_same_bytes(value: Any) -> None:
    assert with_backend("orjson", jsonlib.dumps_line, value) == with_backend(
        "json", jsonlib.dumps_line, value
    )


@given(json_values)
def test_what_is_written_reads_back_equal_and_matches_the_standard_library(value: Any) -> None:
    for name in jsonlib.available_backends():
        line = with_backend(name, jsonlib.dumps_line, value)
        assert line.endswith(b"\n") and b"\n" not in line[:-1]
        assert with_backend(name, jsonlib.loads, line.decode("utf-8")) == as_javascript_sees(value)
        assert json.loads(line) == as_javascript_sees(value)


@requires_orjson
@given(json_values, st.integers(min_value=0), st.text(max_size=3))
def test_both_backends_accept_and_reject_the_same_texts(
    value: Any, position: int, insertion: str
) -> None:
    text = with_backend("json", jsonlib.dumps, value)
    cut = position % (len(text) + 1)
    damaged = text[:cut] + insertion + text[cut:]
    assert outcome("orjson", damaged) == outcome("json", damaged)


def test_the_large_line_parser_is_as_strict_as_loads() -> None:
    big = '{"data":"' + "A" * (jsonlib.LARGE_LINE_CHARS + 8) + '","n":1}'
    parse = jsonlib.large_line_parser()
    assert parse(big) == jsonlib.loads(big)
    for bad in (big.replace('"n":1', '"n":NaN'), big + " x", big.replace("AAAA", "A\u0001A", 1)):
        with pytest.raises(ValueError):
            parse(bad)
        with pytest.raises(ValueError):
            jsonlib.loads(bad)

"""JSON in and out, the way the wire wants it (the IDL's `meta.description`).

Parsing is strict RFC 8259: `NaN`, `Infinity`, `-Infinity`, raw control characters in strings,
a byte order mark and trailing garbage are errors. Writing is compact (no insignificant
whitespace), non-ASCII characters are written raw and a lone surrogate is written escaped
(`\\ud800`), so each line is valid UTF-8 and its strings are byte-identical to what JavaScript's
`JSON.stringify` writes.

orjson is used when it is importable, the standard library otherwise; `set_backend` switches
between the two (tests run both). Both paths accept and reject the same texts:

- orjson rejects escaped lone surrogates (`"\\ud800"`), which `JSON.parse` accepts, and numbers
  that overflow a double (`1e400`, which `JSON.parse` reads as `Infinity`). When orjson rejects a
  text, the strict standard-library parser gets a second look before the text is called invalid.
- orjson cannot write a lone surrogate, an integer beyond 64 bits or a dict with non-string keys;
  such values are written by the standard library instead.

Known differences that remain (values are equal, spellings or types are not):

- Numbers. Python keeps `1` (int) and `1.0` (float) apart and writes `1.0` where JavaScript writes
  `1`; exponents are spelled differently (`1e-07` or `1e-7` where JavaScript writes `1e-7`, `1e+16`
  where it writes `10000000000000000`); `-0.0` is written `-0.0`, JavaScript writes `0`. NaN and
  infinities are written `null`, as `JSON.stringify` does. Integers beyond 64 bits parse as floats
  with orjson (as in JavaScript) and as exact ints with the standard library. The protocol keeps
  every number of a payload within +/-(2^53 - 1), where all of these read alike (the generated
  validators check it; see the IDL's number rule).
- Nesting deeper than about 1,000 levels fails to parse here; `JSON.parse` goes deeper. The
  transport refuses lines nested deeper than the protocol's limit before parsing (`nesting.py`).
- orjson writes a few non-JSON types the standard library refuses (`uuid.UUID`, enums by value);
  dataclasses and datetimes are refused by both.
"""

from __future__ import annotations

import enum
import json
import json.scanner
import math
import re
from collections.abc import Callable
from typing import Any, Final, Literal

__all__ = [
    "ABSENT",
    "Absent",
    "JsonBackend",
    "available_backends",
    "backend",
    "dumps",
    "dumps_line",
    "line_parsers",
    "loads",
    "parses_bytes",
    "set_backend",
]


class Absent(enum.Enum):
    """The type of `ABSENT`."""

    ABSENT = "ABSENT"

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


ABSENT: Final = Absent.ABSENT
"""Marks a JSON member that is absent, as opposed to present with the value `null` (`None`)."""

JsonBackend = Literal["orjson", "json"]
"""The library behind `loads` and `dumps`."""


# --- the standard library path -------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant, strict=True)
# typeshed types the C scanner's constructor argument oddly; it takes the decoder.
_scan_once: Final[Callable[[str, int], tuple[Any, int]]] = json.scanner.make_scanner(
    _DECODER  # type: ignore[arg-type]
)
_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
_skip_whitespace: Final = _WHITESPACE.match


def _loads_json(text: str | bytes) -> Any:
    """Strict standard-library parse. Calls the C scanner directly: `json.loads` with any option
    builds a new decoder per call, and its two whitespace regexes cost more than the scan of a
    small frame."""
    if not isinstance(text, str):
        text = text.decode("utf-8")
    try:
        value, end = _scan_once(text, 0)
    except StopIteration:
        # Leading whitespace (or no value at all): the scanner only starts on a value.
        start = _skip_whitespace(text, 0).end()  # type: ignore[union-attr]
        try:
            value, end = _scan_once(text, start)
        except StopIteration as err:
            raise json.JSONDecodeError("Expecting value", text, err.value) from None
    except RecursionError:
        raise json.JSONDecodeError("Nesting too deep", text, 0) from None
    if end != len(text):
        end = _skip_whitespace(text, end).end()  # type: ignore[union-attr]
        if end != len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    return value


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _dumps_json(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError as error:
        if "Out of range float" not in str(error):
            raise  # a circular reference
        # NaN or an infinity somewhere: JSON.stringify writes null for them.
        text = json.dumps(
            _replace_non_finite(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False
        )
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Surrogates only occur inside strings. A pair made by hand ("\ud83d\ude00") is one
        # character to JavaScript, so pairs are joined first; those left alone are escaped.
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
        text = _SURROGATE.sub(_escape_surrogate, text)
    return text


def _replace_non_finite(value: object) -> object:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _replace_non_finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_replace_non_finite(item) for item in value]
    return value


def _dumps_line_json(value: object) -> bytes:
    return (_dumps_json(value) + "\n").encode("utf-8")


# --- the orjson path -----------------------------------------------------------------------

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - exercised where orjson is not installed
    _orjson = None  # type: ignore[assignment]


def _refuse(value: object) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


if _orjson is not None:
    _orjson_loads: Final = _orjson.loads
    _orjson_dumps: Final = _orjson.dumps
    _OrjsonDecodeError: Final = _orjson.JSONDecodeError
    _OrjsonEncodeError: Final = _orjson.JSONEncodeError
    # Dataclasses and datetimes go to `_refuse`, as the standard library refuses them.
    _ORJSON_OPTIONS: Final = _orjson.OPT_PASSTHROUGH_DATACLASS | _orjson.OPT_PASSTHROUGH_DATETIME

    def _loads_orjson(text: str | bytes) -> Any:
        try:
            return _orjson_loads(text)
        except _OrjsonDecodeError:
            # A second opinion for what JSON.parse accepts and orjson does not.
            return _loads_json(text)

    def _dumps_orjson(value: object) -> str:
        try:
            return _orjson_dumps(value, default=_refuse, option=_ORJSON_OPTIONS).decode("utf-8")
        except _OrjsonEncodeError:
            return _dumps_json(value)

    def _dumps_line_orjson(value: object) -> bytes:
        try:
            return _orjson_dumps(
                value, default=_refuse, option=_ORJSON_OPTIONS | _orjson.OPT_APPEND_NEWLINE
            )
        except _OrjsonEncodeError:
            return _dumps_line_json(value)


# --- the switch ----------------------------------------------------------------------------

loads: Callable[[str | bytes], Any] = _loads_json
"""Parses one JSON text strictly. Raises `ValueError` (a `json.JSONDecodeError`, or a
`UnicodeDecodeError` for bytes that are not UTF-8) when the text is not valid JSON."""

dumps: Callable[[object], str] = _dumps_json
"""Writes a value as compact JSON text, without a newline. Raises `TypeError` for values JSON
cannot hold (`ValueError` for a circular reference)."""

dumps_line: Callable[[object], bytes] = _dumps_line_json
"""Writes a value as one wire line: compact JSON, UTF-8, followed by `\\n`."""

_backend: JsonBackend = "json"
LineParser = Callable[[str | bytes], Any]
"""Parses one line, given as text or as bytes already checked to be UTF-8."""
_line_parsers: tuple[LineParser, LineParser | None] = (_loads_json, None)


def line_parsers() -> tuple[LineParser, LineParser | None]:
    """`loads` split in two for a hot loop: `first` parses the common case as fast as it can; when
    it raises `ValueError`, `second` (when not `None`) takes a second look, and the text is
    invalid only if that raises too. Together they accept exactly what `loads` accepts. Both take
    a line as `str` or as valid UTF-8 `bytes` (`parses_bytes` says which is faster)."""
    return _line_parsers


def parses_bytes() -> bool:
    """True when the backend in use parses a line's bytes directly (orjson): a reader then hands
    it the bytes, checked as UTF-8, instead of decoding them to `str` first. The standard library
    scans `str`, so with it lines are better decoded once per chunk."""
    return _backend == "orjson"


LARGE_LINE_CHARS: Final = 1 << 20
"""Lines this long parse faster with the standard library than with orjson (8 MiB of JSON with a
long base64 string: 5.1 ms against 7.0 ms), so `large_line_parser` serves them on either backend."""


def large_line_parser() -> LineParser:
    """The strict parser for lines of `LARGE_LINE_CHARS` or more; accepts exactly what `loads`
    accepts."""
    return _loads_json


def available_backends() -> tuple[JsonBackend, ...]:
    """The backends this interpreter can use: `json` always, `orjson` when it is installed."""
    return ("orjson", "json") if _orjson is not None else ("json",)


def backend() -> JsonBackend:
    """The backend in use."""
    return _backend


def set_backend(name: JsonBackend) -> JsonBackend:
    """Switches `loads`, `dumps` and `dumps_line` to `name`; returns the previous backend.

    Callers that look the functions up on the module (`jsonlib.loads`) see the switch at once;
    the transport looks them up once per chunk of input.
    """
    global loads, dumps, dumps_line, _backend, _line_parsers
    previous = _backend
    if name == "orjson":
        if _orjson is None:
            raise ValueError("orjson is not installed")
        loads, dumps, dumps_line = _loads_orjson, _dumps_orjson, _dumps_line_orjson
        _line_parsers = (_orjson_loads, _loads_json)
    elif name == "json":
        loads, dumps, dumps_line = _loads_json, _dumps_json, _dumps_line_json
        _line_parsers = (_loads_json, None)
    else:
        raise ValueError(f"unknown JSON backend {name!r}")
    _backend = name
    return previous


set_backend(available_backends()[0])

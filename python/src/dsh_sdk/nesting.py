"""The nesting limit (the IDL's `meta.maxNestingDepth`), checked on the text of a line before
anything parses it, so that no recursive code (the JSON parsers, the validators, `codec`) ever meets
a deeper value. The twin of `packages/protocol/src/nesting.ts`, with the same definitions.
"""

from __future__ import annotations

import re
from typing import Any, Final

from dsh_sdk import jsonlib
from dsh_sdk._gen.constants import MAX_NESTING_DEPTH, WireMessage, format_message

__all__ = [
    "SHORT_LINE_CHARS",
    "NestingTooDeepError",
    "dumps_frame",
    "exceeds_nesting_depth",
    "read_top_level",
    "scan",
]

SHORT_LINE_CHARS: Final = 2 * MAX_NESTING_DEPTH + 1
"""A line this short holds no JSON text nested deeper than the limit (each level takes an opening
and a closing bracket), and no parser recurses dangerously on it: the transport parses it first,
and scans it only when it is not JSON, which spares the check on most small frames."""

# A string (to its closing quote, or to the end of the line when it has none) or one bracket.
_TOKEN: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)
_TOKEN_BYTES: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)
_OPENERS: Final = frozenset(("{", "[", 0x7B, 0x5B))
_QUOTES: Final = frozenset(('"', 0x22))


class NestingTooDeepError(ValueError):
    """A message nested deeper than `MAX_NESTING_DEPTH` levels: the peer would drop it unread."""


_COUNTED_BELOW: Final = 1 << 16
"""Below this length braces are counted with `count`; above, found one by one with `find`."""


def exceeds_nesting_depth(text: str | bytes, limit: int = MAX_NESTING_DEPTH) -> bool:
    """True when `text` nests deeper than `limit`. Cheap for the usual line: one with no more than
    `limit` characters, or no more than `limit` braces and brackets, cannot nest deeper; only a line
    with more of them is scanned. Braces are counted in C (`count`) on ordinary lines; brackets,
    fewer, and on long lines (mostly one long string) both, are found with `find`, which skips
    ahead with memchr."""
    if len(text) <= limit:
        return False
    brace, bracket = ("{", "[") if isinstance(text, str) else (b"{", b"[")
    find = text.find
    if len(text) < _COUNTED_BELOW:
        openers = text.count(brace)  # type: ignore[arg-type]
        needles: tuple[Any, ...] = (bracket,)
    else:
        openers = 0
        needles = (brace, bracket)
    for needle in needles:
        i = find(needle)
        while i >= 0 and openers <= limit:
            openers += 1
            i = find(needle, i + 1)
    return openers > limit and scan(text)[0] > limit


def scan(text: str | bytes) -> tuple[int, list[list[int]]]:
    """How deep `text` nests, and the `[start, end)` of every container opened at depth 1 (`end` is
    -1 when it never closes).

    The depth is the most containers open at once, scanning left to right: `{` and `[` open one,
    `}` and `]` close one (never below zero), and nothing inside a string counts (a string runs from
    `"` to the next `"` not escaped by an odd run of `\\`, or to the end of the line). For a JSON
    text this is its nesting depth: 1 is `{}`, 2 is `{"a":[]}`, 0 a scalar."""
    pattern = _TOKEN if isinstance(text, str) else _TOKEN_BYTES
    depth = deepest = 0
    inner: list[list[int]] = []
    for match in pattern.finditer(text):  # type: ignore[arg-type]
        start = match.start()
        token = text[start]
        if token in _QUOTES:
            continue
        if token in _OPENERS:
            depth += 1
            deepest = max(deepest, depth)
            if depth == 2:
                inner.append([start, -1])
        elif depth > 0:
            if depth == 2:
                inner[-1][1] = start + 1
            depth -= 1
    return deepest, inner


def read_top_level(text: str | bytes) -> object | None:
    """The top level of a line too deep to parse whole: the line with every container of a
    top-level member replaced by `null`, parsed; `None` when that is not JSON (a container never
    closes, the line is not JSON at its top level). So the `id` and `method` of a request nested too
    deep can be read, and the request answered, without building its deep members. `text` may be
    a line's bytes, when they are valid UTF-8."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    pieces: list[str] = []
    start = 0
    for begin, end in scan(text)[1]:
        if end == -1:
            return None
        pieces += (text[start:begin], "null")
        start = end
    pieces.append(text[start:])
    try:
        value: object = jsonlib.loads("".join(pieces))
    except ValueError:
        return None
    return value


def dumps_frame(message: object) -> bytes:
    """`message` as one wire line, refusing one nested deeper than `MAX_NESTING_DEPTH`.

    Raises `NestingTooDeepError` (a `ValueError`) for such a message, and what `jsonlib.dumps_line`
    raises for a value JSON cannot hold (a `RecursionError` for one too deep even to serialize)."""
    line = jsonlib.dumps_line(message)
    if len(line) > SHORT_LINE_CHARS and exceeds_nesting_depth(line):
        raise NestingTooDeepError(
            format_message(WireMessage.MESSAGE_NESTED_TOO_DEEP, limit=MAX_NESTING_DEPTH)
        )
    return line

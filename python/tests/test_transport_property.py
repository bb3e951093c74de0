"""Properties of the reading side: chunking never matters, garbage never hurts valid frames."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dsh_sdk import jsonlib
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.line_reader import LineEntry, LineReader, LineRejection
from dsh_sdk.transport import JsonRpcLineTransport
from transport_support import as_javascript_sees

# --- a reference model of the line reader --------------------------------------------------


def reference_lines(data: bytes, limit: int) -> list[LineEntry]:
    """What LineReader must make of `data` fed whole, written the obvious (slow) way."""
    *lines, tail = data.split(b"\n")
    entries: list[LineEntry] = []
    for number, raw in enumerate(lines, 1):
        if len(raw) > limit:
            entries.append(LineRejection("frame-too-large", number, len(raw)))
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            entries.append(LineRejection("invalid-utf8", number, len(raw)))
            continue
        entries.append(text[:-1] if text.endswith("\r") else text)
    if tail:
        reason = "frame-too-large" if len(tail) > limit else "truncated-frame"
        entries.append(LineRejection(reason, len(lines) + 1, len(tail)))  # type: ignore[arg-type]
    return entries


def cut(data: bytes, positions: list[int]) -> list[bytes]:
    """`data` cut at the given positions (taken modulo its length, in order)."""
    points = sorted({p % (len(data) + 1) for p in positions})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds) if b > a]


line_pieces = st.sampled_from(
    [b"{", b"}", b'"', b"\r", b"\n", b"\n", b"\n", b"a", b"\xc3\xa9", b"\xe4\xb8\x96", b"\xf0\x9f",
     b"\x98\x80", b"\xff", b"\xc3", b" ", b"xxxxxxxxxxxxxxxx"]
)  # fmt: skip
streams = st.lists(line_pieces, max_size=60).map(b"".join)


@given(streams, st.lists(st.integers(min_value=0), max_size=20), st.integers(1, 40))
def test_any_chunking_gives_the_lines_of_the_reference_model(
    data: bytes, positions: list[int], limit: int
) -> None:
    reader = LineReader(max_frame_bytes=limit)
    entries: list[LineEntry] = []
    for chunk in cut(data, positions):
        entries.extend(reader.feed(chunk))
    entries.extend(reader.end())
    assert entries == reference_lines(data, limit)
    assert reader.line_count == data.count(b"\n")


# --- the transport -------------------------------------------------------------------------

TRICKY_CHARACTERS = [
    "\ud800",
    "\udfff",
    "\ud83d",
    "é",
    "世",
    "😀",
    "\u2028",
    "\x00",
    "\n",
    "\r",
    '"',
    "\\",
]
characters = st.characters(codec=None, categories=None) | st.sampled_from(TRICKY_CHARACTERS)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    # st.text() drops surrogates whatever its alphabet; joining characters keeps them.
    | st.lists(characters, max_size=12).map("".join),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)

GARBAGE_WITH_REASON = {
    b"NaN": "invalid-json",
    b'{"method":"frame","params":NaN}': "invalid-json",
    b'{"method":"frame"': "invalid-json",
    b'{"method":"frame"}}': "invalid-json",
    b'{"method":"frame","params":"\t"}': "invalid-json",
    b'\xff{"method":"frame"}': "invalid-utf8",
    b'{"method":"fr\xc3"}': "invalid-utf8",
    b'[{"method":"frame"}]': "batch-unsupported",
    b"42": "not-an-object",
    b'{"jsonrpc":"1.0","method":"frame"}': "invalid-message",
    b'{"method":["frame"]}': "invalid-message",
    b'{"id":true,"method":"frame"}': "invalid-id",
    b'{"id":null,"method":"frame"}': "invalid-id",
    b'{"id":99,"result":"nobody asked"}': "unknown-response-id",
    b'{"id":1,"error":{"code":"x","message":"m"}}': "invalid-message",
    b"x" * 300: "frame-too-large",
}
LIMIT = 256

known_garbage = st.sampled_from(sorted(GARBAGE_WITH_REASON))
silent_garbage = st.sampled_from([b"", b"\r"])
random_garbage = (
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")).filter(lambda b: b"frame" not in b)
)
garbage_lines = known_garbage | silent_garbage | random_garbage


class NullOutput:
    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False


class ChunkSource:
    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = iter(chunks)

    async def read(self, n: int = -1) -> bytes:
        await asyncio.sleep(0)
        return next(self._chunks, b"")


def run_transport(chunks: list[bytes]) -> tuple[list[Any], list[TransportDiagnostic], str]:
    async def main() -> tuple[list[Any], list[TransportDiagnostic], str]:
        loop_errors: list[dict[str, Any]] = []
        asyncio.get_running_loop().set_exception_handler(lambda _, c: loop_errors.append(c))
        delivered: list[Any] = []
        diagnostics: list[TransportDiagnostic] = []
        transport = JsonRpcLineTransport(
            ChunkSource(chunks),
            NullOutput(),
            max_frame_bytes=LIMIT,
            on_diagnostic=diagnostics.append,
        )
        transport.on_notification("frame", lambda params, context: delivered.append(params))
        transport.start()
        closed = await transport.wait_closed()
        assert loop_errors == []
        return delivered, diagnostics, closed.reason

    return asyncio.run(main())


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            json_values.map(lambda value: ("frame", value)),
            garbage_lines.map(lambda line: ("garbage", line)),
        ),
        max_size=25,
    ),
    st.lists(st.integers(min_value=0), max_size=15),
    st.sampled_from(jsonlib.available_backends()),
)
def test_garbage_anywhere_never_loses_reorders_or_corrupts_valid_frames(
    items: list[tuple[str, Any]], positions: list[int], backend: jsonlib.JsonBackend
) -> None:
    previous = jsonlib.set_backend(backend)
    try:
        lines: list[bytes] = []
        expected: list[Any] = []
        garbage_numbers: dict[int, bytes] = {}
        for kind, item in items:
            if kind == "frame":
                line = jsonlib.dumps_line({"jsonrpc": "2.0", "method": "frame", "params": item})
                assume(len(line) <= LIMIT)
                expected.append(as_javascript_sees(item))
                lines.append(line)
            else:
                lines.append(item + b"\n")
                garbage_numbers[len(lines)] = item
        data = b"".join(lines)
        delivered, diagnostics, reason = run_transport(cut(data, positions))
    finally:
        jsonlib.set_backend(previous)
    assert delivered == expected
    assert [json.dumps(v, sort_keys=True) for v in delivered] == [
        json.dumps(v, sort_keys=True) for v in expected
    ]
    assert reason == "input-ended"
    reported = [d.line for d in diagnostics]
    assert len(reported) == len(set(reported)), "at most one report per line"
    for diagnostic in diagnostics:
        assert diagnostic.line in garbage_numbers
        line = garbage_numbers[diagnostic.line]
        assert diagnostic.bytes == len(line)
        if line in GARBAGE_WITH_REASON:
            assert diagnostic.reason == GARBAGE_WITH_REASON[line]
    for number, line in garbage_numbers.items():
        if line in GARBAGE_WITH_REASON:
            assert number in reported


@settings(max_examples=60, deadline=None)
@given(
    st.lists(json_values, min_size=1, max_size=12),
    st.lists(st.integers(min_value=0), max_size=30),
)
def test_any_chunking_of_a_valid_stream_delivers_the_same_frames_in_order(
    values: list[Any], positions: list[int]
) -> None:
    data = b"".join(
        jsonlib.dumps_line({"jsonrpc": "2.0", "method": "frame", "params": value})
        for value in values
    )
    assume(max(len(line) for line in data.split(b"\n")) <= LIMIT)
    delivered, diagnostics, reason = run_transport(cut(data, positions))
    assert delivered == [as_javascript_sees(value) for value in values]
    assert diagnostics == []
    assert reason == "input-ended"

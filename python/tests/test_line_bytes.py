"""Lines kept as bytes for a parser that takes bytes (orjson): the same lines, rejections and
diagnostics as decoded lines, whatever the chunk boundaries, read by the real transport from an
`asyncio.StreamReader` with each backend."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from dsh_sdk import jsonlib
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.inbound_handlers import NotificationContext
from dsh_sdk.line_reader import LineEntry, LineReader, LineRejection
from dsh_sdk.transport import JsonRpcLineTransport
from transport_support import MemoryOutput


def frame(params: str) -> bytes:
    return jsonlib.dumps_line({"method": "n", "params": params})


def invalid(raw: bytes) -> bytes:
    return b'{"method":"n","params":"' + raw + b'"}\n'


LINES = [
    frame("first é"),
    invalid(b"\xff"),  # never valid
    frame("a\ufffdb"),  # a real U+FFFD
    b"\n",
    frame("crlf 你好")[:-1] + b"\r\n",
    invalid(b"\xc3"),  # a character cut short
    invalid(b"\xed\xa0\x80"),  # an encoded surrogate
    frame("🎉 last"),
]
SOURCE = b"".join(LINES)


def entries_of(reader: LineReader, chunks: list[bytes]) -> list[LineEntry]:
    entries: list[LineEntry] = []
    for chunk in chunks:
        entries.extend(reader.feed(chunk))
    entries.extend(reader.end())
    return entries


def cuts() -> Iterator[list[bytes]]:
    for offset in range(len(SOURCE) + 1):
        yield [SOURCE[:offset], SOURCE[offset:]]
    yield [SOURCE[i : i + 1] for i in range(len(SOURCE))]


@pytest.mark.parametrize("keep_cr", [False, True])
def test_bytes_lines_are_the_decoded_lines_as_bytes_at_every_cut(keep_cr: bool) -> None:
    for chunks in cuts():
        as_text = entries_of(LineReader(keep_cr=keep_cr), [c for c in chunks if c])
        as_bytes = entries_of(LineReader(keep_cr=keep_cr, bytes_lines=True), chunks)
        expected = [e.encode() if isinstance(e, str) else e for e in as_text]
        assert as_bytes == expected, chunks
        assert all(isinstance(e, bytes | LineRejection) for e in as_bytes)


def test_a_frame_over_the_limit_is_rejected_by_its_byte_size() -> None:
    fits, too_long = frame("é" * 20), frame("é" * 21)
    limit = len(fits) - 1
    reader = LineReader(limit, bytes_lines=True)
    assert reader.feed(fits + too_long + fits) == [
        fits[:-1],
        LineRejection("frame-too-large", 2, len(too_long) - 1),
        fits[:-1],
    ]


async def read_through_transport(
    backend: jsonlib.JsonBackend, chunks: list[bytes]
) -> tuple[list[tuple[Any, int, int]], list[TransportDiagnostic]]:
    previous = jsonlib.set_backend(backend)
    try:
        stream = asyncio.StreamReader()
        diagnostics: list[TransportDiagnostic] = []
        transport = JsonRpcLineTransport(stream, MemoryOutput(), on_diagnostic=diagnostics.append)
        seen: list[tuple[Any, int, int]] = []

        def on_n(params: Any, context: NotificationContext) -> None:
            seen.append((params, context.line, context.bytes))

        transport.on_notification("n", on_n)
        transport.start()
        for chunk in chunks:
            stream.feed_data(chunk)
            await asyncio.sleep(0)
        stream.feed_eof()
        await transport.wait_closed()
        return seen, diagnostics
    finally:
        jsonlib.set_backend(previous)


@pytest.mark.parametrize("backend", jsonlib.available_backends())
async def test_the_transport_reports_each_invalid_line_and_delivers_the_rest(
    backend: jsonlib.JsonBackend,
) -> None:
    for offset in range(0, len(SOURCE) + 1, 7):
        seen, diagnostics = await read_through_transport(
            backend, [SOURCE[:offset], SOURCE[offset:]]
        )
        assert seen == [
            ("first é", 1, len(LINES[0]) - 1),
            ("a\ufffdb", 3, len(LINES[2]) - 1),
            ("crlf 你好", 5, len(LINES[4]) - 1),
            ("🎉 last", 8, len(LINES[7]) - 1),
        ], offset
        assert [(d.reason, d.line, d.bytes, d.message) for d in diagnostics] == [
            ("invalid-utf8", line, len(LINES[line - 1]) - 1, "the line is not valid UTF-8")
            for line in (2, 6, 7)
        ], offset


@pytest.mark.parametrize("backend", jsonlib.available_backends())
async def test_invalid_json_gets_the_same_detail_from_either_form(
    backend: jsonlib.JsonBackend,
) -> None:
    data = b'{"method":"n","params":NaN}\n{"method":"n","params":"\xc3\xa9\\ud800"}\n'
    seen, diagnostics = await read_through_transport(backend, [data])
    _, json_diagnostics = await read_through_transport("json", [data])
    assert seen == [("é\ud800", 2, len(data.split(b"\n")[1]))]
    assert diagnostics == json_diagnostics
    assert [(d.reason, d.line) for d in diagnostics] == [("invalid-json", 1)]


@pytest.mark.parametrize("backend", jsonlib.available_backends())
async def test_a_big_frame_of_multi_byte_text_in_many_chunks_arrives_whole(
    backend: jsonlib.JsonBackend,
) -> None:
    text = "€uro " * (8 * 2**20 // 7)
    data = frame(text) + frame("after")
    chunks = [data[at : at + 65536] for at in range(0, len(data), 65536)]
    seen, diagnostics = await read_through_transport(backend, chunks)
    assert diagnostics == []
    assert [params for params, _, _ in seen] == [text, "after"]

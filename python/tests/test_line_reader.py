"""LineReader: bytes to complete lines (the IDL's `meta.description`)."""

from __future__ import annotations

import asyncio
import time
import tracemalloc

import pytest

from dsh_sdk.line_reader import LineEntry, LineReader, LineRejection, read_line_batches
from time_budget import budget


def feed_all(reader: LineReader, *chunks: bytes) -> list[LineEntry]:
    entries: list[LineEntry] = []
    for chunk in chunks:
        entries.extend(reader.feed(chunk))
    entries.extend(reader.end())
    return entries


def test_splits_on_newline_and_keeps_blank_lines_as_empty_entries() -> None:
    reader = LineReader()
    assert reader.feed(b'{"a":1}\n\n{"b":2}\n') == ['{"a":1}', "", '{"b":2}']
    assert reader.line_count == 3


def test_a_chunk_without_a_newline_is_held_until_its_line_ends() -> None:
    reader = LineReader()
    assert reader.feed(b'{"a":') == []
    assert reader.pending_bytes == 5
    assert reader.feed(b"1") == []
    assert reader.feed(b'}\n{"b"') == ['{"a":1}']
    assert reader.feed(b":2}\n") == ['{"b":2}']
    assert reader.end() == []


def test_a_multi_byte_character_split_across_chunks_is_decoded_whole() -> None:
    data = '{"t":"é世😀"}\n'.encode()
    for cut in range(1, len(data)):
        reader = LineReader()
        assert feed_all(reader, data[:cut], data[cut:]) == ['{"t":"é世😀"}'], cut


def test_every_byte_in_its_own_chunk_gives_the_same_lines() -> None:
    data = b"a\r\n\nb \xc3\xa9\n\xffc\n\r\n"
    whole = feed_all(LineReader(), data)
    assert whole == ["a", "", "b é", LineRejection("invalid-utf8", 4, 2), ""]
    single = feed_all(LineReader(), *[data[i : i + 1] for i in range(len(data))])
    assert single == whole


def test_one_trailing_carriage_return_is_stripped_and_a_bare_one_ends_nothing() -> None:
    reader = LineReader()
    assert reader.feed(b"a\r\nb\r\r\nc\rd\n\r\n") == ["a", "b\r", "c\rd", ""]


def test_keep_cr_keeps_the_carriage_return_but_a_line_of_only_cr_is_blank() -> None:
    reader = LineReader(keep_cr=True)
    assert reader.feed(b"a\r\n\r\nb\n") == ["a\r", "", "b"]
    assert reader.feed(b"c\r") == []
    assert reader.feed(b"\n\r") == ["c\r"]
    assert reader.feed(b"\n") == [""]


def test_a_line_that_is_not_utf8_is_rejected_with_its_number_and_size() -> None:
    reader = LineReader()
    entries = reader.feed(b'{"a":1}\n\xff\xfe\n{"b":2}\n\xed\xa0\x80\r\n')
    assert entries == [
        '{"a":1}',
        LineRejection("invalid-utf8", 2, 2),
        '{"b":2}',
        LineRejection("invalid-utf8", 4, 4),
    ]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(b"\xc0\xaf", id="overlong"),
        pytest.param(b"\xed\xa0\x80", id="encoded-surrogate"),
        pytest.param(b"\xf4\x90\x80\x80", id="beyond-u10ffff"),
        pytest.param(b"\xe2\x82", id="cut-short"),
        pytest.param(b"\x80", id="lone-continuation"),
    ],
)
def test_strict_utf8_rejects_what_lenient_decoders_would_patch(line: bytes) -> None:
    assert LineReader().feed(b"ok\n" + line + b"\n") == [
        "ok",
        LineRejection("invalid-utf8", 2, len(line)),
    ]


def test_an_unfinished_line_at_the_end_is_a_truncated_frame() -> None:
    reader = LineReader()
    assert reader.feed(b'{"a":1}\n{"jsonrpc":"2.0","id":1,"res') == ['{"a":1}']
    assert reader.end() == [LineRejection("truncated-frame", 2, 28)]
    assert reader.end() == []


def test_a_lone_carriage_return_at_the_end_is_still_a_truncated_frame() -> None:
    reader = LineReader()
    reader.feed(b"a\n\r")
    assert reader.end() == [LineRejection("truncated-frame", 2, 1)]


def test_a_line_of_exactly_the_limit_passes_and_one_byte_more_is_dropped() -> None:
    reader = LineReader(max_frame_bytes=8)
    assert reader.feed(b"12345678\n123456789\nok\n") == [
        "12345678",
        LineRejection("frame-too-large", 2, 9),
        "ok",
    ]


def test_the_limit_counts_the_carriage_return() -> None:
    reader = LineReader(max_frame_bytes=8)
    assert reader.feed(b"12345678\r\n") == [LineRejection("frame-too-large", 1, 9)]


def test_an_overlong_line_across_chunks_is_dropped_with_its_full_size() -> None:
    reader = LineReader(max_frame_bytes=10)
    assert reader.feed(b"ok\n0123456") == ["ok"]
    assert reader.feed(b"789abcdef") == []
    assert reader.pending_bytes == 16
    assert reader.feed(b"ghij\nnext\n") == [LineRejection("frame-too-large", 2, 20), "next"]


def test_an_overlong_line_cut_off_by_the_end_is_reported_as_too_large() -> None:
    reader = LineReader(max_frame_bytes=4)
    reader.feed(b"123456")
    assert reader.end() == [LineRejection("frame-too-large", 1, 6)]


def test_memory_stays_bounded_while_an_overlong_line_is_skipped() -> None:
    reader = LineReader(max_frame_bytes=1024 * 1024)
    chunk = b"x" * 65536
    tracemalloc.start()
    try:
        for _ in range(160):  # 10 MiB of one line
            reader.feed(chunk)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024 * 1024
    assert reader.feed(b"\nafter\n") == [
        LineRejection("frame-too-large", 1, 160 * 65536),
        "after",
    ]


def test_a_sixteen_mib_line_in_small_chunks_takes_linear_time() -> None:
    line = b'{"data":"' + b"A" * (16 * 1024 * 1024) + b'"}'
    chunks = [line[i : i + 65536] for i in range(0, len(line), 65536)] + [b"\n"]
    reader = LineReader()
    start = time.perf_counter()
    entries: list[LineEntry] = []
    for chunk in chunks:
        entries.extend(reader.feed(chunk))
    elapsed = time.perf_counter() - start
    assert len(entries) == 1 and len(entries[0]) == len(line)
    # Joining once is about 10 ms here; re-joining per chunk would copy ~2 GiB.
    assert elapsed < budget(1.0)


def test_line_numbers_count_blank_and_rejected_lines() -> None:
    reader = LineReader(max_frame_bytes=3)
    first = reader.feed(b"\n\n")
    second = reader.feed(b"toolong\n\xff\nab\n")
    assert first == ["", ""]
    assert second == [
        LineRejection("frame-too-large", 3, 7),
        LineRejection("invalid-utf8", 4, 1),
        "ab",
    ]
    assert reader.line_count == 5


@pytest.mark.parametrize("limit", [0, -1])
def test_a_limit_below_one_is_refused(limit: int) -> None:
    with pytest.raises(ValueError):
        LineReader(max_frame_bytes=limit)


async def test_read_line_batches_reads_lines_longer_than_the_stream_readers_limit() -> None:
    stream = asyncio.StreamReader(limit=1024)
    line = b"y" * 200_000
    stream.feed_data(line + b"\nshort\npartial")
    stream.feed_eof()
    entries: list[LineEntry] = []
    async for batch in read_line_batches(stream, LineReader()):
        entries.extend(batch)
    assert entries == [line.decode(), "short", LineRejection("truncated-frame", 3, 7)]

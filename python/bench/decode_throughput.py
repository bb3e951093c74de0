"""Decode throughput of the transport's receive path against the `bytes.split` + `json.loads` floor.

Run: `.venv/bin/python bench/decode_throughput.py` (add `--quick` for a short run).

For each frame size (~120 B and ~1.2 KB notifications) it times, over the same bytes cut into
64 KiB chunks:

- floor-json:    `chunk.split(b"\\n")` + `json.loads` per line (pending tail carried by hand)
- floor-orjson:  the same with `orjson.loads`
- reader+loads:  `LineReader.feed` + `jsonlib.loads` per line (the pure part)
- transport:     a started `JsonRpcLineTransport` reading the chunks, every frame classified and
                 delivered to a no-op notification handler (no schema validation)
- transport+streamreader: the same through an `asyncio.StreamReader` fed chunk by chunk, as a pipe
                 feeds it (adds the stream's two copies of every byte)

and prints throughput and the ratios the acceptance criteria name.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from dsh_sdk import jsonlib
from dsh_sdk.line_reader import LineReader
from dsh_sdk.transport import JsonRpcLineTransport

CHUNK = 64 * 1024


def make_stream(frame_bytes: int, total_bytes: int) -> tuple[bytes, int]:
    template = {
        "jsonrpc": "2.0",
        "method": "session.event",
        "params": {"sessionId": "s-1", "event": {"type": "assistant/chunk", "seq": 0, "data": {}}},
    }
    base = len(json.dumps(template, separators=(",", ":")))
    lines = []
    seq = 0
    size = 0
    while size < total_bytes:
        text = "x" * max(0, frame_bytes - base - 20)
        frame = {
            "jsonrpc": "2.0",
            "method": "session.event",
            "params": {
                "sessionId": "s-1",
                "event": {"type": "assistant/chunk", "seq": seq, "data": {"text": text}},
            },
        }
        line = json.dumps(frame, separators=(",", ":")).encode() + b"\n"
        lines.append(line)
        size += len(line)
        seq += 1
    return b"".join(lines), len(lines)


def chunks_of(data: bytes) -> list[bytes]:
    return [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]


def floor(loads: Callable[[bytes], Any], chunks: list[bytes]) -> int:
    count = 0
    tail = b""
    for chunk in chunks:
        lines = (tail + chunk).split(b"\n") if tail else chunk.split(b"\n")
        tail = lines.pop()
        for line in lines:
            if line:
                loads(line)
                count += 1
    return count


def reader_loads(chunks: list[bytes]) -> int:
    reader = LineReader()
    loads = jsonlib.loads
    count = 0
    for chunk in chunks:
        for entry in reader.feed(chunk):
            if entry.__class__ is str and entry:
                loads(entry)
                count += 1
    return count


class NullOutput:
    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False


class ChunkSource:
    """Hands out prepared chunks: the transport's own cost, without a stream's copies."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = iter(chunks)

    async def read(self, n: int = -1) -> bytes:
        return next(self._chunks, b"")


def transport_run(chunks: list[bytes], through_stream_reader: bool) -> tuple[int, float]:
    """Runs a transport to the end of the input; returns the frames delivered and the time taken
    from `start()` to closed (the event loop's set-up is not counted)."""

    async def main() -> tuple[int, float]:
        source: Any
        if through_stream_reader:
            # As a pipe would: the stream buffers at most a few chunks ahead of the transport.
            source = asyncio.StreamReader(limit=CHUNK)
            feeder = iter(chunks)

            def feed() -> None:
                chunk = next(feeder, None)
                if chunk is None:
                    source.feed_eof()
                    return
                source.feed_data(chunk)
                loop.call_soon(feed)

            loop = asyncio.get_running_loop()
        else:
            source = ChunkSource(chunks)
        count = 0

        def on_event(params: Any, context: Any) -> None:
            nonlocal count
            count += 1

        transport = JsonRpcLineTransport(source, NullOutput())
        transport.on_notification("session.event", on_event)
        start = time.perf_counter()
        if through_stream_reader:
            feed()
        transport.start()
        await transport.wait_closed()
        return count, time.perf_counter() - start

    return asyncio.run(main())


def best_of(repeats: int, run: Callable[[], int | tuple[int, float]], expected: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        outcome = run()
        elapsed = time.perf_counter() - start
        if isinstance(outcome, tuple):
            outcome, elapsed = outcome
        assert outcome == expected, (outcome, expected)
        best = min(best, elapsed)
    return best


def main() -> None:
    quick = "--quick" in sys.argv
    total = (4 if quick else 16) * 1024 * 1024
    repeats = 3 if quick else 7
    orjson: Any
    try:
        import orjson
    except ImportError:
        orjson = None
    for frame_bytes in (120, 1200):
        data, frames = make_stream(frame_bytes, total)
        chunks = chunks_of(data)
        print(f"frames of ~{len(data) // frames} B, {frames} frames, {len(data) / 1e6:.1f} MB")
        results: dict[str, float] = {}
        results["floor-json"] = best_of(repeats, partial(floor, json.loads, chunks), frames)
        if orjson is not None:
            results["floor-orjson"] = best_of(repeats, partial(floor, orjson.loads, chunks), frames)
        for backend in jsonlib.available_backends():
            jsonlib.set_backend(backend)
            results[f"reader+loads[{backend}]"] = best_of(
                repeats, partial(reader_loads, chunks), frames
            )
            results[f"transport[{backend}]"] = best_of(
                repeats, partial(transport_run, chunks, False), frames
            )
            results[f"transport+streamreader[{backend}]"] = best_of(
                repeats, partial(transport_run, chunks, True), frames
            )
        jsonlib.set_backend(jsonlib.available_backends()[0])
        floor_json = results["floor-json"]
        for name, seconds in results.items():
            print(
                f"  {name:32s} {len(data) / seconds / 1e6:8.1f} MB/s "
                f"{seconds / frames * 1e9:7.0f} ns/frame  {floor_json / seconds:5.2f}x floor-json"
            )
        print(
            f"  -> transport[json] / floor-json = {floor_json / results['transport[json]']:.2f}"
            f" (want >= {0.7 if frame_bytes < 500 else 0.8})"
        )
        if orjson is not None:
            print(
                f"  -> transport[orjson] / floor-json = "
                f"{floor_json / results['transport[orjson]']:.2f} (want >= 1.5)"
            )


if __name__ == "__main__":
    main()

"""The frames the benchmark decodes, the same as `bench/src/frames.mjs`: small (~120 B
`session.status`), medium (~1.2 KB `session.event`) and one 8 or 16 MiB `session/prompt`."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any, Final

CHUNK_BYTES: Final = 64 * 1024

Frame = dict[str, Any]


def small_frame(i: int) -> Frame:
    return {
        "jsonrpc": "2.0",
        "method": "session.status",
        "params": {
            "sessionId": f"session-{i % 1000:06d}-root-agent",
            "status": "running" if i % 2 else "idle",
        },
    }


_TEXT: Final = "The quick brown fox jumps over the lazy dog; " * 20


def medium_frame(i: int) -> Frame:
    return {
        "jsonrpc": "2.0",
        "method": "session.event",
        "params": {
            "sessionId": f"session-{i % 1000}",
            "event": {
                "type": "assistant/message",
                "seq": i,
                "time": 1764489600000 + i,
                "data": {
                    "message": {
                        "id": f"m-{i}",
                        "role": "assistant",
                        "content": [
                            {"type": "text", "text": _TEXT},
                            {"type": "reasoning", "text": "short thought"},
                        ],
                    },
                    "usage": {"inputTokens": 120, "outputTokens": 230},
                },
            },
        },
    }


def prompt_frame(image_bytes: int, id_: int = 1) -> Frame:
    data = base64.b64encode(bytes([7]) * image_bytes).decode("ascii")
    return {
        "jsonrpc": "2.0",
        "id": id_,
        "method": "session/prompt",
        "params": {
            "sessionId": "s-1",
            "contentBlocks": [
                {"type": "text", "text": "see attached"},
                {"type": "image", "data": data, "mimeType": "image/png"},
            ],
        },
    }


def line_of(frame: Frame) -> bytes:
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


def ndjson_chunks(make_frame: Callable[[int], Frame], count: int) -> list[bytes]:
    """NDJSON bytes of `count` frames, cut into 64 KiB chunks."""
    return chunk(b"".join(line_of(make_frame(i)) for i in range(count)))


def chunk(data: bytes, size: int = CHUNK_BYTES) -> list[bytes]:
    return [data[at : at + size] for at in range(0, len(data), size)]

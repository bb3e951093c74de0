"""Same input, same frames: the Python and the TypeScript reference runtimes compared on stdin
written in one go (docs/reference-runtime.md: apart from `time` values, both produce the same
frames in the same order).

Frames of different sessions may interleave differently, so notifications are compared session by
session, in order. Responses are compared by id: when several requests arrive in one read, the
two runtimes may answer them in a different order (the TypeScript transport answers every handler
after a microtask, the Python one answers a schema refusal at once; see the report).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from typing import Any

import pytest

from dsh_sdk._gen.methods import Method
from runtime_support import CHUNK_DELAY, RUNTIME_COMMANDS, needs_ts, run_runtime

pytestmark = needs_ts

ROUTE = {"cwd": "/", "provider": "echo", "model": "echo-1"}


def request(id: int, method: str, params: object = None) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":")) + "\n"


def prompt(id: int, session_id: str, *blocks: dict[str, Any]) -> str:
    params = {"sessionId": session_id, "contentBlocks": list(blocks)}
    return request(id, Method.SESSION_PROMPT, params)


def text(words: str) -> dict[str, Any]:
    return {"type": "text", "text": words}


def initialize(**route: object) -> str:
    return request(1, Method.INITIALIZE, {**ROUTE, **route})


# Fresh per test run: the attachment store is shared and would otherwise already hold them.
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + os.urandom(24)).decode()
HELD = base64.b64encode(b"GIF89a" + os.urandom(24)).decode()

SCENARIOS: dict[str, str] = {
    "handshake-table": (
        prompt(1, "s", text("too early"))
        + request(2, Method.INITIALIZE, {**ROUTE, "provider": "x"})
        + request(3, Method.INITIALIZE, {**ROUTE, "model": "x"})
        + request(4, Method.INITIALIZE, {**ROUTE, "reasoningEffort": "x"})
        + request(5, Method.INITIALIZE, {**ROUTE, "reasoningEffort": "high", "maxTokens": 3})
        + request(6, Method.INITIALIZE, ROUTE)
        + request(7, "session/cancel", {"sessionId": "s"})
        + request(8, Method.SHUTDOWN)
    ),
    "echo-prompt": initialize() + prompt(2, "s", text("Hello, reference runtime! 👋 How?")),
    "unicode-pieces": initialize() + prompt(2, "u", text("😀" * 20 + "\ud800".join("ab"))),
    "blocks": initialize()
    + prompt(
        2,
        "j",
        text("one"),
        {"type": "reasoning", "text": "hidden"},
        {"type": "future-block", "payload": {"kept": True}},
        text("two"),
    ),
    "max-tokens": initialize(maxTokens=2)
    + prompt(2, "m", text("a long prompt that makes a reply of more than two pieces")),
    "turns-of-a-session": initialize()
    + prompt(2, "q", text("one"))
    + prompt(3, "q", text("two"))
    + prompt(4, "q", text("/delegate three")),
    "delegation": initialize() + prompt(2, "p", text("/delegate /delegate count to three")),
    "delegation-cut-by-max-tokens": initialize(maxTokens=1)
    + prompt(2, "p", text("/delegate a task long enough to be cut")),
    "images": initialize()
    + prompt(
        2,
        "i",
        text("look"),
        {"type": "image", "data": PNG, "mimeType": "image/png", "extra": 1},
    )
    + prompt(
        3,
        "j",
        {"type": "image", "attachment": {"attachmentId": "sha256-00", "mediaType": "image/png"}},
        {"type": "image", "attachment": {"attachmentId": "../x", "mediaType": "image/png"}},
    )
    + prompt(4, "k", {"type": "image", "data": HELD, "mimeType": "image/gif"}),
    "invalid-params": initialize()
    + prompt(2, "", text("x"))
    + request(3, Method.SESSION_PROMPT, {"sessionId": "v", "contentBlocks": []})
    + prompt(4, "v", {"type": "image", "data": "AAA", "mimeType": "image/bmp"})
    + prompt(5, "v", text("fine")),
}


def by_session(stdout: str) -> dict[str, Any]:
    """Notifications grouped by the session they concern, in order, and responses by id (under
    `-`); `time` zeroed."""
    groups: dict[str, Any] = {"-": {}}
    for line in stdout.splitlines():
        frame = json.loads(re.sub(r'"time":\d+', '"time":0', line))
        if "id" in frame:
            groups["-"][json.dumps(frame["id"])] = frame
            continue
        params = frame["params"]
        key = params.get("sessionId", params.get("parentSessionId"))
        groups.setdefault(key, []).append(frame)
    return groups


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_both_runtimes_write_the_same_frames(name: str) -> None:
    stdin = SCENARIOS[name]
    py_code, py_out, _ = await run_runtime(stdin, command=RUNTIME_COMMANDS["py"])
    ts_code, ts_out, _ = await run_runtime(stdin, command=RUNTIME_COMMANDS["ts"])
    assert py_code == ts_code == 0
    assert len(py_out.splitlines()) == len(ts_out.splitlines())
    assert by_session(py_out) == by_session(ts_out)


async def test_a_durable_reference_written_by_one_runtime_is_held_by_the_other() -> None:
    data = base64.b64decode(PNG)
    stdin = initialize() + prompt(2, "w", {"type": "image", "data": PNG, "mimeType": "image/png"})
    assert (await run_runtime(stdin, command=RUNTIME_COMMANDS["py"]))[0] == 0
    reference = {
        "type": "image",
        "attachment": {
            "attachmentId": f"sha256-{hashlib.sha256(data).hexdigest()}",
            "mediaType": "image/png",
        },
    }
    code, stdout, _ = await run_runtime(
        initialize() + prompt(2, "r", reference), command=RUNTIME_COMMANDS["ts"]
    )
    assert code == 0
    assert json.loads(stdout.splitlines()[1]) == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"messageId": "r/m1"},
    }


async def test_both_runtimes_pace_chunks_without_changing_frames() -> None:
    stdin = initialize() + prompt(2, "c", text("paced " * 10))
    env = {CHUNK_DELAY: "5"}
    _, py_out, _ = await run_runtime(stdin, command=RUNTIME_COMMANDS["py"], env=env)
    _, ts_out, _ = await run_runtime(stdin, command=RUNTIME_COMMANDS["ts"], env=env)
    assert by_session(py_out) == by_session(ts_out)

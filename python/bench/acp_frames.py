"""The ACP row of the Python bench: a stream of ACP `session/update` and `session/prompt` frames
decoded and validated with the generated validators of `dsh_sdk.acp`, against the official ACP
Python SDK's pydantic models (`agent-client-protocol`, a dev requirement only), beside the
`json.loads` floor of the same run. The frames are those of bench/src/acp.mjs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from acp import schema

from dsh_sdk.acp import (
    PromptRequest,
    SessionNotification,
    decode,
    validate_prompt_request,
    validate_session_notification,
)
from dsh_sdk.acp._gen import validators
from dsh_sdk.validation_runtime import run

Frame = dict[str, Any]


def acp_lines(count: int) -> list[bytes]:
    """A turn's worth of frames: a prompt every 50, a tool call every 10, else text chunks."""
    frames: list[Frame] = []
    for i in range(count):
        if i % 50 == 0:
            prompt = [
                {"type": "text", "text": f"Explain step {i} of the plan, briefly."},
                {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
                {"type": "resource_link", "name": "main.ts", "uri": "file:///w/main.ts"},
            ]
            params: Frame = {"sessionId": "acp-1", "prompt": prompt}
            frames.append({"jsonrpc": "2.0", "id": i, "method": "session/prompt", "params": params})
            continue
        if i % 10 == 0:
            update: Frame = {
                "sessionUpdate": "tool_call",
                "toolCallId": f"call-{i}",
                "title": "delegate",
                "kind": "other",
                "status": "in_progress",
                "rawInput": {"task": "count the files"},
            }
        else:
            kind = "agent_thought_chunk" if i % 3 == 0 else "agent_message_chunk"
            text = "The quick brown fox jumps over the lazy dog. "
            update = {"sessionUpdate": kind, "content": {"type": "text", "text": text}}
        params = {"sessionId": "acp-1", "update": update}
        frames.append({"jsonrpc": "2.0", "method": "session/update", "params": params})
    return [json.dumps(frame, separators=(",", ":")).encode() + b"\n" for frame in frames]


def decode_with(lines: list[bytes], check: Callable[[Frame], bool] | None) -> int:
    valid = 0
    for line in lines:
        frame = json.loads(line[:-1])
        if check is None or check(frame):
            valid += 1
    if check is not None and valid != len(lines):
        raise AssertionError(f"only {valid} of {len(lines)} frames valid")
    return len(lines)


def ours(frame: Frame) -> bool:
    if frame["method"] == "session/prompt":
        return not validate_prompt_request(frame["params"])
    return not validate_session_notification(frame["params"])


def ours_to_dataclasses(frame: Frame) -> bool:
    """What a typed peer hands its handler: the params validated, then decoded to dataclasses,
    as pydantic's `model_validate` gives models."""
    params = frame["params"]
    if frame["method"] == "session/prompt":
        if validate_prompt_request(params):
            return False
        decode(PromptRequest, params)
        return True
    if validate_session_notification(params):
        return False
    decode(SessionNotification, params)
    return True


def _full_check(validate: Callable[[object], list[Any]]) -> Callable[[object], list[Any]]:
    # The full check a public validator falls back to (`run` of its `_check_...`), for the row
    # that shows what the fast path (python.fastValidators) saves.
    [name] = [n for n in validate.__code__.co_names if n.startswith("_check")]
    check = getattr(validators, name)
    return lambda value: run(check, value)


_FULL_PROMPT = _full_check(validate_prompt_request)
_FULL_NOTIFICATION = _full_check(validate_session_notification)


def ours_full_check(frame: Frame) -> bool:
    if frame["method"] == "session/prompt":
        return not _FULL_PROMPT(frame["params"])
    return not _FULL_NOTIFICATION(frame["params"])


def pydantic_sdk(frame: Frame) -> bool:
    model = (
        schema.PromptRequest if frame["method"] == "session/prompt" else schema.SessionNotification
    )
    model.model_validate(frame["params"])
    return True

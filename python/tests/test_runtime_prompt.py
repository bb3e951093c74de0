"""A prompt's turn on the Python reference runtime (docs/reference-runtime.md, "A prompt")."""

from __future__ import annotations

import dataclasses
import time

import pytest

from conftest import Runtimes
from dsh_sdk._gen.constants import ErrorCode
from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import (
    AssistantChunkEvent,
    AssistantMessageEvent,
    ReasoningBlock,
    SdkPromptContentBlock,
    SessionPromptParams,
    TextBlock,
    TurnEndEvent,
    TurnStartEvent,
    UnknownContentBlock,
    UserMessageEvent,
)
from dsh_sdk.codec import encode
from dsh_sdk.errors import JsonRpcResponseError
from runtime_support import ECHO_ROUTE, TURN_FRAMES, without_time


def prompt(session_id: str, *blocks: SdkPromptContentBlock) -> SessionPromptParams:
    return SessionPromptParams(session_id=session_id, content_blocks=list(blocks))


def text(value: str) -> TextBlock:
    return TextBlock(type="text", text=value)


async def test_streams_the_frames_of_the_spec_in_order_after_the_response(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    words = "Hello, reference runtime! \N{WAVING HAND SIGN} How are you?"
    before = time.time_ns() // 1_000_000
    receipt = await runtime.peer.session_prompt(prompt("s1", text(words)))
    # The response came first: nothing of the turn had arrived when it was answered.
    assert receipt.message_id == "s1/m1"
    await runtime.idle("s1")
    assert runtime.frames_of("s1") == TURN_FRAMES
    events = runtime.events_of("s1")
    after = time.time_ns() // 1_000_000
    assert all(before <= event.time <= after for event in events)
    user = {
        "id": "s1/m1",
        "role": "user",
        "content": [{"type": "text", "text": words}],
        "source": {"kind": "user"},
    }
    reply = f"Echo: {words}"
    assert [without_time(event) for event in events] == [
        {
            "type": "agent/inbox/spliced",
            "seq": 0,
            "data": {"target": "next-turn", "start": 0, "inserted": [user]},
        },
        {"type": "turn/start", "seq": 1, "data": {"turn": 0}},
        {"type": "user/message", "seq": 2, "data": user},
        {"type": "step/start", "seq": 3, "data": {"turn": 0, "step": 0}},
        *(
            {
                "type": "assistant/chunk",
                "seq": 4 + index,
                "data": {
                    "turn": 0,
                    "step": 0,
                    "delta": {"type": "text", "text": reply[start : start + 16]},
                },
            }
            for index, start in enumerate([0, 16, 32])
        ),
        {
            "type": "assistant/message",
            "seq": 7,
            "data": {
                "message": {
                    "id": "s1/m1/reply",
                    "role": "assistant",
                    "content": [{"type": "text", "text": reply}],
                },
                "usage": {"inputTokens": len(words), "outputTokens": 3},
            },
        },
        {"type": "step/end", "seq": 8, "data": {"turn": 0, "step": 0}},
        {"type": "turn/end", "seq": 9, "data": {"turn": 0, "reason": {"kind": "completed"}}},
    ]


async def test_cuts_the_reply_every_16_code_points_not_utf16_units(runtimes: Runtimes) -> None:
    runtime = await runtimes.initialized()
    words = "\N{GRINNING FACE}" * 20
    await runtime.peer.session_prompt(prompt("e", text(words)))
    await runtime.idle("e")
    deltas = [
        event.data.delta
        for event in runtime.events_of("e")
        if isinstance(event, AssistantChunkEvent)
    ]
    pieces = [delta.text for delta in deltas if isinstance(delta, TextBlock)]
    assert [len(piece) for piece in pieces] == [16, 10]
    assert "".join(pieces) == f"Echo: {words}"


async def test_joins_text_blocks_with_newlines_and_keeps_unknown_blocks_whole(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    future = UnknownContentBlock(type="future-block", extra={"payload": {"kept": True}})
    blocks: list[SdkPromptContentBlock] = [
        text("one"),
        ReasoningBlock(type="reasoning", text="hidden"),
        future,
        text("two"),
    ]
    await runtime.peer.session_prompt(prompt("j", *blocks))
    await runtime.idle("j")
    events = runtime.events_of("j")
    message = next(event for event in events if isinstance(event, AssistantMessageEvent))
    assert encode(message.data) == {
        "message": {
            "id": "j/m1/reply",
            "role": "assistant",
            "content": [{"type": "text", "text": "Echo: one\ntwo"}],
        },
        "usage": {"inputTokens": len("one\ntwo"), "outputTokens": 1},
    }
    user = next(event for event in events if isinstance(event, UserMessageEvent))
    assert user.data.content == blocks


async def test_counts_turns_seq_and_message_ids_across_the_prompts_of_a_session(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    first = await runtime.peer.session_prompt(prompt("s", text("first")))
    await runtime.idle("s")
    second = await runtime.peer.session_prompt(prompt("s", text("second")))
    await runtime.idle("s", 2)
    assert [first.message_id, second.message_id] == ["s/m1", "s/m2"]
    events = runtime.events_of("s")
    assert [event.seq for event in events] == list(range(len(events)))
    starts = [event.data.turn for event in events if isinstance(event, TurnStartEvent)]
    assert starts == [0, 1]


async def test_stops_at_max_tokens_pieces_and_ends_the_turn_with_max_tokens(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.start()
    await runtime.peer.initialize(dataclasses.replace(ECHO_ROUTE, max_tokens=2))
    words = "a long prompt that makes a reply of more than two pieces"
    await runtime.peer.session_prompt(prompt("m", text(words)))
    await runtime.idle("m")
    events = runtime.events_of("m")
    assert len([e for e in events if isinstance(e, AssistantChunkEvent)]) == 2
    message = next(event for event in events if isinstance(event, AssistantMessageEvent))
    assert encode(message.data) == {
        "message": {
            "id": "m/m1/reply",
            "role": "assistant",
            "content": [{"type": "text", "text": f"Echo: {words}"[:32]}],
        },
        "usage": {"inputTokens": len(words), "outputTokens": 2},
    }
    end = next(event for event in events if isinstance(event, TurnEndEvent))
    assert end.data.reason.kind == "max-tokens"


async def test_refuses_params_that_break_the_schema_and_enqueues_nothing(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    with pytest.raises(JsonRpcResponseError) as caught:
        await runtime.transport.request(
            Method.SESSION_PROMPT, {"sessionId": "", "contentBlocks": []}
        )
    assert caught.value.code == ErrorCode.INVALID_PARAMS
    pointers = [violation["pointer"] for violation in caught.value.data]
    assert pointers == ["/sessionId", "/contentBlocks"]
    assert await runtime.shutdown() == 0
    assert runtime.notifications == []

"""Sessions of the Python reference runtime run at the same time; each runs its turns one at a
time, in prompt order (docs/reference-runtime.md, "Concurrency")."""

from __future__ import annotations

import asyncio

from conftest import Runtimes
from dsh_sdk._gen.models import (
    AgentInboxSplicedEvent,
    AssistantMessageEvent,
    SessionEventNotification,
    SessionPromptParams,
    SessionStatusNotification,
    TextBlock,
    TurnStartEvent,
)
from dsh_sdk.client import text_of
from dsh_sdk.codec import encode
from runtime_support import CHUNK_DELAY, TURN_FRAMES

PACED = {CHUNK_DELAY: "15"}
"""Paced chunks make turns long enough to overlap."""


def prompt(session_id: str, words: str) -> SessionPromptParams:
    return SessionPromptParams(
        session_id=session_id, content_blocks=[TextBlock(type="text", text=words)]
    )


async def test_runs_two_sessions_at_the_same_time_each_in_order(runtimes: Runtimes) -> None:
    runtime = await runtimes.initialized(env=PACED)
    words = "a prompt of about forty characters long"
    receipts = await asyncio.gather(
        runtime.peer.session_prompt(prompt("a", words)),
        runtime.peer.session_prompt(prompt("b", words)),
    )
    assert [receipt.message_id for receipt in receipts] == ["a/m1", "b/m1"]
    await runtime.idle("a")
    await runtime.idle("b")
    for session_id in ("a", "b"):
        assert runtime.frames_of(session_id) == TURN_FRAMES
        events = runtime.events_of(session_id)
        assert [event.seq for event in events] == list(range(len(events)))
    sessions = [
        n.params.session_id
        for n in runtime.notifications
        if isinstance(n.params, SessionEventNotification | SessionStatusNotification)
    ]
    # They overlapped: b's turn started before a's ended.
    assert sessions.index("b") < len(sessions) - 1 - sessions[::-1].index("a")


async def test_queues_the_prompts_of_a_busy_session_and_runs_them_in_order(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized(env=PACED)
    texts = ["one", "two", "three"]
    receipts = await asyncio.gather(
        *(runtime.peer.session_prompt(prompt("q", words)) for words in texts)
    )
    assert [receipt.message_id for receipt in receipts] == ["q/m1", "q/m2", "q/m3"]
    await runtime.idle("q", 3)
    one_turn = [frame for frame in TURN_FRAMES if not frame.endswith("assistant/chunk")]
    frames = [frame for frame in runtime.frames_of("q") if not frame.endswith("assistant/chunk")]
    assert frames == one_turn * 3
    events = runtime.events_of("q")
    assert [event.seq for event in events] == list(range(len(events)))
    spliced = [event for event in events if isinstance(event, AgentInboxSplicedEvent)]
    assert [[encode(m) for m in event.data.inserted] for event in spliced] == [
        [
            {
                "id": receipt.message_id,
                "role": "user",
                "content": [{"type": "text", "text": words}],
                "source": {"kind": "user"},
            }
        ]
        for receipt, words in zip(receipts, texts, strict=True)
    ]
    starts = [event.data.turn for event in events if isinstance(event, TurnStartEvent)]
    assert starts == [0, 1, 2]
    replies = [
        text_of(event.data.message.content)
        for event in events
        if isinstance(event, AssistantMessageEvent)
    ]
    assert replies == [f"Echo: {words}" for words in texts]

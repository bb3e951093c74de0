"""Running one turn of a session: the frames of docs/reference-runtime.md, "A prompt", in order."""

from __future__ import annotations

import asyncio
from typing import Final

from dsh_sdk._gen.models import (
    AgentInboxSplicedEvent,
    AssistantChunk,
    AssistantChunkEvent,
    AssistantMessage,
    AssistantMessageEvent,
    AssistantReply,
    InboxSplice,
    StepEndEvent,
    StepRef,
    StepStartEvent,
    TextBlock,
    TurnEnd,
    TurnEndEvent,
    TurnEndReason,
    TurnRef,
    TurnStartEvent,
    UserMessageEvent,
)
from dsh_sdk.runtime.adapters.model_adapter import ModelReply
from dsh_sdk.runtime.delegation import DelegationRequest, run_delegation
from dsh_sdk.runtime.session import EventBuilder, Session
from dsh_sdk.runtime.turn_context import TurnContext, TurnInput

__all__ = ["TurnContext", "TurnInput", "run_turn"]

STEP: Final = 0
"""The only step of an echo turn."""


async def run_turn(session: Session, input: TurnInput, context: TurnContext) -> ModelReply:
    """Runs a turn on `session`: status `running`, the inbox splice (the prompt's receipt), the
    turn and step frames around the streamed reply (and a child agent, when the model delegates),
    then status `idle`. Returns the reply once every frame was handed to the output."""
    route = context.route
    turn = session.next_turn_index()
    message = input.message
    await session.set_status("running")
    splice = InboxSplice(target="next-turn", start=0, inserted=[message])
    await session.emit(
        lambda seq, time: AgentInboxSplicedEvent(
            type="agent/inbox/spliced", seq=seq, time=time, data=splice
        )
    )
    await session.emit(
        lambda seq, time: TurnStartEvent(
            type="turn/start", seq=seq, time=time, data=TurnRef(turn=turn)
        )
    )
    await session.emit(
        lambda seq, time: UserMessageEvent(type="user/message", seq=seq, time=time, data=message)
    )
    step = StepRef(turn=turn, step=STEP)
    await session.emit(
        lambda seq, time: StepStartEvent(type="step/start", seq=seq, time=time, data=step)
    )
    task = route.adapter.choose_delegation(input.prompt)
    delegation = (
        None
        if task is None
        else await run_delegation(
            DelegationRequest(parent=session, turn=turn, step=STEP, task=task), context, run_turn
        )
    )
    reply = route.adapter.generate_reply(input.prompt, route, delegation)
    await _stream_reply(session, turn, reply, f"{message.id}/reply", context.chunk_delay)
    await session.emit(
        lambda seq, time: StepEndEvent(type="step/end", seq=seq, time=time, data=step)
    )
    end = TurnEnd(turn=turn, reason=TurnEndReason(kind=reply.finish))
    await session.emit(
        lambda seq, time: TurnEndEvent(type="turn/end", seq=seq, time=time, data=end)
    )
    await session.set_status("idle")
    return reply


async def _stream_reply(
    session: Session, turn: int, reply: ModelReply, reply_id: str, chunk_delay: float
) -> None:
    """The `assistant/chunk` of every piece, then the whole `assistant/message`."""
    for piece in reply.pieces:
        if chunk_delay > 0:
            await asyncio.sleep(chunk_delay)
        chunk = AssistantChunk(turn=turn, step=STEP, delta=TextBlock(type="text", text=piece))
        await session.emit(_chunk_event(chunk))
    assistant = AssistantMessage(
        id=reply_id, role="assistant", content=[TextBlock(type="text", text=reply.text)]
    )
    answer = AssistantReply(message=assistant, usage=reply.usage)
    await session.emit(
        lambda seq, time: AssistantMessageEvent(
            type="assistant/message", seq=seq, time=time, data=answer
        )
    )


def _chunk_event(chunk: AssistantChunk) -> EventBuilder:
    return lambda seq, time: AssistantChunkEvent(
        type="assistant/chunk", seq=seq, time=time, data=chunk
    )

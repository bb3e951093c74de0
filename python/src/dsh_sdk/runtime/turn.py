"""Running one turn of a session: the frames of docs/reference-runtime.md, "A prompt", in order."""

from __future__ import annotations

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
    TurnAbortReason,
    TurnEnd,
    TurnEndEvent,
    TurnEndReason,
    TurnRef,
    TurnStartEvent,
    Usage,
    UserMessageEvent,
)
from dsh_sdk.runtime.adapters.model_adapter import ModelReply
from dsh_sdk.runtime.delegation import DelegationRequest, run_delegation
from dsh_sdk.runtime.session import EventBuilder, Session
from dsh_sdk.runtime.turn_context import TurnContext, TurnInput
from dsh_sdk.runtime.turn_control import TurnControl, TurnInterruptedError

__all__ = ["TurnContext", "TurnInput", "run_turn"]

STEP: Final = 0
"""The only step of an echo turn."""


async def run_turn(
    session: Session, input: TurnInput, context: TurnContext, control: TurnControl
) -> ModelReply:
    """Runs a turn on `session`: status `running`, the inbox splice (the prompt's receipt), the
    turn and step frames around the streamed reply (and a child agent, when the model delegates),
    then status `idle`. Returns the reply once every frame was handed to the output.

    Interrupted (`control`), it writes nothing more of its reply: an open step is closed, the
    turn ends `aborted` with the interrupt's nested reason (`user`, `disposed` or `parent`), and
    `idle` follows only when no prompt is queued behind it. It then returns the text streamed so
    far with the finish `aborted` (what a parent reports of its child)."""
    route = context.route
    session.attach(control)
    turn = session.next_turn_index()
    message = input.message
    # The opening frames are written even when the turn is interrupted at once: they hold the
    # prompt's receipt, which a client waits for.
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
    streamed: list[str] = []
    is_step_open = False
    try:
        control.raise_if_interrupted()
        await session.emit(
            lambda seq, time: StepStartEvent(type="step/start", seq=seq, time=time, data=step)
        )
        is_step_open = True
        task = route.adapter.choose_delegation(input.prompt)
        delegation = (
            None
            if task is None
            else await run_delegation(
                DelegationRequest(parent=session, turn=turn, step=STEP, task=task),
                context,
                control,
                run_turn,
            )
        )
        control.raise_if_interrupted()
        reply = route.adapter.generate_reply(input.prompt, route, delegation)
        await _stream_reply(
            session, turn, reply, f"{message.id}/reply", context.chunk_delay, control, streamed
        )
        await session.emit(
            lambda seq, time: StepEndEvent(type="step/end", seq=seq, time=time, data=step)
        )
        await _end_turn(session, turn, reply.finish)
        await session.set_status("idle")
        session.detach(control)
        return reply
    except TurnInterruptedError as interrupted:
        abort_kind = interrupted.abort_kind
    if is_step_open:
        await session.emit(
            lambda seq, time: StepEndEvent(type="step/end", seq=seq, time=time, data=step)
        )
    await _end_turn(session, turn, "aborted", TurnAbortReason(kind=abort_kind))
    if not session.has_queued_turns:
        await session.set_status("idle")
    session.detach(control)
    text = "".join(streamed)
    usage = Usage(extra={"inputTokens": 0, "outputTokens": len(streamed)})
    return ModelReply(pieces=tuple(streamed), text=text, usage=usage, finish="aborted")


async def _end_turn(
    session: Session, turn: int, kind: str, abort: TurnAbortReason | None = None
) -> None:
    end = TurnEnd(turn=turn, reason=TurnEndReason(kind=kind, reason=abort))
    await session.emit(
        lambda seq, time: TurnEndEvent(type="turn/end", seq=seq, time=time, data=end)
    )


async def _stream_reply(
    session: Session,
    turn: int,
    reply: ModelReply,
    reply_id: str,
    chunk_delay: float,
    control: TurnControl,
    streamed: list[str],
) -> None:
    """The `assistant/chunk` of every piece, then the whole `assistant/message`. Each frame is
    written only if the turn was not interrupted (checked with no `await` before the write), so
    no chunk follows the answer to `session/interrupt`; `streamed` collects the pieces sent."""
    for piece in reply.pieces:
        if chunk_delay > 0:
            await control.pause(chunk_delay)
        control.raise_if_interrupted()
        streamed.append(piece)
        chunk = AssistantChunk(turn=turn, step=STEP, delta=TextBlock(type="text", text=piece))
        await session.emit(_chunk_event(chunk))
    assistant = AssistantMessage(
        id=reply_id, role="assistant", content=[TextBlock(type="text", text=reply.text)]
    )
    answer = AssistantReply(message=assistant, usage=reply.usage)
    control.raise_if_interrupted()
    await session.emit(
        lambda seq, time: AssistantMessageEvent(
            type="assistant/message", seq=seq, time=time, data=answer
        )
    )


def _chunk_event(chunk: AssistantChunk) -> EventBuilder:
    return lambda seq, time: AssistantChunkEvent(
        type="assistant/chunk", seq=seq, time=time, data=chunk
    )

"""A parent turn handing a task to a child agent (docs/reference-runtime.md, "Delegation")."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from dsh_sdk import jsonlib
from dsh_sdk._gen.models import (
    ContentBlock,
    MessageSource,
    SdkRunStatus,
    SubagentFinishedNotification,
    SubagentStartedNotification,
    TextBlock,
    ToolCall,
    ToolCallEvent,
    ToolResult,
    ToolResultEvent,
    UserMessage,
)
from dsh_sdk.runtime.adapters.model_adapter import DelegationOutcome, ModelPrompt, ModelReply
from dsh_sdk.runtime.session import Session
from dsh_sdk.runtime.turn_context import TurnContext, TurnInput
from dsh_sdk.runtime.turn_control import TurnControl

__all__ = ["DelegationRequest", "TurnRunner", "run_delegation", "run_status_of"]

DELEGATE_TOOL: Final = "delegate"
"""The tool the echo model calls to delegate."""
TASK_ARGUMENT: Final = "task"
"""The delegate tool's one argument (the tool's own schema, not the protocol's)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class DelegationRequest:
    """Where in the parent's turn the delegation happens, and what it hands over."""

    parent: Session
    turn: int
    step: int
    task: str


TurnRunner = Callable[[Session, TurnInput, TurnContext, TurnControl], Awaitable[ModelReply]]
"""Runs a whole turn on a session (passed in: turns and delegations call each other)."""


async def run_delegation(
    request: DelegationRequest,
    context: TurnContext,
    parent_control: TurnControl,
    run_turn: TurnRunner,
) -> DelegationOutcome:
    """Streams, on the parent session: `tool/call`, `subagent.started`, the child's whole turn on
    its own session (`<parent>/child<k>`), `subagent.finished` and `tool/result`. The child's
    prompt is the task, with `source.kind` `parent`. Returns the child's reply.

    The child's turn is interrupted with the parent's (`parent_control`), or alone when its own
    session is interrupted: it then ends `aborted`, and `subagent.finished` reports `aborted` with
    the text it streamed so far. A parent that was interrupted writes no `tool/result`."""
    parent, task = request.parent, request.task
    index = parent.next_child_index()
    tool_call_id = f"{parent.id}/call{index}"
    child_session_id = f"{parent.id}/child{index}"
    call = ToolCall(
        turn=request.turn,
        step=request.step,
        id=tool_call_id,
        name=DELEGATE_TOOL,
        arguments=jsonlib.dumps({TASK_ARGUMENT: task}),
    )
    await parent.emit(
        lambda seq, time: ToolCallEvent(type="tool/call", seq=seq, time=time, data=call)
    )
    await context.notifier.notify_subagent_started(
        SubagentStartedNotification(parent_session_id=parent.id, child_session_id=child_session_id)
    )
    child = context.sessions.open(child_session_id)
    parent.add_child(child_session_id)
    message = UserMessage(
        id=child.next_message_id(),
        role="user",
        content=[TextBlock(type="text", text=task)],
        source=MessageSource(kind="parent"),
    )
    prompt = ModelPrompt(texts=(task,), images=())
    child_control = TurnControl(parent_control)
    reply = await run_turn(child, TurnInput(message=message, prompt=prompt), context, child_control)
    is_aborted = reply.finish == "aborted"
    # An aborted child that streamed nothing has no last message (absent is not empty).
    last: list[ContentBlock] | None = (
        None if is_aborted and reply.text == "" else [TextBlock(type="text", text=reply.text)]
    )
    await context.notifier.notify_subagent_finished(
        SubagentFinishedNotification(
            provider=context.route.provider,
            agent_id=child_session_id,
            parent_session_id=parent.id,
            child_session_id=child_session_id,
            status=run_status_of(reply.finish, context.max_tokens_is_success),
            stop_reason=reply.finish,
            last_assistant_message=last,
        )
    )
    parent_control.raise_if_interrupted()
    content: list[ContentBlock] = [TextBlock(type="text", text=reply.text)]
    result = ToolResult(tool_call_id=tool_call_id, content=content, is_error=is_aborted)
    await parent.emit(
        lambda seq, time: ToolResultEvent(type="tool/result", seq=seq, time=time, data=result)
    )
    return DelegationOutcome(child_session_id=child_session_id, text=reply.text)


def run_status_of(stop_reason: str, max_tokens_is_success: bool) -> SdkRunStatus:
    """`ok` only for `completed` (and `max-tokens` when the runtime counts it as success)."""
    if stop_reason == "completed":
        return "ok"
    return "ok" if stop_reason == "max-tokens" and max_tokens_is_success else "error"

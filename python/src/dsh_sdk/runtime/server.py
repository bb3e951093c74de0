"""The request handlers of the runtime and its handshake state machine:
not-initialized → (initialize) → ready → (shutdown) → shutting-down."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from dsh_sdk._gen.constants import LATEST_PROTOCOL_VERSION, SERVER_NAME, WireMessage
from dsh_sdk._gen.models import (
    InitializeParams,
    InitializeResult,
    MessageSource,
    ServerInfo,
    SessionCloseParams,
    SessionCloseResult,
    SessionInterruptParams,
    SessionInterruptResult,
    SessionPromptParams,
    SessionPromptResult,
    ShutdownResult,
    UserMessage,
)
from dsh_sdk.capabilities import capabilities_at
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.runtime.adapters.model_adapter import ModelAdapter
from dsh_sdk.runtime.adapters.route_resolver import resolve_route
from dsh_sdk.runtime.attachment_store import AttachmentStore
from dsh_sdk.runtime.notifier import Notifier
from dsh_sdk.runtime.prompt_admission import admit_prompt
from dsh_sdk.runtime.protocol_errors import invalid_request_error, not_initialized_error
from dsh_sdk.runtime.session import SessionRegistry
from dsh_sdk.runtime.turn import run_turn
from dsh_sdk.runtime.turn_context import TurnContext, TurnInput
from dsh_sdk.runtime.turn_control import TurnControl
from dsh_sdk.runtime.version import RUNTIME_VERSION

__all__ = ["RuntimeServer", "RuntimeServerOptions", "ServerState"]

ServerState = Literal["not-initialized", "ready", "shutting-down"]
"""Where the handshake stands."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RuntimeServerOptions:
    """What the server works with."""

    adapters: Sequence[ModelAdapter]
    store: AttachmentStore
    sessions: SessionRegistry
    notifier: Notifier
    chunk_delay: float
    """See `TurnContext.chunk_delay`."""
    max_tokens_is_success: bool
    """See `TurnContext.max_tokens_is_success`."""
    on_shutdown: Callable[[], None]
    """Called once `shutdown` has been accepted: the runtime flushes its output and exits."""


T = TypeVar("T")


class RuntimeServer:
    """Serves `initialize`, `session/prompt`, `session/interrupt`, `session/close` and `shutdown`
    (it implements the generated
    `HarnessSdkRequestHandlers`). Params arrive checked against the schema and decoded by the
    generated bindings; this class adds the route, attachment and state checks.

    Every handler is a coroutine that does not suspend before it decides, and the transport runs
    them in arrival order, so the state machine sees requests in wire order and their answers
    leave in that order (a prompt's answer waits only for the admission of earlier prompts).
    """

    def __init__(self, options: RuntimeServerOptions) -> None:
        self._options = options
        self._state: ServerState = "not-initialized"
        self._context: TurnContext | None = None
        self._admissions: asyncio.Future[None] | None = None
        """The admission of the latest prompt: prompts are admitted one at a time in arrival
        order, so ids and queues follow the wire even when storing an image is slow."""
        self._stopping: asyncio.Task[None] | None = None

    @property
    def state(self) -> ServerState:
        """Where the handshake stands."""
        return self._state

    async def initialize(
        self, params: InitializeParams, context: RequestContext
    ) -> InitializeResult:
        if self._state == "shutting-down":
            raise invalid_request_error(WireMessage.SHUTTING_DOWN)
        if self._state == "ready":
            raise invalid_request_error(WireMessage.ALREADY_INITIALIZED)
        route = resolve_route(self._options.adapters, params)
        options = self._options
        self._context = TurnContext(
            route=route,
            notifier=options.notifier,
            sessions=options.sessions,
            chunk_delay=options.chunk_delay,
            max_tokens_is_success=options.max_tokens_is_success,
        )
        self._state = "ready"
        server_info = ServerInfo(name=SERVER_NAME, version=RUNTIME_VERSION)
        if params.protocol_version is None:
            return InitializeResult(server_info=server_info)  # exactly the version 1 result
        version = min(params.protocol_version, LATEST_PROTOCOL_VERSION)
        if version < 2:
            return InitializeResult(server_info=server_info, protocol_version=version)
        return InitializeResult(
            server_info=server_info,
            protocol_version=version,
            capabilities=capabilities_at(version),
        )

    async def session_prompt(
        self, params: SessionPromptParams, context: RequestContext
    ) -> SessionPromptResult:
        turn_context = self._require_ready()
        return await self._in_order(lambda: self._accept(params, turn_context))

    async def session_interrupt(
        self, params: SessionInterruptParams, context: RequestContext
    ) -> SessionInterruptResult:
        """Stops the session's turn in progress once the prompts received before this request
        were admitted (wire order). The turn stops streaming before the answer is written; its
        closing frames follow."""
        self._require_ready()

        async def interrupt() -> SessionInterruptResult:
            session = self._options.sessions.find(params.session_id)
            if session is None:
                return SessionInterruptResult(found=False, was_running=False)
            return SessionInterruptResult(found=True, was_running=session.interrupt("user"))

        return await self._in_order(interrupt)

    async def session_close(
        self, params: SessionCloseParams, context: RequestContext
    ) -> SessionCloseResult:
        """Disposes the session (and its child sessions) in wire order: answered once it stopped,
        so nothing of it follows the answer, and a prompt received after it starts a new
        session."""
        self._require_ready()

        async def close() -> SessionCloseResult:
            return SessionCloseResult(found=await self._options.sessions.close(params.session_id))

        return await self._in_order(close)

    def _require_ready(self) -> TurnContext:
        """The state checks of every request but the handshake's: `-32600` after shutdown,
        `-32002` before initialize."""
        if self._state == "shutting-down":
            raise invalid_request_error(WireMessage.SHUTTING_DOWN)
        turn_context = self._context
        if self._state != "ready" or turn_context is None:
            raise not_initialized_error()
        return turn_context

    async def _in_order(self, step: Callable[[], Awaitable[T]]) -> T:
        """Runs `step` after every prompt, interrupt and close received before it."""
        previous = self._admissions
        admitted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._admissions = admitted
        try:
            if previous is not None:
                # Awaited directly (one turn of the loop, no more): a prompt whose admission
                # needs no I/O is answered before a turn started by an earlier prompt begins.
                await previous
            return await step()
        finally:
            if not admitted.done():
                admitted.set_result(None)

    async def shutdown(self, context: RequestContext) -> ShutdownResult:
        if self._state == "shutting-down":
            raise invalid_request_error(WireMessage.SHUTTING_DOWN)
        self._state = "shutting-down"
        self._stopping = asyncio.ensure_future(self._options.sessions.stop_all())
        self._options.on_shutdown()
        return ShutdownResult()

    async def settle(self) -> None:
        """Returns once every prompt received so far has been answered and every started turn
        ended (queued ones are dropped)."""
        if self._admissions is not None:
            await asyncio.wait((self._admissions,))
        await self._options.sessions.stop_all()

    async def _accept(
        self, params: SessionPromptParams, context: TurnContext
    ) -> SessionPromptResult:
        admitted = await admit_prompt(self._options.store, params.content_blocks)
        session = context.sessions.open(params.session_id)
        message = UserMessage(
            id=session.next_message_id(),
            role="user",
            content=admitted.content,
            source=MessageSource(kind="user"),
        )
        # A prompt admitted while `shutdown` was being answered gets its id but no turn.
        if self._state == "ready":
            turn_input = TurnInput(message=message, prompt=admitted.prompt)

            def turn(control: TurnControl) -> Awaitable[object]:
                return run_turn(session, turn_input, context, control)

            session.enqueue(turn)
        return SessionPromptResult(message_id=message.id)

"""What the generated peers of every protocol share: schema checks that speak the JSON-RPC error
shapes, conversion between wire values and dataclasses by a protocol's codec (`PeerCodec`), the
registration of request handlers and extension methods. The twin of
`packages/protocol/src/peer-support.ts`; each protocol's peers import it through their own peer
support module (`dsh_sdk.peer_support`, `dsh_sdk.acp.peer_support`), which binds its codec.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, overload

from dsh_sdk._gen.constants import ERROR_MESSAGES, ErrorCode, WireMessage, format_message
from dsh_sdk._gen.models import Violation
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.inbound_handlers import NotificationHandler, RequestHandler
from dsh_sdk.transport import JsonRpcTransportPeer
from dsh_sdk.validation_runtime import Validator
from dsh_sdk.wire_codec import CodecError
from dsh_sdk.wire_object import WireObject

__all__ = [
    "Decode",
    "Encode",
    "PeerCodec",
    "PeerTransport",
    "ProtocolError",
    "Subscriber",
    "describe_violations",
    "implements",
    "invalid_params_error",
    "method_not_found",
    "register_request_handlers",
    "require_family",
    "require_valid_params",
    "require_valid_result",
]

T = TypeVar("T", bound=WireObject)

Subscriber = Callable[[T], Awaitable[None] | None]
"""A notification subscriber: gets the decoded params; may be a coroutine function."""

Decode = Callable[[Any, object], Any]
"""A protocol codec's `decode(kind, value)`."""

Encode = Callable[[WireObject], dict[str, Any]]
"""A protocol codec's `encode(obj)`."""


class PeerTransport(JsonRpcTransportPeer, Protocol):
    """The transport surface the generated peers use; `JsonRpcLineTransport` provides it."""

    def on_request(self, method: str, handler: RequestHandler) -> Callable[[], None]:
        """Registers the handler of an inbound request method; returns its unregister function."""
        ...

    def on_notification(self, method: str, handler: NotificationHandler) -> Callable[[], None]:
        """Registers the handler of an inbound notification method; returns its unregister
        function."""
        ...

    def report_diagnostic(self, diagnostic: TransportDiagnostic) -> None:
        """Counts a diagnostic and hands it to the transport's observer."""
        ...


class ProtocolError(Exception):
    """A result that breaks the schema: the peer answered something the protocol does not allow."""

    method: str
    """The wire method of the request whose result broke the schema."""
    violations: tuple[Violation, ...]
    """Every violation found, with JSON pointers into the result."""

    def __init__(self, method: str, violations: Sequence[Violation]) -> None:
        super().__init__(
            f"the result of {method} breaks the schema: {describe_violations(violations)}"
        )
        self.method = method
        self.violations = tuple(violations)

    def __repr__(self) -> str:
        return f"ProtocolError({self.method!r}, {list(self.violations)!r})"


def describe_violations(violations: Sequence[Violation]) -> str:
    """`/maxTokens must be >= 1; / must have required property 'cwd'`: one readable line."""
    return "; ".join(f"{v.pointer or '/'} {v.message}" for v in violations)


def invalid_params_error(violations: Sequence[Violation]) -> JsonRpcResponseError:
    """The `-32602` error whose `data` lists every violation as `{pointer, message}` wire objects.
    Handlers raise it too, for params the schema accepts but the server refuses (an unknown
    model, an attachment it does not hold)."""
    code = ErrorCode.INVALID_PARAMS
    data = [{"pointer": v.pointer, "message": v.message} for v in violations]
    return JsonRpcResponseError(code, ERROR_MESSAGES[code], data)


def require_valid_params(validate: Validator, params: object) -> None:
    """Raises the `-32602` error listing every violation when `params` break the schema."""
    violations = validate(params)
    if violations:
        raise invalid_params_error(violations)


def require_valid_result(validate: Validator, method: str, result: object) -> None:
    """Raises a `ProtocolError` naming `method` and every violation when `result` breaks the
    schema."""
    violations = validate(result)
    if violations:
        raise ProtocolError(method, violations)


class PeerCodec:
    """What the peers of one protocol convert with its codec: params and results to dataclasses,
    a handler's dataclass to the wire `result`. A protocol's peer support module binds one."""

    __slots__ = ("_decode", "_encode")

    def __init__(self, decode: Decode, encode: Encode) -> None:
        self._decode = decode
        self._encode = encode

    @overload
    def decode_params(self, kind: type[T], params: object) -> T: ...
    @overload
    def decode_params(self, kind: object, params: object) -> Any: ...
    def decode_params(self, kind: object, params: object) -> Any:
        """Params as their dataclass (`kind` a generated class or union alias). Checked params
        always decode; unchecked ones (validation off) that cannot are refused with `-32602`,
        like params that break the schema."""
        try:
            return self._decode(kind, params)
        except CodecError as error:
            raise invalid_params_error([Violation(pointer="", message=str(error))]) from None

    @overload
    def decode_result(self, kind: type[T], method: str, result: object) -> T: ...
    @overload
    def decode_result(self, kind: object, method: str, result: object) -> Any: ...
    def decode_result(self, kind: object, method: str, result: object) -> Any:
        """A result as its dataclass (`kind` a generated class or union alias). Checked results
        always decode; an unchecked one (validation off) that cannot raises a `ProtocolError`."""
        try:
            return self._decode(kind, result)
        except CodecError as error:
            raise ProtocolError(method, [Violation(pointer="", message=str(error))]) from None

    async def answer(self, pending: Awaitable[WireObject]) -> dict[str, Any]:
        """Awaits a request handler and encodes the dataclass it returns as the wire `result`."""
        return self._encode(await pending)


def method_not_found(method: str) -> JsonRpcResponseError:
    """The `-32601` error of a request nobody handles, as the transport answers it."""
    code = ErrorCode.METHOD_NOT_FOUND
    return JsonRpcResponseError(code, format_message(WireMessage.METHOD_NOT_FOUND, method=method))


def require_family(prefix: str, method: str) -> None:
    """Refuses, before anything is sent, a method of a prefix family (`_…` extension methods)
    that does not start with the family's prefix."""
    if not method.startswith(prefix):
        message = f"{method!r} is not a method of the family {prefix!r}…: it must start with it"
        raise ValueError(message)


def implements(handlers: object, protocol: type, name: str) -> bool:
    """Whether `handlers` has its own coroutine `name`: not absent, and not the default body it
    inherits from the handlers `protocol` it subclasses (an optional method left out)."""
    method = getattr(handlers, name, None)
    if method is None:
        return False
    return getattr(method, "__func__", method) is not protocol.__dict__.get(name)


def register_request_handlers(
    transport: PeerTransport, handlers: Mapping[str, RequestHandler]
) -> Callable[[], None]:
    """Registers every handler, or none: if one registration fails, those made are undone and
    the error propagates. Returns the function that unregisters them all."""
    disposers: list[Callable[[], None]] = []

    def dispose() -> None:
        while disposers:
            disposers.pop()()

    try:
        for method, handler in handlers.items():
            disposers.append(transport.on_request(method, handler))
    except BaseException:
        dispose()
        raise
    return dispose

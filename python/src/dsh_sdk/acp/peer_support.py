"""The peer support of the generated ACP peers (`dsh_sdk.acp._gen.peers`): `peer_runtime` and
`NotificationFanout`, bound to ACP's codec (`dsh_sdk.acp.codec`), as `dsh_sdk.peer_support` binds
them to the DeepSeek Harness protocol's."""

from __future__ import annotations

from typing import TypeVar

from dsh_sdk.acp.codec import decode, encode
from dsh_sdk.notification_fanout import NotificationFanout as _NotificationFanout
from dsh_sdk.peer_runtime import *  # noqa: F403 - the protocol-neutral part, re-exported whole
from dsh_sdk.peer_runtime import PeerCodec, PeerTransport
from dsh_sdk.peer_runtime import __all__ as _RUNTIME
from dsh_sdk.validation_runtime import Validator
from dsh_sdk.wire_object import WireObject

__all__ = [*_RUNTIME, "NotificationFanout", "answer", "decode_params", "decode_result"]

T = TypeVar("T", bound=WireObject)

_CODEC = PeerCodec(decode, encode)
decode_params = _CODEC.decode_params
decode_result = _CODEC.decode_result
answer = _CODEC.answer


class NotificationFanout(_NotificationFanout[T]):
    """`notification_fanout.NotificationFanout`, decoding with this protocol's codec."""

    __slots__ = ()

    def __init__(
        self, transport: PeerTransport, method: str, validate: Validator | None, kind: type[T]
    ) -> None:
        super().__init__(transport, method, validate, kind, decode)

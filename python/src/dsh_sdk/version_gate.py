"""A server playing an older protocol version (the reference runtimes' `--protocol-version 1`, for
compatibility tests): what that version does not have is unknown to it, read off the generated
method table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsh_sdk._gen.methods import METHODS
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.inbound_handlers import NotificationHandler, RequestContext, RequestHandler
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.peer_support import PeerTransport

__all__ = ["PlayingVersion"]


class PlayingVersion:
    """The transport as a peer of `version` sees it: methods introduced later are never
    registered (so they are answered `-32601`), and params members introduced later are removed
    before the generated checks run, as unknown members are ignored (an invalid
    `protocolVersion` included)."""

    def __init__(self, transport: PeerTransport, version: int) -> None:
        self._transport = transport
        self._version = version

    async def request(
        self, method: str, params: object = ABSENT, *, timeout: float | None = None
    ) -> Any:
        return await self._transport.request(method, params, timeout=timeout)

    async def notify(self, method: str, params: object = ABSENT) -> None:
        await self._transport.notify(method, params)

    def on_notification(self, method: str, handler: NotificationHandler) -> Callable[[], None]:
        return self._transport.on_notification(method, handler)

    def report_diagnostic(self, diagnostic: TransportDiagnostic) -> None:
        self._transport.report_diagnostic(diagnostic)

    def on_request(self, method: str, handler: RequestHandler) -> Callable[[], None]:
        info = next((m for m in METHODS if m.wire_name == method), None)
        if info is not None and info.since > self._version:
            return lambda: None
        newer = [
            name
            for name, since in (info.params_members_since if info else {}).items()
            if since > self._version
        ]
        if not newer:
            return self._transport.on_request(method, handler)

        def without_newer(params: Any, context: RequestContext) -> Any:
            if isinstance(params, dict):
                params = {k: v for k, v in params.items() if k not in newer}
            return handler(params, context)

        return self._transport.on_request(method, without_newer)

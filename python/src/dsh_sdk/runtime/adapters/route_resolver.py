"""Resolving the exact route of a handshake."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from dsh_sdk._gen.models import InitializeParams, Violation
from dsh_sdk.runtime.adapters.model_adapter import ModelAdapter, ModelRoute, served_list
from dsh_sdk.runtime.protocol_errors import invalid_params_error
from dsh_sdk.runtime.wire_pointers import json_pointer, wire_name

__all__ = ["resolve_route"]

_PROVIDER: Final = wire_name(InitializeParams, "provider")


def resolve_route(adapters: Sequence[ModelAdapter], params: InitializeParams) -> ModelRoute:
    """The adapter of `params.provider`, then its model and effort. Anything not served raises
    `-32602` naming the offending field; nothing falls back to a default."""
    adapter = next((a for a in adapters if a.provider == params.provider), None)
    if adapter is None:
        served = served_list([a.provider for a in adapters])
        message = f'{_PROVIDER} "{params.provider}" is not served; served: {served}'
        raise invalid_params_error([Violation(pointer=json_pointer(_PROVIDER), message=message)])
    resolved = adapter.resolve_route(params)
    if not isinstance(resolved, ModelRoute):
        raise invalid_params_error([resolved])
    return resolved

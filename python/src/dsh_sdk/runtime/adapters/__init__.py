"""Model adapters of the reference runtime: the `ModelAdapter` seam and the echo agent."""

from __future__ import annotations

from dsh_sdk.runtime.adapters.echo_adapter import EchoAdapter, cut_into_pieces
from dsh_sdk.runtime.adapters.model_adapter import (
    DelegationOutcome,
    ModelAdapter,
    ModelPrompt,
    ModelReply,
    ModelRoute,
    PromptImage,
    is_model_route,
)
from dsh_sdk.runtime.adapters.route_resolver import resolve_route

__all__ = [
    "DelegationOutcome",
    "EchoAdapter",
    "ModelAdapter",
    "ModelPrompt",
    "ModelReply",
    "ModelRoute",
    "PromptImage",
    "cut_into_pieces",
    "is_model_route",
    "resolve_route",
]

"""What a turn works with: the context every turn shares and the input of one turn."""

from __future__ import annotations

from dataclasses import dataclass

from dsh_sdk._gen.models import UserMessage
from dsh_sdk.runtime.adapters.model_adapter import ModelPrompt, ModelRoute
from dsh_sdk.runtime.notifier import Notifier
from dsh_sdk.runtime.session import SessionRegistry

__all__ = ["TurnContext", "TurnInput"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TurnContext:
    """What every turn of the runtime shares."""

    route: ModelRoute
    """The route the handshake resolved."""
    notifier: Notifier
    sessions: SessionRegistry
    chunk_delay: float
    """A pause before each `assistant/chunk`, in seconds (0: none). Changes timing only."""
    max_tokens_is_success: bool
    """Whether a child that stops with `max-tokens` finished `ok` (the original's deployment
    option)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class TurnInput:
    """The user message a turn answers, and what the model sees of it."""

    message: UserMessage
    prompt: ModelPrompt

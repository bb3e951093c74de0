"""The seam between the protocol layer and a model.

The runtime resolves a route through an adapter at `initialize` and asks it for replies during
turns. Adding a provider means adding an adapter beside `echo`; nothing in the server, sessions or
turns changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from dsh_sdk._gen.models import InitializeParams, TurnEndKind, Usage, Violation

__all__ = [
    "DelegationOutcome",
    "ModelAdapter",
    "ModelPrompt",
    "ModelReply",
    "ModelRoute",
    "PromptImage",
    "is_model_route",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelRoute:
    """The exact route a successful handshake resolved; every session of the runtime uses it."""

    adapter: ModelAdapter
    """The adapter that serves the route."""
    provider: str
    model: str
    reasoning_effort: str
    """The effort in force: the requested one, or the model's default when none was requested."""
    max_tokens: int | None = None
    """Caps each model output (in the adapter's tokens); `None`: no cap."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PromptImage:
    """An image of a prompt, as the model sees it: the durable reference and its size."""

    attachment_id: str
    media_type: str
    byte_length: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelPrompt:
    """What the model sees of a user message: its text blocks and its images, in order."""

    texts: tuple[str, ...]
    images: tuple[PromptImage, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class DelegationOutcome:
    """What a child agent returned to the parent that delegated to it."""

    child_session_id: str
    text: str
    """The text of the child's reply."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelReply:
    """One model output: the streamed pieces, their concatenation, usage and why it stopped."""

    pieces: tuple[str, ...]
    """The pieces streamed as `assistant/chunk` deltas, in order."""
    text: str
    """The whole message text: the pieces joined."""
    usage: Usage
    """Token accounting, in the adapter's own fields (the wire `Usage` is open)."""
    finish: TurnEndKind
    """The `turn/end` reason kind the output leads to."""


class ModelAdapter(Protocol):
    """A provider adapter: resolves routes and produces replies. Pure: no I/O, no clock."""

    @property
    def provider(self) -> str:
        """The provider name clients put in `InitializeParams.provider`."""
        ...

    def resolve_route(self, params: InitializeParams) -> ModelRoute | Violation:
        """Resolves `params.model` and `params.reasoning_effort` (the provider is already known
        to be this adapter's). Returns the route, or the violation that fails the handshake."""
        ...

    def choose_delegation(self, prompt: ModelPrompt) -> str | None:
        """The task the model hands to a child agent for this prompt, or `None` to answer
        itself."""
        ...

    def generate_reply(
        self,
        prompt: ModelPrompt,
        route: ModelRoute,
        delegation: DelegationOutcome | None = None,
    ) -> ModelReply:
        """The reply to `prompt`; `delegation` is present when a child agent ran first."""
        ...


def is_model_route(value: ModelRoute | Violation) -> bool:
    """Tells a resolved route from a violation."""
    return isinstance(value, ModelRoute)


def served_list(names: Sequence[str]) -> str:
    """`a, b, c`: how the runtime's messages list what it serves."""
    return ", ".join(names)

"""The embedded, deterministic agent of the reference runtime (docs/reference-runtime.md)."""

from __future__ import annotations

from typing import Final

from dsh_sdk._gen.models import InitializeParams, Usage, Violation
from dsh_sdk.runtime.adapters.model_adapter import (
    DelegationOutcome,
    ModelPrompt,
    ModelReply,
    ModelRoute,
    served_list,
)
from dsh_sdk.runtime.wire_pointers import json_pointer, wire_name

__all__ = ["EchoAdapter", "cut_into_pieces"]

PROVIDER: Final = "echo"
MODELS: Final = ("echo-1",)
EFFORTS: Final = ("low", "medium", "high")
DEFAULT_EFFORT: Final = "medium"
PIECE_CODE_POINTS: Final = 16
"""A reply is streamed in pieces of this many Unicode code points."""
DELEGATE_PREFIX: Final = "/delegate "
"""A prompt whose first text block starts with this runs a child agent on the rest."""

# The echo model's own usage fields: `Usage` is open, its members belong to the adapter.
INPUT_TOKENS: Final = "inputTokens"
OUTPUT_TOKENS: Final = "outputTokens"

_MODEL: Final = wire_name(InitializeParams, "model")
_EFFORT: Final = wire_name(InitializeParams, "reasoning_effort")


def cut_into_pieces(text: str, size: int) -> list[str]:
    """Cuts `text` every `size` code points; the last piece may be shorter. (A Python `str` is a
    sequence of code points, as `Array.from` sees a JavaScript string.)"""
    return [text[start : start + size] for start in range(0, len(text), size)]


class EchoAdapter:
    """The echo agent: repeats the prompt back, and delegates `/delegate <task>` to a child."""

    @property
    def provider(self) -> str:
        return PROVIDER

    def resolve_route(self, params: InitializeParams) -> ModelRoute | Violation:
        if params.model not in MODELS:
            message = (
                f'model "{params.model}" is not served by {PROVIDER}; served: {served_list(MODELS)}'
            )
            return Violation(pointer=json_pointer(_MODEL), message=message)
        effort = params.reasoning_effort if params.reasoning_effort is not None else DEFAULT_EFFORT
        if effort not in EFFORTS:
            message = (
                f'{_EFFORT} "{effort}" is not supported by {params.model}; '
                f"supported: {served_list(EFFORTS)}"
            )
            return Violation(pointer=json_pointer(_EFFORT), message=message)
        return ModelRoute(
            adapter=self,
            provider=PROVIDER,
            model=params.model,
            reasoning_effort=effort,
            max_tokens=params.max_tokens,
        )

    def choose_delegation(self, prompt: ModelPrompt) -> str | None:
        first = prompt.texts[0] if prompt.texts else None
        if first is not None and first.startswith(DELEGATE_PREFIX):
            return first[len(DELEGATE_PREFIX) :]
        return None

    def generate_reply(
        self,
        prompt: ModelPrompt,
        route: ModelRoute,
        delegation: DelegationOutcome | None = None,
    ) -> ModelReply:
        whole = (
            f"Delegated to {delegation.child_session_id}: {delegation.text}"
            if delegation is not None
            else _echo_text(prompt)
        )
        all_pieces = cut_into_pieces(whole, PIECE_CODE_POINTS)
        is_cut = route.max_tokens is not None and route.max_tokens < len(all_pieces)
        pieces = all_pieces[: route.max_tokens] if is_cut else all_pieces
        usage = Usage(
            extra={INPUT_TOKENS: len("\n".join(prompt.texts)), OUTPUT_TOKENS: len(pieces)}
        )
        return ModelReply(
            pieces=tuple(pieces),
            text="".join(pieces),
            usage=usage,
            finish="max-tokens" if is_cut else "completed",
        )


def _echo_text(prompt: ModelPrompt) -> str:
    """`Echo: ` and the text blocks joined with `\\n`, then one line per image."""
    image_lines = [
        f"[image {image.media_type}, {image.byte_length} bytes, {image.attachment_id}]"
        for image in prompt.images
    ]
    return "\n".join([f"Echo: {chr(10).join(prompt.texts)}", *image_lines])

"""The client's check of its own params, before they are sent: the generated validators, the
same a runtime runs on what it receives, so a refusal is the runtime's, only earlier."""

from __future__ import annotations

from dsh_sdk._gen.validators import PARAMS_VALIDATORS
from dsh_sdk.client.errors import InvalidParamsError
from dsh_sdk.codec import encode
from dsh_sdk.wire_object import WireObject

__all__ = ["require_valid"]


def require_valid(method: str, params: WireObject) -> None:
    """Raises `InvalidParamsError` listing every violation when `params`, as they would go on
    the wire, break the schema of `method`'s params; its message names the attributes too."""
    violations = PARAMS_VALIDATORS[method](encode(params))
    if violations:
        raise InvalidParamsError(method, violations, params)

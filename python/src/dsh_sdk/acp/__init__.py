"""The Agent Client Protocol (ACP) v1 in Python: the validators generated from
`protocols/acp/protocol.idl.json` (imported from ACP's published schema).

Each `validate_<payload>` returns every violation of a value, in schema order, and applies the
repairs of lenient decoding to it in place, as the TypeScript validators of `@dsh-sdk/acp` do.
`PARAMS_VALIDATORS` / `RESULT_VALIDATORS` find them by wire method name. Dataclasses and peers
for ACP are not generated yet.
"""

from dsh_sdk.acp._gen.validators import (
    PARAMS_VALIDATORS,
    RESULT_VALIDATORS,
    validate_cancel_notification,
    validate_initialize_request,
    validate_initialize_response,
    validate_new_session_request,
    validate_new_session_response,
    validate_prompt_request,
    validate_prompt_response,
    validate_protocol_frame,
    validate_session_notification,
)
from dsh_sdk.validation_runtime import Violation

__all__ = [
    "PARAMS_VALIDATORS",
    "RESULT_VALIDATORS",
    "Violation",
    "validate_cancel_notification",
    "validate_initialize_request",
    "validate_initialize_response",
    "validate_new_session_request",
    "validate_new_session_response",
    "validate_prompt_request",
    "validate_prompt_response",
    "validate_protocol_frame",
    "validate_session_notification",
]

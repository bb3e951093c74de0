"""Checks of vector frames with the generated validators: `validate_protocol_frame` (any frame)
and the validator of the frame's own method (`PARAMS_VALIDATORS` / `RESULT_VALIDATORS`), which the
generated ends use. The root alone is not enough: it accepts an invalid `initialize` result as a
valid `shutdown` response, so a frame is also checked as what its method makes it."""

from __future__ import annotations

from dsh_sdk._gen.models import Violation
from dsh_sdk._gen.validators import PARAMS_VALIDATORS, RESULT_VALIDATORS, validate_protocol_frame
from dsh_sdk.jsonlib import ABSENT
from vectors.cases import FrameKind, IdlMethod, JsonObject


def member_of(kind: FrameKind) -> str:
    """The member a frame's payload is in."""
    return "result" if kind == "response" else "params"


def member_violations(frame: JsonObject, method: IdlMethod, kind: FrameKind) -> list[Violation]:
    """Violations of the payload (params, or the result of a success response) by the method's
    generated validator, with pointers relative to the payload. Absent params are valid for a
    method without params; an error response has no payload to check here."""
    if kind == "response":
        if "error" in frame:
            return []
        return RESULT_VALIDATORS[method.method](frame.get("result", ABSENT))
    params = frame.get("params", ABSENT)
    if params is ABSENT and method.params is None:
        return []
    return PARAMS_VALIDATORS[method.method](params)


def frame_problems(frame: JsonObject, method: IdlMethod | None, kind: FrameKind) -> list[str]:
    """Everything the generated validators say against a frame that should be valid."""
    problems = [f"frame {v.pointer or '/'}: {v.message}" for v in validate_protocol_frame(frame)]
    if method is not None:
        member = member_of(kind)
        problems += [
            f"{method.method} {member}{v.pointer}: {v.message}"
            for v in member_violations(frame, method, kind)
        ]
    return problems

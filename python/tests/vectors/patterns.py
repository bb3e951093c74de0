"""Placeholders of exchanges (test-vectors/README.md): `{"$var": name}` binds on first sight and
must be equal after; `{"$any": type}` accepts any value of a JSON type."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Final

from vectors.cases import dumps, json_equal

Bindings = dict[str, Any]

STAND_INS: Final[dict[str, Any]] = {
    "integer": 0,
    "number": 0,
    "string": "any",
    "boolean": False,
    "object": {},
    "array": [],
}


@dataclass(frozen=True, slots=True)
class Placeholder:
    kind: str
    """`var` or `any`."""
    operand: str
    """The variable's name, or the JSON type."""


def as_placeholder(value: object) -> Placeholder | None:
    if not isinstance(value, dict) or len(value) != 1:
        return None
    ((key, operand),) = value.items()
    if not isinstance(operand, str):
        return None
    if key == "$var":
        return Placeholder("var", operand)
    if key == "$any":
        if operand not in STAND_INS:
            raise ValueError(f"vector: unknown $any type {operand}")
        return Placeholder("any", operand)
    return None


def has_type(value: object, type_name: str) -> bool:
    if isinstance(value, bool):
        return type_name == "boolean"
    if type_name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if type_name == "number":
        return isinstance(value, int | float)
    if type_name == "string":
        return isinstance(value, str)
    if type_name == "boolean":
        return isinstance(value, bool)
    if type_name == "object":
        return isinstance(value, dict)
    return isinstance(value, list)


@dataclass(frozen=True, slots=True)
class Match:
    """The outcome of a match: the bindings grown by it, or why it failed."""

    bindings: Bindings | None
    reason: str = ""

    @property
    def is_match(self) -> bool:
        return self.bindings is not None


def match_pattern(pattern: object, actual: object, bindings: Bindings) -> Match:
    """Matches an actual value against a pattern; on success, returns the bindings grown by it."""
    grown = dict(bindings)
    reason = _match_into(pattern, actual, grown, "")
    return Match(grown) if reason is None else Match(None, reason)


def _match_into(pattern: object, actual: object, bindings: Bindings, at: str) -> str | None:
    where = at or "/"
    placeholder = as_placeholder(pattern)
    if placeholder is not None and placeholder.kind == "any":
        return (
            None
            if has_type(actual, placeholder.operand)
            else f"{where}: not a {placeholder.operand}"
        )
    if placeholder is not None:
        if placeholder.operand not in bindings:
            bindings[placeholder.operand] = actual
            return None
        bound = bindings[placeholder.operand]
        if json_equal(bound, actual):
            return None
        return f"{where}: $var {placeholder.operand} is {dumps(bound)}, got {dumps(actual)}"
    if isinstance(pattern, list):
        if not isinstance(actual, list) or len(actual) != len(pattern):
            return f"{where}: expected an array of {len(pattern)}, got {dumps(actual)}"
        for index, (item, value) in enumerate(zip(pattern, actual, strict=True)):
            reason = _match_into(item, value, bindings, f"{at}/{index}")
            if reason is not None:
                return reason
        return None
    if isinstance(pattern, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, got {dumps(actual)}"
        if sorted(pattern) != sorted(actual):
            return f"{where}: members {sorted(actual)}, expected {sorted(pattern)}"
        for key in sorted(pattern):
            reason = _match_into(pattern[key], actual[key], bindings, f"{at}/{key}")
            if reason is not None:
                return reason
        return None
    if json_equal(pattern, actual):
        return None
    return f"{where}: expected {dumps(pattern)}, got {dumps(actual)}"


def resolve_pattern(pattern: object, bindings: Bindings) -> Any:
    """The concrete value a scripted side sends for a pattern: bound `$var`s take their value, an
    unbound one is bound to its own name, an `$any` becomes a stand-in of its type."""
    placeholder = as_placeholder(pattern)
    if placeholder is not None and placeholder.kind == "any":
        return copy.deepcopy(STAND_INS[placeholder.operand])
    if placeholder is not None:
        return bindings.setdefault(placeholder.operand, placeholder.operand)
    if isinstance(pattern, list):
        return [resolve_pattern(item, bindings) for item in pattern]
    if isinstance(pattern, dict):
        return {key: resolve_pattern(value, bindings) for key, value in pattern.items()}
    return pattern

// The fixed parts of validators.py: imports and the run-time helpers the compiled checks call.
// Optional helpers are printed only when a compiled check uses them, so ruff finds nothing unused.

/** Import lines; `uses` holds the optional helpers the compiled checks need. */
export function validatorImports(uses: ReadonlySet<string>): string {
  const modules = ['binascii', 'math', 're'].filter(
    (m) => m === 'math' || uses.has(m === 'binascii' ? 'base64' : m),
  );
  return [
    'from __future__ import annotations',
    '',
    ...(uses.has('base64') ? ['import base64'] : []),
    ...modules.map((m) => `import ${m}`),
    'from collections.abc import Callable, Mapping',
    'from typing import Any, Final, TypeAlias, TypeGuard',
    '',
    'from dsh_sdk._gen.models import Violation',
  ].join('\n');
}

export const VALIDATORS_PRELUDE = `_Out: TypeAlias = list[tuple[str, str]]
_Check: TypeAlias = Callable[[Any, str, _Out], None]
Validator: TypeAlias = Callable[[object], list[Violation]]
"""A validator: every violation of a value, in schema order; empty when it is valid."""

_ABSENT: Final = object()


def _is_number(v: object) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_integer(v: object) -> TypeGuard[int | float]:
    # JSON Schema: a number with a zero fraction (1.0 is an integer); ajv also counts infinities.
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and (v.is_integer() or math.isinf(v)))


def _utf16_length(s: str) -> int:
    # ajv measures strings in UTF-16 code units.
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _passes(check: _Check, v: object) -> bool:
    errors: _Out = []
    check(v, "", errors)
    return not errors


def _any_of(v: object, p: str, out: _Out, checks: tuple[_Check, ...]) -> None:
    collected: _Out = []
    for check in checks:
        errors: _Out = []
        check(v, p, errors)
        if not errors:
            return
        collected.extend(errors)
    out.extend(collected)
    out.append((p, "must match a schema in anyOf"))


def _run(check: _Check, value: object) -> list[Violation]:
    out: _Out = []
    check(value, "", out)
    if not out:
        return []
    # One problem can be reported twice (a value checked by two subschemas); keep the first.
    return [Violation(pointer=pointer, message=message) for pointer, message in dict.fromkeys(out)]`;

/** Canonical padded base64, as the TypeScript check: decoding and re-encoding gives the same text. */
export const BASE64_HELPER = `def _is_canonical_base64(s: str) -> bool:
    try:
        return base64.b64encode(base64.b64decode(s, validate=True)).decode("ascii") == s
    except (binascii.Error, ValueError):
        return False`;

/** JSON equality for a non-string \`const\` or \`enum\`: \`True\` is not \`1\`, \`1.0\` is \`1\`. */
export const JSON_EQUALITY_HELPER = `def _json_equal(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _json_in(v: object, values: tuple[object, ...]) -> bool:
    return any(_json_equal(v, value) for value in values)`;

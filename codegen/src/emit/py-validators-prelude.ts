// The fixed parts of validators.py: imports and the run-time helpers the compiled checks call.
// Optional helpers are printed only when a compiled check uses them, so ruff finds nothing unused.

/** Import lines; `uses` holds the optional helpers the compiled checks need. */
export function validatorImports(uses: ReadonlySet<string>): string {
  const modules = ['math', 're'].filter((m) => m === 'math' || uses.has(m));
  return [
    'from __future__ import annotations',
    '',
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

/**
 * Canonical padded base64, as the TypeScript check (decoding and re-encoding gives the same text),
 * decided without decoding: a multi-MiB inline image costs one scan instead of a decode and an
 * encode (about 3.5 ms instead of 28 ms for 8 MiB). The scan goes by slices so that no copy of the
 * whole text is made.
 */
export const BASE64_HELPER = `_BASE64_ALPHABET: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _is_canonical_base64(s: str) -> bool:
    # Whole quartets of the alphabet, at most two "=" at the end, and zero in the bits of the last
    # character that the padding leaves unused: exactly the texts that decode and encode back.
    if len(s) % 4 or not s.isascii():
        return False
    padding = 2 if s.endswith("==") else 1 if s.endswith("=") else 0
    end = len(s) - padding
    for start in range(0, end, 65536):
        if s[start : min(start + 65536, end)].encode("ascii").translate(None, _BASE64_ALPHABET):
            return False
    if padding == 0:
        return True
    # Before "==" the last character holds 2 bits of data (4 unused); before "=", 4 (2 unused).
    return _BASE64_ALPHABET.index(ord(s[end - 1])) % (16 if padding == 2 else 4) == 0`;

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

"""What the compiled validators (`_gen/validators.py`) call at run time.

The checks are compiled from the schema ahead of time, one function per definition; what does not
depend on the schema lives here: the JSON Schema meaning of number, integer and equality, string
lengths as ajv counts them, the canonical base64 test, and collecting violations the way ajv
reports them with `allErrors: true`. A check is called as `check(value, pointer, out)` and appends
a (pointer, message) pair to `out` for every violation it finds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, Final, TypeAlias, TypeGuard

from dsh_sdk._gen.models import Violation

__all__ = [
    "DROPPED",
    "Check",
    "Out",
    "Predicate",
    "Validator",
    "Violation",
    "all_numbers_within",
    "any_of",
    "drop_marked",
    "is_canonical_base64",
    "is_integer",
    "is_number",
    "json_equal",
    "json_in",
    "member_pointer",
    "passes",
    "run",
    "unknown_members",
    "utf16_length",
]

Out: TypeAlias = list[tuple[str, str]]
"""Where a check appends what it finds: (JSON pointer, message) pairs, in schema order."""

Check: TypeAlias = Callable[[Any, str, Out], None]
"""A compiled check: `check(value, pointer, out)` appends every violation of `value` to `out`."""

Predicate: TypeAlias = Callable[[Any], bool]
"""A fast check: whether a value is valid with nothing to repair; when false, the full check says
what is wrong (or repairs). It builds no pointers and never changes the value."""

Validator: TypeAlias = Callable[[object], list[Violation]]
"""A validator: every violation of a value, in schema order; empty when it is valid."""


def is_number(v: object) -> TypeGuard[int | float]:
    """JSON Schema `number`: an int or a float, but not a bool (which Python counts as an int)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_integer(v: object) -> TypeGuard[int | float]:
    """JSON Schema `integer`: a number with a zero fraction, so `1.0` is one; ajv also counts
    infinities (`JSON.parse` and Python's `json` read `1e400` as one)."""
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and (v.is_integer() or math.isinf(v)))


def utf16_length(s: str) -> int:
    """The length of `s` in UTF-16 code units, as ajv measures `minLength` (a character outside the
    BMP counts twice), so both languages accept the same strings."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def all_numbers_within(values: Iterable[object], bounds: tuple[int, int]) -> bool:
    """Whether every value is a number within `bounds` (inclusive), decided in C by `min` and `max`:
    values that are not all numbers fail to compare (TypeError), and the caller then checks them
    one by one. A compiled check uses it to skip open content that holds only such numbers."""
    low, high = bounds
    try:
        return low <= min(values) and max(values) <= high  # type: ignore[type-var, operator]
    except (TypeError, ValueError):  # not all numbers, or none at all
        return False


def unknown_members(v: dict[str, Any], known: frozenset[str]) -> list[str]:
    """The names in `v` that `known` lacks, in the order ajv's `for…in` visits them: names that are
    array indices ("0", "17", below 2^32 - 1) first, ascending, then the others in wire order (a
    JavaScript object from `JSON.parse` keeps that order), so violations come in the same order."""
    names = [name for name in v if name not in known] if known else list(v)
    # An array index starts with a digit; when the least name sorts after "9", none does.
    if len(names) > 1 and min(names) <= "9" and any(map(_is_array_index, names)):
        indices = sorted(filter(_is_array_index, names), key=int)
        names = indices + [name for name in names if not _is_array_index(name)]
    return names


def _is_array_index(name: str) -> bool:
    return (
        name.isascii()
        and name.isdigit()
        and (name == "0" or name[0] != "0")
        and int(name) < 4294967295
    )


def member_pointer(p: str, name: str) -> str:
    """The JSON pointer of member `name` below `p` (RFC 6901: `~` is `~0`, `/` is `~1`)."""
    if "~" in name or "/" in name:
        name = name.replace("~", "~0").replace("/", "~1")
    return f"{p}/{name}"


DROPPED: Final = object()
"""Marks an array item a lenient repair removes; `drop_marked` removes the marked items."""


def drop_marked(items: list[object]) -> None:
    """Removes the items lenient repairs marked DROPPED (`x-lenient-compact`, after `items`)."""
    if any(item is DROPPED for item in items):
        items[:] = [item for item in items if item is not DROPPED]


def passes(check: Check, v: object) -> bool:
    """Whether `v` passes `check`: for `not`, `anyOf` under `if`, and `$ref` in a predicate, where
    only the outcome matters, not the violations."""
    errors: Out = []
    check(v, "", errors)
    return not errors


def any_of(v: object, p: str, out: Out, checks: tuple[Check, ...]) -> None:
    """JSON Schema `anyOf` as ajv reports it: nothing when one branch passes, otherwise every
    branch's violations followed by "must match a schema in anyOf" at `p`."""
    collected: Out = []
    for check in checks:
        errors: Out = []
        check(v, p, errors)
        if not errors:
            return
        collected.extend(errors)
    out.extend(collected)
    out.append((p, "must match a schema in anyOf"))


def run(check: Check, value: object) -> list[Violation]:
    """Every violation `check` finds in `value`, each reported once, in the order found."""
    out: Out = []
    check(value, "", out)
    if not out:
        return []
    # One problem can be reported twice (a value checked by two subschemas); keep the first.
    return [Violation(pointer=pointer, message=message) for pointer, message in dict.fromkeys(out)]


_BASE64_ALPHABET: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def is_canonical_base64(s: str) -> bool:
    """Canonical padded base64 (`contentEncoding: base64`), decided without decoding.

    The TypeScript check decodes and encodes again and compares; this accepts exactly the same
    texts with one scan, so a multi-MiB inline image costs about 3.5 ms instead of 28 ms for 8 MiB.
    The scan goes by slices, so no copy of the whole text is made.
    """
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
    return _BASE64_ALPHABET.index(ord(s[end - 1])) % (16 if padding == 2 else 4) == 0


def json_equal(a: object, b: object) -> bool:
    """Equality of JSON values, for a non-string `const` or `enum`: unlike Python's `==`, `True` is
    not `1`, while `1.0` is `1`, at any depth."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def json_in(v: object, values: tuple[object, ...]) -> bool:
    """Whether `v` is one of `values` by `json_equal` (`in` would find `True` among `(1,)`)."""
    return any(json_equal(v, value) for value in values)

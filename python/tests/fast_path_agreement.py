"""Whether a validators module's fast path (`python.fastValidators` in a targets file) agrees with
the full check it stands in front of, on values derived from seeds: each seed, and each seed with
one member or item removed or replaced by a value of another type, a number out of bounds, NaN,
or open content holding one, or with an unknown member added.

For every such value: the public validator gives the same violations and leaves the same value
as the full check alone (compiled without a fast path), the fast check never changes the value,
and when it says yes the full check finds nothing and repairs nothing.

test_acp_fast_path.py runs it on the ACP validators; codegen/test/py-fast-path.test.ts runs this
file on validators compiled from codegen fixtures (`python fast_path_agreement.py` with a JSON
request on stdin: `{"fast": path, "full": path, "cases": [[validator name, seed], ...]}`).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

Validate = Callable[[object], list[Any]]

REPLACEMENTS: tuple[object, ...] = (
    None,
    True,
    0,
    1.5,
    2**60,
    -(2**60),
    float("nan"),
    "",
    "x",
    [],
    {},
    [2**60],
    {"n": 2**60},
    {"b": "x", "0": 2**60},
)
ADDED: tuple[tuple[str, object], ...] = (("extra", "x"), ("extra", 2**60), ("7", [1, {"n": 2**60}]))


def mutants(value: object, depth: int = 6) -> Iterator[object]:
    """`value`, then copies of it each changed in one place (see the module's docstring)."""
    yield value
    if depth == 0:
        return
    if isinstance(value, dict):
        for name, child in value.items():
            yield {k: v for k, v in value.items() if k != name}
            for other in (*REPLACEMENTS, *mutants(child, depth - 1)):
                if other is not child:
                    yield {**value, name: copy.deepcopy(other)}
        for name, added in ADDED:
            yield {**value, name: copy.deepcopy(added)}
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield value[:i] + value[i + 1 :]
            for other in (*REPLACEMENTS, *mutants(child, depth - 1)):
                if other is not child:
                    yield [*value[:i], copy.deepcopy(other), *value[i + 1 :]]


def fast_check_of(module: ModuleType, validate: Validate) -> Callable[[object], bool]:
    """The fast check a public validator calls first (the `_valid_...` name in its code)."""
    names = [n for n in validate.__code__.co_names if n.startswith("_valid")]
    if len(names) != 1:
        raise AssertionError(f"{validate.__name__} calls no fast check: {names}")
    check: Callable[[object], bool] = getattr(module, names[0])
    return check


def snapshot(value: object) -> str:
    return json.dumps(value)  # NaN prints as NaN, so a NaN is equal to itself here


def full_check_of(module: ModuleType, validate: Validate) -> Validate:
    """The full check behind a public validator (`run` of the `_check_...` name in its code)."""
    names = [n for n in validate.__code__.co_names if n.startswith("_check")]
    if len(names) != 1:
        raise AssertionError(f"{validate.__name__} calls no full check: {names}")
    check = getattr(module, names[0])
    return lambda value: module.run(check, value)


def agree(
    fast_module: ModuleType, full: Callable[[str], Validate], cases: list[Any]
) -> Counter[str]:
    """Checks every value derived from `cases` ([validator name, seed] pairs) against `full`
    (the full check of a validator, by name); counts what the fast check said (`fast`: yes;
    `invalid`, `repaired`, `valid`: no, and what the full check then found). Raises
    AssertionError naming the first value where the two disagree."""
    counts: Counter[str] = Counter()
    for name, seed in cases:
        validate: Validate = getattr(fast_module, name)
        fast = fast_check_of(fast_module, validate)
        for value in mutants(seed):
            counts[compare(validate, full(name), fast, value)] += 1
    return counts


def compare(
    validate: Validate, full: Validate, fast: Callable[[object], bool], value: object
) -> str:
    before = snapshot(value)
    expected_value = copy.deepcopy(value)
    expected = [(v.pointer, v.message) for v in full(expected_value)]
    found_value = copy.deepcopy(value)
    found = [(v.pointer, v.message) for v in validate(found_value)]
    fast_value = copy.deepcopy(value)
    said_yes = fast(fast_value)
    where = f"{validate.__name__}({before})"
    assert found == expected, f"{where}: violations {found} != {expected}"
    assert snapshot(found_value) == snapshot(expected_value), f"{where}: repaired differently"
    assert snapshot(fast_value) == before, f"{where}: the fast check changed the value"
    repaired = snapshot(expected_value) != before
    if said_yes:
        assert not expected and not repaired, f"{where}: fast yes, full {expected}, {repaired=}"
        return "fast"
    return "invalid" if expected else "repaired" if repaired else "valid"


def load(path: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    request = json.load(sys.stdin)
    fast = load(str(Path(request["fast"])), "fast_validators")
    full = load(str(Path(request["full"])), "full_validators")
    print(json.dumps(agree(fast, lambda name: getattr(full, name), request["cases"])))


if __name__ == "__main__":
    main()

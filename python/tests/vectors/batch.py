"""Runs the vector tests in one process, without pytest's per-test cost: the Python half of
`pnpm test:quick` (docs/changing-the-protocol.md). The same test functions of
`tests/test_vectors.py` and `tests/test_vectors_coverage.py`, with the same parameters and the
same ids that pytest collects (`tests/test_vector_batch.py` holds it to that); pytest still runs
them one by one in the full suite.

It supports exactly what those modules use, and refuses anything else rather than skip it:
`parametrize` marks, `xfail(strict=True)` and `skip` on a parameter, the module mark
`usefixtures("no_loop_errors")` and the fixture `json_backend`.

    python -m vectors.batch [--json FILE] [MODULE ...]     (from python/tests)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import inspect
import json
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
# This checkout's sources first, ahead of wherever the venv's editable install points.
sys.path[:0] = [str(TESTS.parent / "src"), str(TESTS)]

import pytest  # noqa: E402

from dsh_sdk import jsonlib  # noqa: E402
from transport_support import capturing_loop_errors  # noqa: E402

DEFAULT_MODULES = ("test_vectors", "test_vectors_coverage")
FIXTURES = {"json_backend"}
"""Fixtures the runner provides; any other argument must be parametrized."""
MODULE_FIXTURES = {"no_loop_errors"}


@dataclass(frozen=True, kw_only=True)
class Item:
    """One test: a function and one combination of its parameters."""

    node_id: str
    function: Callable[..., Any]
    arguments: dict[str, Any]
    json_backend: jsonlib.JsonBackend | None
    checks_loop_errors: bool
    xfail_reason: str | None = None
    skip_reason: str | None = None


@dataclass
class Outcome:
    passed: int = 0
    xfailed: int = 0
    skipped: int = 0
    failures: list[dict[str, str]] = field(default_factory=list)


class UnsupportedTest(Exception):
    """A test uses a pytest feature this runner does not emulate: run it under pytest."""


# ---------------------------------------------------------------- collecting


def marks_of(target: object) -> list[pytest.Mark]:
    found = getattr(target, "pytestmark", [])
    return list(found) if isinstance(found, list) else [found]


def value_id(value: object, argname: str, index: int, ids: object) -> str:
    """The id pytest gives a parameter value (the cases these modules use)."""
    if callable(ids):
        made = ids(value)
        if isinstance(made, str):
            return made
    if isinstance(value, str | int | float | bool) or value is None:
        return str(value)
    return f"{argname}{index}"


def parameter_sets(mark: pytest.Mark) -> Iterator[tuple[str, dict[str, Any], list[pytest.Mark]]]:
    """(id, arguments, marks) for each parameter of one `parametrize` mark."""
    argnames = [name.strip() for name in str(mark.args[0]).split(",")]
    ids = mark.kwargs.get("ids")
    for index, entry in enumerate(mark.args[1]):
        values = getattr(entry, "values", None)
        if values is None:
            values = (entry,) if len(argnames) == 1 else tuple(entry)
        entry_id = getattr(entry, "id", None)
        if entry_id is None:
            entry_id = "-".join(
                value_id(v, n, index, ids) for n, v in zip(argnames, values, strict=True)
            )
        yield entry_id, dict(zip(argnames, values, strict=True)), list(getattr(entry, "marks", ()))


def module_checks_loop_errors(module: Any) -> bool:
    for mark in marks_of(module):
        if mark.name != "usefixtures" or not set(mark.args) <= MODULE_FIXTURES:
            raise UnsupportedTest(f"{module.__name__}: module mark {mark.name}{mark.args}")
    return any(mark.name == "usefixtures" for mark in marks_of(module))


def node_path(file: Path) -> str:
    """How pytest names a test file: relative to python/, where pytest runs."""
    return (
        file.relative_to(TESTS.parent).as_posix()
        if file.is_relative_to(TESTS.parent)
        else file.name
    )


def items_of(module: Any) -> Iterator[Item]:
    checks_loop_errors = module_checks_loop_errors(module)
    path = node_path(Path(module.__file__))
    for name, function in inspect.getmembers(module, inspect.isfunction):
        if not name.startswith("test_") or function.__module__ != module.__name__:
            continue
        combos: list[tuple[list[str], dict[str, Any], list[pytest.Mark]]] = [([], {}, [])]
        for mark in reversed(marks_of(function)):
            if mark.name != "parametrize":
                raise UnsupportedTest(f"{path}::{name}: mark {mark.name}")
            combos = [
                ([*ids, entry_id], {**args, **more}, [*marks, *more_marks])
                for ids, args, marks in combos
                for entry_id, more, more_marks in parameter_sets(mark)
            ]
        wanted = set(inspect.signature(function).parameters)
        unknown = wanted - FIXTURES - set(combos[0][1])
        if unknown:
            raise UnsupportedTest(f"{path}::{name}: fixture(s) {', '.join(sorted(unknown))}")
        backends: list[jsonlib.JsonBackend | None] = (
            list(jsonlib.available_backends()) if "json_backend" in wanted else [None]
        )
        for backend in backends:
            for ids, args, marks in combos:
                all_ids = ([backend] if backend else []) + ids
                yield make_item(
                    f"{path}::{name}" + (f"[{'-'.join(all_ids)}]" if all_ids else ""),
                    function,
                    args,
                    backend,
                    checks_loop_errors,
                    marks,
                )


def make_item(
    node_id: str,
    function: Callable[..., Any],
    arguments: dict[str, Any],
    backend: jsonlib.JsonBackend | None,
    checks_loop_errors: bool,
    marks: list[pytest.Mark],
) -> Item:
    xfail = next((m for m in marks if m.name == "xfail"), None)
    skip = next((m for m in marks if m.name == "skip"), None)
    for mark in marks:
        if mark.name not in ("xfail", "skip") or (
            mark.name == "xfail" and mark.kwargs.get("strict") is not True
        ):
            raise UnsupportedTest(f"{node_id}: parameter mark {mark.name}{mark.kwargs}")
    return Item(
        node_id=node_id,
        function=function,
        arguments=arguments,
        json_backend=backend,
        checks_loop_errors=checks_loop_errors,
        xfail_reason=None if xfail is None else str(xfail.kwargs.get("reason", "")),
        skip_reason=None if skip is None else str(skip.kwargs.get("reason", "")),
    )


def collect(module_names: list[str]) -> list[Item]:
    return [item for name in module_names for item in items_of(importlib.import_module(name))]


# ---------------------------------------------------------------- running


async def call(item: Item) -> None:
    """The test, with what its fixtures do around it: a JSON backend, the loop-error check."""
    arguments = dict(item.arguments)
    previous = None
    if item.json_backend is not None:
        arguments["json_backend"] = item.json_backend
        previous = jsonlib.set_backend(item.json_backend)
    try:
        if not item.checks_loop_errors:
            await maybe_await(item.function(**arguments))
            return
        async with capturing_loop_errors() as errors:
            await maybe_await(item.function(**arguments))
        assert errors == [], f"the event loop logged errors: {errors}"
    finally:
        if previous is not None:
            jsonlib.set_backend(previous)


async def maybe_await(result: object) -> None:
    if inspect.isawaitable(result):
        await result


def run(items: list[Item]) -> Outcome:
    outcome = Outcome()
    for item in items:
        if item.skip_reason is not None:
            outcome.skipped += 1
            continue
        try:
            # A fresh event loop per test, as pytest-asyncio gives each test.
            asyncio.run(call(item))
            failure = None
        except pytest.skip.Exception:
            outcome.skipped += 1
            continue
        except (Exception, pytest.fail.Exception) as error:  # the test's, whatever it raised
            failure = describe_failure(error)
        if item.xfail_reason is None and failure is None:
            outcome.passed += 1
        elif item.xfail_reason is None and failure is not None:
            outcome.failures.append({"id": item.node_id, "detail": failure})
        elif failure is not None:
            outcome.xfailed += 1
        else:
            detail = f"passed, but is marked xfail(strict=True): {item.xfail_reason}"
            outcome.failures.append({"id": item.node_id, "detail": detail})
    return outcome


def describe_failure(error: BaseException) -> str:
    """The traceback from the test's own frames on (not the runner's or asyncio's)."""
    skipped = (str(Path(__file__)), str(Path(asyncio.__file__).parent))
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if not f.filename.startswith(skipped)
    ]
    lines = traceback.format_list(frames) + traceback.format_exception_only(error)
    return "".join(lines).rstrip()


def report(outcome: Outcome, seconds: float) -> str:
    counts = [f"{outcome.passed} passed"]
    counts += [f"{len(outcome.failures)} failed"] if outcome.failures else []
    counts += [f"{outcome.xfailed} xfailed"] if outcome.xfailed else []
    counts += [f"{outcome.skipped} skipped"] if outcome.skipped else []
    lines = [f"\n--- FAILED {f['id']}\n{f['detail']}" for f in outcome.failures]
    if outcome.failures:
        ids = " ".join(f"'{f['id']}'" for f in outcome.failures[:5])
        lines.append(
            f"\nRerun under pytest for its assertion diff (from python/):\n  "
            f".venv/bin/python -m pytest -q {ids}"
        )
    lines.append(f"vectors (Python, one process): {', '.join(counts)} in {seconds:.1f} s")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m vectors.batch", description=__doc__)
    parser.add_argument("modules", nargs="*", default=list(DEFAULT_MODULES))
    parser.add_argument("--json", type=Path, help="also write the outcome as JSON to FILE")
    parser.add_argument("--list", action="store_true", help="print the test ids and exit")
    options = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        items = collect(options.modules)
    except UnsupportedTest as error:
        print(f"vectors.batch: {error}: run it under pytest", file=sys.stderr)
        return 2
    if options.list:
        print("\n".join(item.node_id for item in items))
        return 0
    # What the imports made lives to the end: no collection needs to walk it again. The
    # loop-error check collects after every test; with this it costs microseconds, not 15 ms.
    gc.collect()
    gc.freeze()
    outcome = run(items)
    seconds = time.perf_counter() - started
    print(report(outcome, seconds))
    if options.json is not None:
        result = {"total": len(items), "seconds": seconds, **outcome.__dict__}
        options.json.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    return 1 if outcome.failures or not items else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The one-process vector runner of `pnpm test:quick` (tests/vectors/batch.py), run as the quick
check runs it: it plans exactly the tests pytest collects, and it fails, passes, skips and refuses
as pytest would, including the loop-error check of `no_loop_errors`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from dsh_sdk import jsonlib
from time_budget import budget

TESTS = Path(__file__).resolve().parent
VECTOR_MODULES = ("tests/test_vectors.py", "tests/test_vectors_coverage.py")


def run_batch(*args: str, extra_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"PYTHONPATH": str(extra_path)} if extra_path else {})}
    return subprocess.run(
        [sys.executable, "-m", "vectors.batch", *args],
        cwd=TESTS,
        env=env,
        capture_output=True,
        text=True,
        timeout=budget(120),
        check=False,
    )


def test_plans_exactly_the_tests_pytest_collects() -> None:
    collected = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--collect-only",
            *VECTOR_MODULES,
        ],
        cwd=TESTS.parent,
        capture_output=True,
        text=True,
        timeout=budget(120),
        check=True,
    )
    pytest_ids = sorted(line for line in collected.stdout.splitlines() if "::" in line)
    planned = run_batch("--list")
    assert planned.returncode == 0, planned.stderr
    assert len(pytest_ids) > 700
    assert sorted(planned.stdout.splitlines()) == pytest_ids


SYNTHETIC = """
import asyncio

import pytest

pytestmark = pytest.mark.usefixtures("no_loop_errors")


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(1, id="one"),
        pytest.param(2, id="two-fails"),
        pytest.param(3, id="known", marks=pytest.mark.xfail(strict=True, reason="bug 3")),
        pytest.param(4, id="fixed", marks=pytest.mark.xfail(strict=True, reason="bug 4")),
        pytest.param(5, id="later", marks=pytest.mark.skip(reason="not yet")),
    ],
)
def test_values(value: int, json_backend: str) -> None:
    assert value in (1, 4), f"value {value} with {json_backend}"


async def test_a_dropped_task_error_fails() -> None:
    async def boom() -> None:
        raise RuntimeError("never retrieved")

    task = asyncio.ensure_future(boom())
    await asyncio.sleep(0)
    del task
"""


def test_reports_failures_xfails_skips_and_loop_errors_as_pytest_would(tmp_path: Path) -> None:
    (tmp_path / "test_synthetic.py").write_text(textwrap.dedent(SYNTHETIC), "utf-8")
    report = tmp_path / "report.json"
    done = run_batch("test_synthetic", "--json", str(report), extra_path=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    outcome = json.loads(report.read_text("utf-8"))
    backends = jsonlib.available_backends()
    failed = {failure["id"] for failure in outcome["failures"]}
    expected = {f"test_synthetic.py::test_values[{b}-two-fails]" for b in backends}
    expected |= {f"test_synthetic.py::test_values[{b}-fixed]" for b in backends}
    expected.add("test_synthetic.py::test_a_dropped_task_error_fails")
    assert failed == expected
    assert outcome["passed"] == len(backends)
    assert outcome["xfailed"] == len(backends)
    assert outcome["skipped"] == len(backends)
    assert "value 2 with" in done.stdout
    assert "never retrieved" in done.stdout
    assert "passed, but is marked xfail(strict=True): bug 4" in done.stdout
    assert "Rerun under pytest" in done.stdout


def test_refuses_a_test_it_cannot_run_as_pytest_would(tmp_path: Path) -> None:
    (tmp_path / "test_fixtures.py").write_text(
        "def test_needs_tmp_path(tmp_path):\n    assert tmp_path\n", "utf-8"
    )
    done = run_batch("test_fixtures", extra_path=tmp_path)
    assert done.returncode == 2
    assert "test_fixtures.py::test_needs_tmp_path: fixture(s) tmp_path" in done.stderr
    assert "run it under pytest" in done.stderr

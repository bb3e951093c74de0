"""The shared vectors are complete and every file in them is claimed by the runner
(test-vectors/README.md, "Adding a case"); the twin of
`packages/protocol/test/vectors-coverage.test.ts`. Reads the IDL itself, not the generated code."""

from __future__ import annotations

import re
from typing import Any

import pytest

from vectors.cases import (
    METHODS,
    SUITES,
    VECTORS_ROOT,
    IdlMethod,
    Suite,
    folder_of,
    is_wire_file,
    json_equal,
    list_cases,
    list_vector_files,
    method_by_folder,
    read_frames,
    read_json,
    suite,
    type_examples,
)

KEBAB_CASE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def claim(file: str) -> tuple[Suite, str] | str:
    """The suite that claims a file and the case name it gives it, or why none does."""
    owner = next((s for s in SUITES if file.startswith(f"{s.folder}/")), None)
    if owner is None:
        return "no runner claims its folder"
    rest = file[len(owner.folder) + 1 :].split("/")
    if owner.is_per_method:
        if len(rest) != 2:
            return f"{owner.folder} holds cases in one folder per method"
        if method_by_folder(rest[0]) is None:
            return f"{rest[0]} is not the folder of an IDL method"
    elif len(rest) != 1:
        return f"{owner.folder} has no sub-folders"
    base = rest[-1]
    ext = next((e for e in (owner.expect_ext, owner.wire_ext) if base.endswith(e)), None)
    if ext is None:
        return f"{owner.folder} holds only {owner.wire_ext} and {owner.expect_ext} files"
    return owner, base[: -len(ext)]


# --- the vector tree -----------------------------------------------------------------------


def test_the_tree_has_only_the_folders_the_runners_claim_at_its_top() -> None:
    top = sorted(path.name for path in VECTORS_ROOT.iterdir())
    claimed = {s.folder.split("/")[0] for s in SUITES}
    assert [entry for entry in top if entry != "README.md" and entry not in claimed] == []
    assert sorted(path.name for path in (VECTORS_ROOT / "framing").iterdir()) == ["read", "write"]
    for entry in top:
        if entry != "README.md":
            assert (VECTORS_ROOT / entry).is_dir(), entry


def test_every_file_is_claimed_by_a_runner_under_a_kebab_case_name() -> None:
    problems = []
    for file in list_vector_files():
        if file == "README.md":
            continue
        claimed = claim(file)
        if isinstance(claimed, str):
            problems.append(f"{file}: {claimed}")
        elif not KEBAB_CASE.match(claimed[1]):
            problems.append(f"{file}: the name is not kebab-case")
    assert problems == []


def test_every_case_has_its_expectation_and_every_expectation_its_case() -> None:
    problems = []
    for file in list_vector_files():
        claimed = claim(file)
        if isinstance(claimed, str):
            continue
        owner = claimed[0]
        is_wire = is_wire_file(owner, file)
        stem = file[: -len(owner.wire_ext if is_wire else owner.expect_ext)]
        other = stem + (owner.expect_ext if is_wire else owner.wire_ext)
        if not (VECTORS_ROOT / other).exists():
            problems.append(f"{file}: {other} is missing")
    assert problems == []


@pytest.mark.parametrize("folder", [s.folder for s in SUITES])
def test_every_folder_has_cases(folder: str) -> None:
    assert len(list_cases(suite(folder))) > 0


# --- the expectations ----------------------------------------------------------------------


@pytest.mark.parametrize("folder", [s.folder for s in SUITES if s.expect_keys is not None])
def test_expectations_have_a_description_and_only_the_members_their_folder_defines(
    folder: str,
) -> None:
    owner = suite(folder)
    allowed = set(owner.expect_keys or ())
    problems = []
    for case in list_cases(owner):
        if not case.expect_path.exists():
            continue
        expectation = read_json(case.expect_path)
        if not isinstance(expectation, dict):
            problems.append(f"{case.id}: not an object")
            continue
        extra = sorted(set(expectation) - allowed)
        if extra:
            problems.append(f"{case.id}: unknown members {', '.join(extra)}")
        description = expectation.get("description")
        if not isinstance(description, str) or not description:
            problems.append(f"{case.id}: no description")
    assert problems == []


# --- every IDL method ----------------------------------------------------------------------


def payloads_of(folder: str) -> tuple[list[Any], list[Any], dict[str, list[Any]]]:
    """Params and results of every frame in the messages/ cases of a method, and per case both
    (absent members as None, as the TypeScript test has them as undefined)."""
    params: list[Any] = []
    results: list[Any] = []
    by_case: dict[str, list[Any]] = {}
    for case in list_cases(suite("messages")):
        if not case.id.startswith(f"messages/{folder}/"):
            continue
        payloads: list[Any] = []
        for line in read_frames(case.wire_path):
            if "params" in line.frame:
                params.append(line.frame["params"])
            if "result" in line.frame:
                results.append(line.frame["result"])
            payloads += [line.frame.get("params"), line.frame.get("result")]
        by_case[case.id] = payloads
    return params, results, by_case


def method_id(method: IdlMethod) -> str:
    return method.method


@pytest.mark.parametrize("method", METHODS, ids=method_id)
def test_every_method_has_a_valid_and_an_invalid_case(method: IdlMethod) -> None:
    for root in ("messages", "invalid"):
        found = [c for c in list_cases(suite(root)) if c.method == method]
        assert found, f"{root}/{folder_of(method)}/ has no case"


@pytest.mark.parametrize("method", METHODS, ids=method_id)
def test_every_idl_example_of_a_method_appears_in_its_messages(method: IdlMethod) -> None:
    params, results, _ = payloads_of(folder_of(method))
    missing = [
        *(e for e in type_examples(method.params) if not any(json_equal(p, e) for p in params)),
        *(e for e in type_examples(method.result) if not any(json_equal(r, e) for r in results)),
    ]
    assert missing == []


@pytest.mark.parametrize("method", METHODS, ids=method_id)
def test_a_case_is_named_idl_example_only_if_it_holds_an_idl_example(method: IdlMethod) -> None:
    examples = [*type_examples(method.params), *type_examples(method.result)]
    _, _, by_case = payloads_of(folder_of(method))
    impostors = [
        case_id
        for case_id, payloads in by_case.items()
        if case_id.split("/")[-1].startswith("idl-example-")
        and not any(json_equal(p, e) for p in payloads for e in examples)
    ]
    assert impostors == []

"""The shared golden vectors (test-vectors/, see its README): where they are, which folder each
runner claims, how cases pair with their expectations, the IDL they are checked against, and JSON
value equality as the README defines it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from dsh_sdk._gen.methods import METHODS as GENERATED_METHODS

REPO_ROOT = Path(__file__).resolve().parents[3]
VECTORS_ROOT = REPO_ROOT / "test-vectors"

JsonObject = dict[str, Any]
FrameKind = Literal["request", "response", "notification"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Suite:
    """A folder of vectors and the runner that claims it."""

    folder: str
    """Path under test-vectors/, with `/`."""
    is_per_method: bool
    """Cases live in one sub-folder per IDL method (`messages/<method>/`)."""
    wire_ext: str
    expect_ext: str
    expect_keys: tuple[str, ...] | None
    """Members an expectation may have (None: the expectation is not JSON)."""


def _suite(folder: str, is_per_method: bool, expect_keys: tuple[str, ...]) -> Suite:
    return Suite(
        folder=folder,
        is_per_method=is_per_method,
        wire_ext=".ndjson",
        expect_ext=".expect.json",
        expect_keys=expect_keys,
    )


SUITES: tuple[Suite, ...] = (
    _suite(
        "framing/read",
        False,
        (
            "description",
            "maxFrameBytes",
            "splitAt",
            "pendingRequests",
            "messages",
            "reports",
            "refusals",
            "inputEnds",
        ),
    ),
    Suite(
        folder="framing/write",
        is_per_method=False,
        wire_ext=".json",
        expect_ext=".expect.ndjson",
        expect_keys=None,
    ),
    _suite("messages", True, ("description", "outcome")),
    _suite("invalid", True, ("description", "outcome", "pointers")),
    _suite("open-unions", False, ("description", "outcome")),
    _suite(
        "exchanges",
        False,
        ("description", "runtime", "ignoreNotifications", "serverProtocolVersion", "chunkDelayMs"),
    ),
)


def suite(folder: str) -> Suite:
    return next(s for s in SUITES if s.folder == folder)


# ---------------------------------------------------------------- the IDL


@dataclass(frozen=True, kw_only=True, slots=True)
class IdlMethod:
    """A method as the IDL writes it (read from protocol.idl.json, not from generated code)."""

    name: str
    method: str
    direction: Literal["clientToServer", "serverToClient"]
    kind: Literal["request", "notification"]
    params: str | None
    result: str | None

    @property
    def py_name(self) -> str:
        """The generated Python name: `sessionPrompt` → `session_prompt`."""
        return snake_case(self.name)


IDL: JsonObject = json.loads((REPO_ROOT / "protocol.idl.json").read_text("utf-8"))
METHODS: tuple[IdlMethod, ...] = tuple(
    IdlMethod(
        name=m["name"],
        method=m["method"],
        direction=m["direction"],
        kind=m["kind"],
        params=m.get("params"),
        result=m.get("result"),
    )
    for m in IDL["methods"]
)


def snake_case(name: str) -> str:
    return re.sub(r"[A-Z]", lambda match: f"_{match.group().lower()}", name)


FOLDERS: Final[Mapping[str, str]] = {m.kebab_name: m.name for m in GENERATED_METHODS}
"""The folder of a method's cases (`session-prompt`) → its IDL name, as the generator spells it."""


def folder_of(method: IdlMethod) -> str:
    """The folder of a method's cases: the generated method table's `kebab_name`."""
    return next(m.kebab_name for m in GENERATED_METHODS if m.name == method.name)


def method_by_folder(folder: str) -> IdlMethod | None:
    name = FOLDERS.get(folder)
    return next((m for m in METHODS if m.name == name), None)


def method_by_wire_name(wire_name: object) -> IdlMethod | None:
    return next((m for m in METHODS if m.method == wire_name), None)


def type_examples(type_name: str | None) -> list[Any]:
    """The IDL examples of a type (empty for none)."""
    if type_name is None:
        return []
    examples: list[Any] = IDL["types"].get(type_name, {}).get("examples", [])
    return examples


def frame_class_name(method: IdlMethod, kind: FrameKind) -> str:
    """The generated class of one method's frames, e.g. `SessionPromptRequestFrame`."""
    suffix = {"request": "Request", "response": "Response", "notification": "Notification"}[kind]
    return f"{method.name[0].upper()}{method.name[1:]}{suffix}Frame"


# ---------------------------------------------------------------- cases


@dataclass(frozen=True, kw_only=True, slots=True)
class VectorCase:
    """One case: a wire file and its expectation."""

    id: str
    """The test id: the wire file's path under test-vectors/ without its extension."""
    suite: Suite
    method: IdlMethod | None
    """For per-method suites: the IDL method the folder names."""
    wire_path: Path
    expect_path: Path

    def expectation(self) -> Any:
        return read_json(self.expect_path)


def list_vector_files() -> list[str]:
    """Every file under test-vectors/, as paths relative to it written with `/`, sorted."""
    return sorted(
        path.relative_to(VECTORS_ROOT).as_posix()
        for path in VECTORS_ROOT.rglob("*")
        if path.is_file()
    )


def is_wire_file(target: Suite, file: str) -> bool:
    """True for a suite's wire file (an expectation also ends in `.json` or `.ndjson`)."""
    return file.endswith(target.wire_ext) and not file.endswith(target.expect_ext)


def list_cases(target: Suite) -> list[VectorCase]:
    """The cases of a suite: each wire file, whether or not its expectation exists."""
    prefix = f"{target.folder}/"
    cases: list[VectorCase] = []
    for file in list_vector_files():
        if not file.startswith(prefix) or not is_wire_file(target, file):
            continue
        stem = file[: -len(target.wire_ext)]
        folder = file[len(prefix) :].split("/")[0]
        cases.append(
            VectorCase(
                id=stem,
                suite=target,
                method=method_by_folder(folder) if target.is_per_method else None,
                wire_path=VECTORS_ROOT / file,
                expect_path=VECTORS_ROOT / (stem + target.expect_ext),
            )
        )
    return cases


def case_id(case: VectorCase) -> str:
    return case.id


def read_json(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


@dataclass(frozen=True, kw_only=True, slots=True)
class FrameLine:
    """One line of a vector: its exact text and the frame it holds."""

    raw: str
    frame: JsonObject
    kind: FrameKind


def read_ndjson(path: Path) -> list[tuple[str, Any]]:
    """The lines of an NDJSON file, parsed, each beside its raw text."""
    text = path.read_text("utf-8")
    if not text.endswith("\n"):
        raise ValueError(f"{path}: the last line has no \\n")
    return [(raw, json.loads(raw)) for raw in text[:-1].split("\n")]


def read_frames(path: Path) -> list[FrameLine]:
    lines: list[FrameLine] = []
    for raw, value in read_ndjson(path):
        if not isinstance(value, dict):
            raise ValueError(f"{path}: a frame is an object")
        lines.append(FrameLine(raw=raw, frame=value, kind=frame_kind(value)))
    return lines


def frame_kind(frame: JsonObject) -> FrameKind:
    """Classifies a well-formed frame of a vector (these folders hold no malformed ones)."""
    if "method" in frame:
        return "request" if "id" in frame else "notification"
    return "response"


def response_to(lines: list[FrameLine], request: FrameLine) -> FrameLine | None:
    """The response a file pairs with a request: the later line with the same id."""
    after = lines[lines.index(request) + 1 :]
    return next(
        (
            line
            for line in after
            if line.kind == "response" and json_equal(line.frame["id"], request.frame["id"])
        ),
        None,
    )


# ---------------------------------------------------------------- JSON values


def json_equal(a: object, b: object) -> bool:
    """JSON value equality as the README defines it: absent and present stay apart, numbers
    compare by value (`4096.0` is `4096`), a boolean is never a number, member order is free."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[key], b[key]) for key in a)
    return False


def dumps(value: object) -> str:
    """Compact JSON for failure messages."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=repr)


def without_jsonrpc(message: JsonObject) -> JsonObject:
    """An expected message as the runner can observe it: `jsonrpc` is not compared."""
    return {key: value for key, value in message.items() if key != "jsonrpc"}


def relative_pointers(pointers: list[str], member: str) -> list[str]:
    """Pointers into a frame's `params` or `result`, made relative to it (`/params/a` → `/a`)."""
    prefix = f"/{member}"
    return [p[len(prefix) :] if p == prefix or p.startswith(f"{prefix}/") else p for p in pointers]

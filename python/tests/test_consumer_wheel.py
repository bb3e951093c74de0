"""The package as a consumer gets it: packed and installed with the commands of the README's
install block (scripts/pack.sh builds a wheel and an sdist with `python -m build`, then `pip
install` of the wheel into a fresh venv outside the repository: no source tree), both checked
with `twine check`, then the README's Python examples run there and a typed snippet passes `mypy
--strict` against the installed package. Runs under every interpreter `pnpm test:py` uses."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from dsh_sdk import SERVER_NAME, Method
from time_budget import budget

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPOSITORY = PYTHON_DIR.parent
README = REPOSITORY / "README.md"
GEN_DIR = PYTHON_DIR / "src" / "dsh_sdk" / "_gen"
# The consumer's project folder in the README's install block; the tests put a scratch one.
README_PROJECT = "~/my-app"


@dataclass(frozen=True, kw_only=True, slots=True)
class Consumer:
    """The project the README's commands packed into; the fresh venv that installed the wheel."""

    venv: Path
    project: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def distribution(self, suffix: str) -> Path:
        [found] = self.project.glob(f"dsh_sdk-*{suffix}")
        return found


@dataclass(frozen=True, kw_only=True, slots=True)
class InstallStep:
    """One command of the README's install block, where it runs (`cd` lines move the folder)."""

    argv: tuple[str, ...]
    cwd: Path


def run(*command: str | Path, cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """Runs a command to completion; fails the test with its output if it fails."""
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done


def readme_install_steps(project: Path) -> list[InstallStep]:
    """The README's ```sh install-from-artifacts block as commands, comments dropped, its project
    folder replaced by `project`: the commands the tests run, exactly as a consumer types them."""
    found = re.search(
        r"^```sh install-from-artifacts\n(.*?)^```", README.read_text("utf-8"), re.M | re.S
    )
    assert found, "README.md has no ```sh install-from-artifacts block"
    steps: list[InstallStep] = []
    cwd = REPOSITORY  # the block starts in the checkout
    for line in found[1].splitlines():
        argv = tuple(str(project) if w == README_PROJECT else w for w in line.split("#")[0].split())
        if argv and argv[0] == "cd":
            cwd = Path(argv[1])
        elif argv:
            steps.append(InstallStep(argv=argv, cwd=cwd))
    return steps


def step_of(steps: list[InstallStep], program: str) -> InstallStep:
    """The install block's one step that runs `program` (`bash`, `cp`, `npm`, `pip`, `npx`)."""
    [found] = [step for step in steps if step.argv[0] == program]
    return found


@pytest.fixture(scope="module")
def consumer(tmp_path_factory: pytest.TempPathFactory) -> Consumer:
    root = tmp_path_factory.mktemp("consumer")
    found = Consumer(venv=root / "venv", project=root / "project")
    found.project.mkdir()
    steps = readme_install_steps(found.project)
    for program in ("bash", "cp"):  # scripts/pack.sh into the project, then the example image
        step = step_of(steps, program)
        run(*step.argv, cwd=step.cwd, timeout=budget(600))
    run(sys.executable, "-m", "venv", found.venv, cwd=root)
    pip = step_of(steps, "pip")  # the README's `pip install`, with the fresh venv's pip
    run(found.venv / "bin" / "pip", *pip.argv[1:], cwd=pip.cwd)
    return found


# The pages whose examples run here: the README, then the guide it links to.
EXAMPLE_PAGES = (README, REPOSITORY / "docs" / "guide.md")


def readme_examples(language: str) -> list[str]:
    """The code blocks tagged `consumer-example` in `language`, page by page, in order."""
    pattern = rf"^```{language} consumer-example\n(.*?)^```"
    return [
        example
        for page in EXAMPLE_PAGES
        for example in re.findall(pattern, page.read_text("utf-8"), re.MULTILINE | re.DOTALL)
    ]


def test_twine_accepts_both_distributions(consumer: Consumer) -> None:
    wheel, sdist = consumer.distribution(".whl"), consumer.distribution(".tar.gz")
    run(sys.executable, "-m", "twine", "check", "--strict", wheel, sdist, cwd=consumer.project)


def test_the_wheel_holds_the_typing_marker_every_generated_module_and_the_schema(
    consumer: Consumer,
) -> None:
    names = set(zipfile.ZipFile(consumer.distribution(".whl")).namelist())
    generated = {f"dsh_sdk/_gen/{path.name}" for path in GEN_DIR.iterdir() if path.is_file()}
    assert "dsh_sdk/_gen/protocol.schema.json" in generated
    assert generated <= names
    acp_gen = GEN_DIR.parent / "acp" / "_gen"
    acp_generated = {
        f"dsh_sdk/acp/_gen/{path.name}" for path in acp_gen.iterdir() if path.is_file()
    }
    assert {"dsh_sdk/acp/_gen/peers.py", "dsh_sdk/acp/_gen/models.py"} <= acp_generated <= names
    assert "dsh_sdk/py.typed" in names
    assert not any(name.startswith(("tests/", "bench/")) for name in names)


def test_the_sdist_holds_the_sources_and_the_generated_modules(consumer: Consumer) -> None:
    with tarfile.open(consumer.distribution(".tar.gz")) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    generated = {f"src/dsh_sdk/_gen/{path.name}" for path in GEN_DIR.iterdir() if path.is_file()}
    assert generated <= names
    assert {"pyproject.toml", "src/dsh_sdk/py.typed", "README.md"} <= names


def test_both_distributions_carry_the_repository_license(consumer: Consumer) -> None:
    license_text = (REPOSITORY / "LICENSE").read_text("utf-8")
    wheel_path = consumer.distribution(".whl")
    release = "-".join(wheel_path.name.split("-")[:2])  # dsh_sdk-<version>
    with zipfile.ZipFile(wheel_path) as wheel:
        info = f"{release}.dist-info"
        metadata = wheel.read(f"{info}/METADATA").decode()
        assert wheel.read(f"{info}/licenses/LICENSE").decode() == license_text
    assert "License-Expression: MIT\n" in metadata
    assert license_text.startswith("MIT License\n")
    with tarfile.open(consumer.distribution(".tar.gz")) as sdist:
        member = sdist.extractfile(f"{release}/LICENSE")
        assert member is not None
        assert member.read().decode() == license_text


def link_targets(markdown: str) -> list[str]:
    """Every link target of a markdown text: inline, reference definitions and HTML `href`s;
    code blocks and spans are not links."""
    prose = re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```", "", markdown, flags=re.M | re.S))
    patterns = [
        r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)",
        r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)",
        r'href="([^"]+)"',
    ]
    return [target for pattern in patterns for target in re.findall(pattern, prose, re.M)]


def test_the_packed_readme_stands_alone_no_relative_link_leaves_the_package(
    consumer: Consumer,
) -> None:
    wheel_path = consumer.distribution(".whl")
    release = "-".join(wheel_path.name.split("-")[:2])
    with zipfile.ZipFile(wheel_path) as wheel:
        metadata = wheel.read(f"{release}.dist-info/METADATA").decode()
    headers, description = metadata.split("\n\n", 1)  # the README is the metadata's body
    [repository] = re.findall(r"^Project-URL: Repository, (\S+)$", headers, re.M)
    targets = link_targets(description)
    problems = []
    for target in targets:
        if target.startswith("#"):
            continue
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            # The wheel holds no README: from its metadata (an index page, `pip show`) no
            # relative link resolves.
            problems.append(f"{target}: relative")
        elif "github.com" in target:  # the toolkit's repository: a file of this checkout
            found = re.match(rf"^{re.escape(repository)}/(?:blob|tree)/main/([^#?]*)", target)
            if found is None or not (REPOSITORY / found[1]).exists():
                problems.append(f"{target}: not a file of {repository}")
    assert problems == []
    assert f"{repository}/blob/main/README.md#installing" in targets


def test_the_installed_package_comes_from_the_venv_not_the_source_tree(consumer: Consumer) -> None:
    done = run(
        consumer.python, "-c", "import dsh_sdk; print(dsh_sdk.__file__)", cwd=consumer.project
    )
    location = Path(done.stdout.strip())
    assert location.is_relative_to(consumer.venv)


def test_the_runtime_command_is_on_the_venv_path_and_answers_the_handshake(
    consumer: Consumer,
) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": Method.INITIALIZE,
        "params": {"cwd": str(consumer.project), "provider": "echo", "model": "echo-1"},
    }
    # stdin ends after the request: the runtime answers, then exits 0 (WIRE: end of stdin).
    done = subprocess.run(
        [consumer.venv / "bin" / "dsh-sdk-runtime-py"],
        input=json.dumps(initialize) + "\n",
        capture_output=True,
        text=True,
        timeout=budget(60),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [answer] = [json.loads(line) for line in done.stdout.splitlines()]
    assert answer["id"] == 1
    assert answer["result"]["serverInfo"]["name"] == SERVER_NAME


@pytest.mark.parametrize("index", range(len(readme_examples("python"))))
def test_the_readme_python_example_runs_against_the_installed_package(
    consumer: Consumer, index: int
) -> None:
    script = consumer.project / f"readme_example_{index}.py"
    source = readme_examples("python")[index]
    script.write_text(source, encoding="utf-8")
    done = run(consumer.python, script, cwd=consumer.project, timeout=budget(60))
    # Each example prints the run's final response (the echo agent echoes the prompt).
    assert "Echo: " in done.stdout, done.stdout
    # The streaming example prints a line per delta; a reply in pieces has several.
    if 'print("delta"' in source:
        assert len(re.findall(r"^delta '", done.stdout, re.MULTILINE)) > 1, done.stdout
    # The examples that stop a run print how it ended: it really was interrupted.
    if ".interrupt()" in source or "task.cancel()" in source:
        assert re.search(r"^(cancelled: )?aborted 'Echo: ", done.stdout, re.MULTILINE), done.stdout


def test_the_acp_page_python_example_runs_against_the_installed_package(
    consumer: Consumer,
) -> None:
    # docs/acp.md's example asserts what it shows: exit 0 is its verdict.
    page = (REPOSITORY / "docs" / "acp.md").read_text("utf-8")
    [source] = re.findall(r"^```python consumer-example\n(.*?)^```", page, re.M | re.S)
    script = consumer.project / "acp_example.py"
    script.write_text(source, encoding="utf-8")
    run(consumer.python, script, cwd=consumer.project, timeout=budget(60))


def test_the_examples_stream_and_interrupt_in_python() -> None:
    # The output checks above apply only where an example makes the call: make sure they apply.
    examples = readme_examples("python")
    assert [e for e in examples if 'print("delta"' in e], "no streaming example"
    assert [e for e in examples if ".interrupt()" in e], "no interrupt example"


def mypy_strict(consumer: Consumer, source: str) -> subprocess.CompletedProcess[str]:
    snippet = consumer.project / "typed_snippet.py"
    snippet.write_text(source, encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--python-executable",
            str(consumer.python),
            "--cache-dir",
            str(consumer.project / ".mypy_cache"),
            snippet.name,
        ],
        cwd=consumer.project,
        capture_output=True,
        text=True,
        timeout=budget(180),
        check=False,
    )


TYPED_SNIPPET = """
import asyncio

from dsh_sdk import InitializeParams, SessionStatusNotification
from dsh_sdk.client import (
    HarnessClient,
    InvalidParamsError,
    JsonRpcResponseError,
    RunResult,
    RunTimeoutError,
    SyncHarnessClient,
    TextStream,
    cancelled_run_result,
)


async def finish_reason(route: InitializeParams) -> str | None:
    async with await HarnessClient.spawn(initialize=route) as client:
        result: RunResult = await client.run("hi")
        return result.finish_reason


async def streamed(route: InitializeParams) -> tuple[list[str], str, RunResult | None]:
    async with await HarnessClient.spawn(initialize=route) as client:
        reply: TextStream = client.stream_text("hi")
        deltas: list[str] = [delta async for delta in reply]
        stopped: RunResult = await reply.interrupt()
        try:
            await client.run("hi", timeout=1.0)
        except RunTimeoutError as error:
            return deltas, error.partial_response, None
        except asyncio.CancelledError as error:
            return deltas, stopped.partial_response, cancelled_run_result(error)
        return deltas, stopped.partial_response, None


def refused(error: InvalidParamsError) -> JsonRpcResponseError:
    return error


def synchronous(route: InitializeParams) -> str:
    client: SyncHarnessClient = HarnessClient.sync(initialize=route, request_timeout=5.0)
    with client:
        return client.run("hi").final_response


def is_idle(notification: SessionStatusNotification) -> bool:
    return notification.status == "idle"
"""


def test_a_typed_snippet_and_the_readme_examples_pass_mypy_strict_against_the_wheel(
    consumer: Consumer,
) -> None:
    for source in [TYPED_SNIPPET, *readme_examples("python")]:
        done = mypy_strict(consumer, source)
        assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_sees_the_options_of_the_sync_client_a_wrong_one_fails(consumer: Consumer) -> None:
    done = mypy_strict(
        consumer,
        "from dsh_sdk import InitializeParams\n"
        "from dsh_sdk.client import HarnessClient\n"
        "route = InitializeParams(cwd='.', provider='echo', model='echo-1')\n"
        "HarnessClient.sync(initialize=route, request_timeout='soon')\n"
        "HarnessClient.sync(initialize=route, request_timeut=5.0)\n",
    )
    assert done.returncode == 1
    assert 'Argument "request_timeout" to "sync" of "HarnessClient"' in done.stdout, done.stdout
    assert 'Unexpected keyword argument "request_timeut"' in done.stdout, done.stdout


def test_mypy_sees_the_installed_types_a_wrong_field_type_fails(consumer: Consumer) -> None:
    done = mypy_strict(
        consumer,
        "from dsh_sdk import InitializeParams\n"
        "InitializeParams(cwd='.', provider='echo', model='echo-1', max_tokens='many')\n",
    )
    assert done.returncode == 1
    assert 'Argument "max_tokens" to "InitializeParams" has incompatible type "str"' in done.stdout

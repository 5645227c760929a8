"""The README's quick start and the pages' first examples, run as they are shown.

* The quick start's pytest command, taken from the README, runs in ``demo/`` of a clone
  layout (the project's ``pyproject.toml`` with its own pytest settings one folder up),
  with the embedded model swapped for scripted ones (the model under test, judge and
  coder: seconds instead of minutes). It must read as the README says: ``demo`` is the
  rootdir, one ``pau::test_pau[...]`` line per instance, the ceiling under the summary, the
  report files and the model cache in ``demo/``, and a second run that asks no model.
* docs/datasets.md, "Dataset format": its two ``methods.jsonl`` files load to the same
  instances, and its commands list them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.report.json_report import read_report
from pytest_pau.scoring import run_code
from pytest_pau.testing import ScriptedLLM
from tests.docs.pages import all_text, fenced, section
from tests.docs.pages import commands as block_commands
from tests.firstrun.scripted import RULES, model_args

ROOT = Path(__file__).resolve().parents[1]


def quick_start_command() -> str:
    """The one line of the quick start's first bash block."""
    block = re.search(r"```bash\n(.*?)```", section("README.md", "## Quick start"), re.S)
    assert block is not None
    (line,) = block.group(1).strip().splitlines()
    return line


def test_getting_started_shows_the_readmes_two_commands_first_and_exactly() -> None:
    # The site has no README: docs/getting-started.md repeats its two commands, which
    # must stay the README's (CI's .ci/run and the tests here run the README's).
    readme = fenced(section("README.md", "## Quick start"), "bash")
    assert len(readme) == 2, readme
    assert fenced(section("getting-started.md", "## Quick start"), "bash") == readme


def _env() -> dict[str, str]:
    # The subprocess imports this checkout's pytest_pau (and finds the plugin through the
    # installed entry point, which names the module).
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def test_the_quick_start_installs_the_local_and_plots_extras_and_runs_in_demo() -> None:
    steps = quick_start_command().split(" && ")
    assert steps[:3] == [
        "python3.11 -m venv .venv",
        '.venv/bin/pip install -e ".[local]"',
        "cd demo",
    ]
    assert steps[3].startswith("../.venv/bin/pytest ")
    assert len(steps) == 4
    # The local extra brings the HTML report's plots (else: "No plots: ... plots extra").
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    local = re.search(r"^local = \[\n(.*?)\n\]", pyproject, re.S | re.M)
    assert local is not None
    assert '"pytest-pau[local-small,plots]"' in local.group(1)
    # demo/ is a folder of its own: its ini file makes it pytest's rootdir.
    assert (ROOT / "demo" / "pytest.ini").read_text(encoding="utf-8").count("[pytest]") == 1
    assert (ROOT / "demo" / "conftest.py").is_file()


@pytest.mark.slow
def test_the_quick_start_command_in_its_folder(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    clone.mkdir()
    shutil.copy(ROOT / "pyproject.toml", clone)  # the project's own pytest settings, one up
    shutil.copytree(ROOT / "demo", clone / "demo", ignore=shutil.ignore_patterns(".*_cache"))
    demo = clone / "demo"
    args = shlex.split(quick_start_command().split(" && ")[3])[1:]
    assert "--pau-model=local" in args
    with ScriptedLLM(RULES) as llm:
        argv = [a for a in args if a != "--pau-model=local"] + model_args(llm)
        run = subprocess.run(
            [sys.executable, "-m", "pytest", *argv],
            cwd=demo,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        out = run.stdout
        assert run.returncode == 1, out + run.stderr  # the items fail, as the README says
        asked = llm.requests

        again = subprocess.run(
            [sys.executable, "-m", "pytest", *argv],
            cwd=demo,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert again.returncode == 1, again.stdout + again.stderr
        assert llm.requests == asked, "a second run (and its ceiling) must come from the cache"

    assert f"rootdir: {demo}" in out
    assert "configfile: pytest.ini" in out
    assert "-p pytester" not in out
    assert "../pau" not in out
    # One line per instance, -v style: the item id, the phases, the outcome.
    lines = re.findall(r"^pau::test_pau\[(builtin/\w+)\] .*\b(PASSED|FAILED)\b", out, re.M)
    assert len(lines) == 1, out
    assert {outcome for _, outcome in lines} == {"FAILED"}
    report = read_report(demo / "report.json")
    assert [i.id for i in report.instances] == [item for item, _ in lines]
    assert all("smoke" in i.tags for i in report.instances)
    assert report.run.max_iterations == 3
    # The ceiling under the summary: the oracle with the same judge and coder.
    summary = out[out.index("= PAU summary =") :]
    assert re.search(
        r"^ceiling: the same 1 item with --pau-model=oracle \(the gold description as the "
        r"answer\), the same judge and coder\n +judge +match +passed\n"
        r"  openai/scripted +1\.00 +0\.00 +0/1\n  oracle +5\.00 +1\.00 +1/1$",
        summary,
        re.M,
    ), summary
    html = (demo / "report.html").read_text(encoding="utf-8")
    assert "<img" in html
    assert "No plots" not in html
    assert (demo / ".pau_cache" / "llm-cache.sqlite3").is_file()
    assert not (clone / ".pau_cache").exists()
    # The quick start's `pau show` commands, run as written from demo/ (the venv's script).
    shown = re.findall(
        r"`(\.\./\.venv/bin/pau show [^`]+)`", section("README.md", "## Quick start")
    )
    assert len(shown) == 2, shown
    for command in shown:
        words = shlex.split(" ".join(command.split()))
        assert words[0] == "../.venv/bin/pau"
        show = subprocess.run(
            [sys.executable, "-m", "pytest_pau", *words[1:]],
            cwd=demo,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert show.returncode == 0, command + show.stdout + show.stderr


def _dataset_blocks() -> list[str]:
    return fenced(section("datasets.md", "## Dataset format"), "jsonl")


def test_the_dataset_format_example_is_two_lines_in_both_conventions(tmp_path: Path) -> None:
    blocks = _dataset_blocks()
    assert [len(b.strip().splitlines()) for b in blocks] == [2, 2]
    loaded = {}
    for name, block in zip(("repr", "json"), blocks, strict=True):
        rows = [json.loads(line) for line in block.strip().splitlines()]
        assert [r["id"] for r in rows] == ["rev", "scale"]
        path = tmp_path / name / "methods.jsonl"
        path.parent.mkdir()
        path.write_text(block, encoding="utf-8")
        detected = load_dataset(str(path))
        assert detected.info.outputs == name
        assert detected.info.outputs_by == "detected"
        given = load_dataset(str(path), outputs=name)  # type: ignore[arg-type]
        assert given == detected
        loaded[name] = detected
    assert loaded["repr"] == loaded["json"]
    assert [i.id for i in loaded["repr"]] == ["methods/rev", "methods/scale"]
    for instance in loaded["repr"]:
        # The stored outputs are the method's: the code reproduces every example.
        examples = instance.train_examples + instance.test_examples
        assert run_code(instance.code, examples).score == 1.0


@pytest.mark.slow
def test_the_dataset_format_commands_list_the_items(tmp_path: Path) -> None:
    (block,) = fenced(section("datasets.md", "## Dataset format"), "bash")
    commands = block_commands(block)
    assert all(
        c.startswith("pytest --pau-model=oracle --pau-dataset=methods.jsonl") for c in commands
    )
    json_block = _dataset_blocks()[1]
    (tmp_path / "methods.jsonl").write_text(json_block, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    for command in commands:
        args = shlex.split(command)[1:]
        if "--collect-only" not in args:
            args += ["--collect-only", "-q"]  # the run itself is the plugin tests' business
        run = subprocess.run(
            [sys.executable, "-m", "pytest", *args],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert "pau::test_pau[methods/rev]" in run.stdout
        assert "pau::test_pau[methods/scale]" in run.stdout


def test_where_the_weights_come_from_names_what_the_code_checks() -> None:
    from importlib import metadata

    from pytest_pau.llm.local.weights import SPECS

    text = " ".join(section("providers.md", "### Where the weights come from").split())
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for spec in SPECS.values():
        assert spec.hf_repo in text
        assert spec.filename in text
        assert spec.sha256 in text
        assert f"`{spec.carrier_dist}1` .. `part{spec.n_parts}` `=={spec.carrier_version}`" in text
        for i in (1, spec.n_parts):
            assert f'"{spec.carrier_dist}{i}=={spec.carrier_version}"' in pyproject
        # What the README says of the chunk packages, checked where they are installed.
        try:
            dist = metadata.distribution(f"{spec.carrier_dist}1")
        except metadata.PackageNotFoundError:
            continue
        assert not dist.requires, dist.requires
        assert "Tag: py3-none-any" in (dist.read_text("WHEEL") or "")
        init = next(f for f in dist.files or [] if f.name == "__init__.py")
        source = Path(str(dist.locate_file(init))).read_text(encoding="utf-8")
        assert len(source.strip().splitlines()) == 4
        assert "def get_part_path():" in source
    pin = re.search(r'"(llama-cpp-python==[^"]+)"', pyproject)
    assert pin is not None
    assert f"pip install -e . {pin.group(1)} matplotlib" in text


def test_the_instances_the_pages_name_exist_and_pau_call_runs_one() -> None:
    ids = {i.id for i in load_dataset("builtin")}
    text = all_text()
    named = set(re.findall(r"-k \"(builtin/\w+)\"", text))
    calls = sorted(set(re.findall(r"(pau call builtin/\w+ \"\([^\"]*\)\")", text)))
    assert calls, "no page shows `pau call builtin/...` any more: update this test"
    named |= {shlex.split(call)[2] for call in calls}
    assert named <= ids, named - ids
    # The command as a user types it: a fresh interpreter, the package's entry module.
    run = subprocess.run(
        [sys.executable, "-m", "pytest_pau", *shlex.split(calls[0])[1:]],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"^value:  \S", run.stdout, re.M), run.stdout  # a value, not an error

"""docs/ci.md's GitHub Actions matrix, its commands run here with local paths.

Each shard job runs in its own folder (its own machine: its own checkout and model cache),
with the workflow's ``run:`` lines as written, ``${{ matrix.shard }}`` and
``${{ vars.PAU_MODEL }}`` filled in; the artifacts are copied to the merge job's folder,
whose ``run:`` lines merge the reports and import the caches. Then the next run of the
whole selection on the merged cache asks the scripted judge and coder nothing: the three
caches filled by different shards, imported into one, answer every request.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from pytest_pau.llm import ResponseCache
from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM

from .conftest import USER_CACHE
from .test_concurrency import write_dataset
from .toy import SCORING_RULES, write_toy

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def workflow() -> dict[str, Any]:
    section = PAGE.split("## A GitHub Actions matrix", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None
    data: dict[str, Any] = yaml.safe_load(block.group(1))
    return data


def runs(job: dict[str, Any], *, filled: bool = True, **values: str) -> list[str]:
    """The job's ``run:`` lines with ``${{ ... }}`` filled in (installs left out)."""
    out = []
    for step in job["steps"]:
        line = step.get("run")
        if line is None or line.startswith("pip install"):
            continue
        for name, value in values.items():
            line = line.replace("${{ " + name + " }}", value)
        assert not filled or "${{" not in line, line
        out.append(line)
    return out


def project(folder: Path, llm: ScriptedLLM) -> Path:
    """A checkout: the dataset and the ini file with the judge, coder and gate."""
    folder.mkdir()
    toy = write_toy(folder)
    # boom (its judge never rates) would error every run: this project has the other four.
    toy.write_text("\n".join(ln for ln in toy.read_text().splitlines() if '"boom"' not in ln))
    (folder / "pytest.ini").write_text(
        "[pytest]\n"
        "pau_dataset = toy.jsonl\n"
        f"pau_judge_model = {llm.model}\npau_judge_api_base = {llm.api_base}\n"
        f"pau_coder_model = {llm.model}\npau_coder_api_base = {llm.api_base}\n"
        "pau_min_pass_rate = 0.5\n"
    )
    return folder


def sh(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "PAU_USER_CACHE": USER_CACHE,
    }
    env.pop("GITHUB_STEP_SUMMARY", None)
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_workflow_has_the_shards_the_merge_and_the_cache_steps() -> None:
    jobs = workflow()["jobs"]
    assert jobs["shard"]["strategy"]["matrix"]["shard"] == [1, 2, 3]
    assert jobs["merge"]["needs"] == "shard"
    assert jobs["merge"]["if"] == "always()"
    shard, merge = runs(jobs["shard"], filled=False), runs(jobs["merge"])
    assert any("--pau-shard=${{ matrix.shard }}/3" in line for line in shard)
    assert any(line.startswith("pau cache export") for line in shard)
    assert any(line.startswith("pau merge") and "--gate" in line for line in merge)
    assert any(line.startswith("pau cache import") for line in merge)
    uses = [s.get("uses", "") for s in jobs["shard"]["steps"] + jobs["merge"]["steps"]]
    assert uses.count("actions/cache/restore@v4") == 2
    assert "actions/cache/save@v4" in uses


@pytest.mark.slow
def test_the_matrix_runs_here_and_its_merged_cache_answers_a_rerun_with_no_request(
    tmp_path: Path,
) -> None:
    jobs = workflow()["jobs"]
    with ScriptedLLM(SCORING_RULES) as llm:
        model = "oracle"  # the pseudo-model: the judge and the coder make every request
        for k in ("1", "2", "3"):
            machine = project(tmp_path / f"shard-{k}", llm)
            for line in runs(jobs["shard"], **{"matrix.shard": k, "vars.PAU_MODEL": model}):
                done = sh(line, machine)
                assert done.returncode == 0, (line, done.stdout[-3000:], done.stderr[-3000:])
        asked = llm.requests
        assert asked > 0

        merger = project(tmp_path / "merge", llm)
        for k in ("1", "2", "3"):  # actions/download-artifact, merge-multiple
            for name in (f"shard-{k}.json", f"cache-{k}.sqlite3"):
                shutil.copy(tmp_path / f"shard-{k}" / name, merger / name)
        outputs = []
        for line in runs(jobs["merge"]):
            done = sh(line, merger)
            assert done.returncode == 0, (line, done.stdout[-3000:], done.stderr[-3000:])
            outputs.append(done.stdout)
        merged = read_report(merger / "pau-report.json")
        assert merged.summary.counts.items == 4
        assert merged.summary.gates_passed
        assert "PAU release gates passed: exit status 0" in outputs[0]
        comment = (merger / "pau-comment.md").read_text()
        assert "### PAU: ✅ release gates passed" in comment
        assert len(comment.encode()) < 64 * 1024
        assert re.search(r"cache .*: \d+ entries added from 3 file\(s\)", outputs[1])

        # The next run, on the merged cache (what actions/cache/save keeps): no request.
        again = sh("pytest --pau-model=oracle --pau-report=again.json", merger)
        assert again.returncode == 0, again.stdout[-3000:]
        assert llm.requests == asked
        report = read_report(merger / "again.json")
        assert report.summary.requests == 0
        assert report.summary.cache_hits > 0


def bash_blocks(title: str) -> list[list[str]]:
    """The command lines of each bash block under ``title`` (comments dropped)."""
    section = PAGE.split(title, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    return [[ln.split("   #")[0].strip() for ln in block.strip().splitlines()] for block in blocks]


def test_the_pages_shard_and_cache_commands_run_as_written(
    pau_pytester: pytest.Pytester,
    scoring_llm: ScriptedLLM,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import shlex

    from pytest_pau.cli.main import main

    path = pau_pytester.path
    monkeypatch.chdir(path)
    shutil.rmtree(path / "project", ignore_errors=True)
    project(path / "project", scoring_llm)
    for name in ("toy.jsonl", "pytest.ini"):
        shutil.copy(path / "project" / name, path / name)
    (shards,) = bash_blocks("## Shards: one run over several machines")
    assert len(shards) == 4
    for line in shards:
        argv = shlex.split(line.replace("MODEL", "oracle"))
        if argv[0] == "pytest":
            result = pau_pytester.runpytest(*argv[1:])
            assert result.ret == 0, result.stdout.str()[-2000:]
        else:
            assert argv[:2] == ["pau", "merge"]
            assert main(argv[1:]) == 0
    assert "PAU release gates passed: exit status 0" in capsys.readouterr().out
    assert read_report(path / "pau-report.json").summary.counts.items == 4

    other = ResponseCache(path / "other" / ".pau_cache")
    other.put("k-other", "openai/other", {"text": "from another machine"})
    other.close()
    (cache,) = bash_blocks("## Caches that travel")
    assert [shlex.split(ln)[:3] for ln in cache] == [["pau", "cache", "export"]] * 2 + [
        ["pau", "cache", "import"]
    ]
    for line in cache:
        assert main(shlex.split(line)[1:]) == 0, line
    out = capsys.readouterr().out
    assert "other/.pau_cache/llm-cache.sqlite3: 1 read, 1 added" in out.replace(f"{path}/", "")
    assert ResponseCache(path / ".pau_cache").get("k-other") is not None


def single_job() -> dict[str, Any]:
    section = PAGE.split("## A GitHub Actions job", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None
    data: dict[str, Any] = yaml.safe_load(block.group(1))
    return data["jobs"]["understand"]


def uploads(job: dict[str, Any]) -> list[str]:
    """The paths the job's ``actions/upload-artifact`` steps upload."""
    steps = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload")]
    return [p for s in steps for p in s["with"]["path"].split("\n")]


@pytest.mark.slow
def test_the_single_job_writes_its_baseline_then_every_file_it_uploads(tmp_path: Path) -> None:
    job = single_job()
    with ScriptedLLM(SCORING_RULES) as llm:
        checkout = project(tmp_path / "checkout", llm)
        # Enough items for the regression gate to show two equal runs non-inferior (the toy
        # set's four are too few), and the gate in the ini file, as the page says.
        write_dataset(checkout, 30)
        ini = (checkout / "pytest.ini").read_text().replace("toy.jsonl", "many.jsonl")
        # (The scripted coder writes no adder: a judge gate, not a pass-rate one.)
        ini = ini.replace("pau_min_pass_rate = 0.5", "pau_min_mean_judge = 3")
        # A margin 30 equal items show under the early stop's anytime test.
        ini += "pau_baseline = pau-baseline.json\npau_max_regression = judge:2\n"
        (checkout / "pytest.ini").write_text(ini)
        for step in job["steps"]:
            line = step.get("run")
            if line is None or line.startswith("pip install"):
                continue
            condition = step.get("if")
            if condition == "hashFiles('pau-baseline.json') == ''":
                if (checkout / "pau-baseline.json").exists():
                    continue
            else:
                assert condition is None, condition
            # One xdist worker: this machine's cores are shared (xdist has its own tests).
            line = line.replace(" -n 2 ", " -n 1 ")
            line = line.replace("${{ vars.PAU_RELEASED_MODEL }}", "oracle")
            line = line.replace("${{ vars.PAU_MODEL }}", "oracle")
            assert "${{" not in line, line
            done = sh(line, checkout)
            assert done.returncode == 0, f"{line}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert read_report(checkout / "pau-baseline.json").summary.baseline is None
    report = read_report(checkout / "pau-report.json")
    assert report.summary.baseline is not None
    assert report.summary.baseline.shared == 30
    missing = [p for p in uploads(job) if not (checkout / p).is_file()]
    assert not missing, f"the job uploads files it never writes: {missing}"


def install_lines() -> list[tuple[str, str]]:
    """``(page, line)`` for every ``pip install`` a page shows in a command or a workflow."""
    from tests.docs.pages import fenced, page, page_names

    found = []
    for name in page_names():
        for lang in ("yaml", "bash", "sh", "shell", "console"):
            for block in fenced(page(name), lang):
                for line in block.splitlines():
                    at = line.find("pip install")
                    if at >= 0:
                        line = line[at:].split("   #")[0].split("&&")[0]
                        found.append((name, line.strip().rstrip("\\").strip()))
    return found


def test_every_install_line_installs_this_project_as_it_installs_today() -> None:
    import shlex
    import tomllib

    from packaging.requirements import InvalidRequirement, Requirement

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(meta["optional-dependencies"])
    lines = install_lines()
    assert any(name == "ci.md" for name, _ in lines)
    for name, line in lines:
        url = "https://host/pytest-pau.git"
        line = line.replace("${{ vars.PAU_GIT }}", url).replace("$PAU_GIT", url)
        for word in shlex.split(line):
            if word.startswith((".", "-")) or word in ("pip", "install") or "/" in word[:1]:
                words = re.findall(r"\[([^\]]*)\]", word) if word.startswith(".") else []
                for group in words:
                    assert set(group.split(",")) <= extras, (name, line, group)
                continue
            try:
                req = Requirement(word)
            except InvalidRequirement:
                continue  # an option's value, not a requirement
            if req.name != meta["name"]:
                continue
            # Not on PyPI yet: the project installs from its repository (a git URL) only.
            assert req.url is not None, (name, line)
            assert req.url.startswith("git+"), (name, line)
            assert req.extras <= extras, (name, line, req.extras)
    ci = [line for name, line in lines if name == "ci.md"]
    assert ci
    assert all("git+${{ vars.PAU_GIT }}" in line for line in ci), ci

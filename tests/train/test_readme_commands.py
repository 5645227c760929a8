"""Every ``pau train`` command docs/training.md shows runs here.

Each runs with ``--dry-run`` (flags parsed, pytest's selection made, settings resolved,
SkyRL's files written) in an empty project whose ``conftest.py`` answers ``hf:`` dataset
specs with builtin instances (no network); the smoke command also trains for real, with its
``--critic`` swapped for a scripted one (``local-small`` needs the embedded model), and
``--serve`` serves a freshly saved tiny adapter until a (simulated) Ctrl-C.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.testing import ScriptedLLM
from tests.docs.pages import commands, fenced, page

from .conftest import CRITIC

HF_CONFTEST = '''
from pytest_pau import load_dataset


def pytest_pau_load_dataset(config, spec, split):
    """hf: specs without the network: the first builtin instances."""
    return load_dataset("builtin")[:6] if spec.startswith("hf:") else None
'''


def readme_commands() -> list[str]:
    """The ``pau train`` lines of the bash blocks of docs/training.md."""
    text = page("training.md")
    return [c for b in fenced(text, "bash") for c in commands(b) if c.startswith("pau train")]


COMMANDS = readme_commands()


def test_the_page_shows_the_commands_this_file_runs() -> None:
    joined = "\n".join(COMMANDS)
    assert len(COMMANDS) == 8, COMMANDS
    for needed in ("--dry-run -- -m", "-- --lf", "--resume", "--serve", "--backend skyrl"):
        assert needed in joined, needed
    assert "--select" not in joined


@pytest.fixture
def project(project: Path) -> Path:
    (project / "conftest.py").write_text(HF_CONFTEST)
    return project


@pytest.fixture
def critic() -> Iterator[ScriptedLLM]:
    with ScriptedLLM([(CRITIC, "Fine. Rating: 5")]) as server:
        yield server


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c.split()[2:6]))
def test_readme_command_runs(
    command: str,
    project: Path,
    critic: ScriptedLLM,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = shlex.split(command, comments=True)
    assert argv[:2] == ["pau", "train"]
    args = argv[2:]
    if "--serve" in args:
        pytest.importorskip("peft", reason="needs the 'train' extra (torch, transformers, peft)")
        from pytest_pau.train.policy import Policy

        Policy.load("tiny-random", lora_rank=2, lora_alpha=2).save_adapter(
            Path(args[args.index("--serve") + 1])
        )

        def interrupt(_seconds: float) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr("pytest_pau.cli.train.time.sleep", interrupt)
        assert main(["train", *args]) == 0
        served = (
            r"pytest --pau-model=openai/pau-policy-[0-9a-f]{8} --pau-api-base=http://127.0.0.1:"
        )
        assert re.search(served, capsys.readouterr().out)
        return
    assert main(["train", "--dry-run", *args]) == 0
    out = capsys.readouterr().out
    ids = out.split("\n#", 1)[0].splitlines()  # the ids come first, then the "#" lines
    assert ids, out
    assert all(re.fullmatch(r"builtin/\w+", i) for i in ids), out
    if "--backend" in args:
        output = Path(args[args.index("--output") + 1])
        assert (project / output / "skyrl" / "command.sh").is_file()
    if "tiny-random" in args:  # the smoke run: seconds, so it trains for real too
        pytest.importorskip("peft", reason="needs the 'train' extra (torch, transformers, peft)")
        real = [*args]
        real[real.index("--critic") + 1 : real.index("--critic") + 2] = [critic.model]
        real[real.index("--") : real.index("--")] = [
            "--critic-api-base", critic.api_base, "--max-new-tokens", "4", "--threads", "1",
            "--no-progress",
        ]  # fmt: skip
        assert main(["train", *real]) == 0
        assert len((project / "runs" / "smoke" / "metrics.jsonl").read_text().splitlines()) == 3


@pytest.mark.slow
def test_the_served_adapter_is_evaluated_as_the_page_shows(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's ``pytest`` line after ``--serve``, run against a served tiny adapter.

    The page writes the served name's hash as ``1a2b3c4d`` and the port as ``PORT``: they
    are taken from what ``--serve`` printed. ``--pau-limit 20`` becomes 1 (and one
    iteration): a random 2-layer GPT-2 answers, to show the benchmark reaches it.
    """
    pytest.importorskip("peft", reason="needs the 'train' extra (torch, transformers, peft)")
    import os
    import subprocess
    import sys
    import time

    from pytest_pau.train.policy import Policy
    from tests.firstrun.scripted import RULES

    text = page("training.md")
    (shown,) = [c for b in fenced(text, "bash") for c in commands(b) if c.startswith("pytest ")]
    (serve,) = [c for c in COMMANDS if "--serve" in c]
    adapter = project / shlex.split(serve)[3]
    Policy.load("tiny-random", lora_rank=2, lora_alpha=2).save_adapter(adapter)
    ran: list[subprocess.CompletedProcess[str]] = []

    real_sleep = time.sleep

    def evaluate_then_stop(seconds: float) -> None:
        # `time` is one module: the subprocess below sleeps through it too.
        if seconds != 3600:
            return real_sleep(seconds)
        printed = re.search(
            r"^  pytest --pau-model=(\S+) --pau-api-base=(\S+)$", capsys.readouterr().out, re.M
        )
        assert printed is not None
        model, api_base = printed.groups()
        assert re.fullmatch(r"openai/pau-policy-[0-9a-f]{8}", model)
        args = shlex.split(
            shown.replace("openai/pau-policy-1a2b3c4d", model).replace(
                "http://127.0.0.1:PORT/v1", api_base
            )
        )[1:]
        assert args[args.index("--pau-limit") + 1] == "20"
        args[args.index("--pau-limit") + 1] = "1"
        with ScriptedLLM(RULES) as scorer:
            roles = [
                f"--pau-{r}-{k}={v}"
                for r in ("judge", "coder")
                for k, v in (("model", scorer.model), ("api-base", scorer.api_base))
            ]
            ran.append(
                subprocess.run(
                    [sys.executable, "-m", "pytest", *args, "--pau-max-iterations=1", *roles],
                    cwd=project,
                    env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
            )
        raise KeyboardInterrupt

    monkeypatch.setattr("pytest_pau.cli.train.time.sleep", evaluate_then_stop)
    assert main(["train", "--serve", str(adapter)]) == 0
    (run,) = ran
    assert run.returncode in (0, 1), run.stdout + run.stderr  # the items ran (pass or fail)
    assert "PAU summary" in run.stdout, run.stdout
    # Scored, not an error: the served adapter answered the agent's calls.
    assert re.search(r"^items 1: [01] passed, [01] failed$", run.stdout, re.M), run.stdout


def test_the_cluster_install_line_names_what_the_skyrl_backend_needs() -> None:
    """``pip install "pytest-pau[skyrl] @ git+$PAU_GIT" skyrl-train``: checked, not run (a
    GPU cluster's; pytest-pau is not on PyPI yet, so it comes from its repository).

    The extra exists and is installed here (its environment package imports), and
    ``skyrl-train`` is the distribution of the ``skyrl_train`` module that ``--backend
    skyrl`` asks for when it is missing.
    """
    import importlib.util
    import tomllib

    text = page("training.md")
    (line,) = [c for b in fenced(text, "bash") for c in commands(b) if c.startswith("pip ")]
    args = shlex.split(line)
    assert args[:2] == ["pip", "install"]
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    extras = pyproject["project"]["optional-dependencies"]
    wanted = {a for a in args[2:] if not a.startswith("pytest-pau")}
    assert wanted == {"skyrl-train"}, line
    from packaging.requirements import Requirement

    for arg in args[2:]:
        if arg.startswith("pytest-pau"):
            req = Requirement(arg.replace("$PAU_GIT", "https://host/pytest-pau.git"))
            assert req.url is not None, f"{line}: pytest-pau is not on PyPI; install it by URL"
            for extra in req.extras:
                assert extra in extras, f"{line}: no extra {extra!r} in pyproject.toml"
    assert importlib.util.find_spec("skyrl_gym") is not None  # the extra's package
    launcher = Path(__file__).parents[2] / "pytest_pau" / "train" / "skyrl_launch.py"
    assert 'find_spec("skyrl_train")' in launcher.read_text(encoding="utf-8")

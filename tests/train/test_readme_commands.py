"""Every ``pau train`` command the README's training sections show runs here.

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

from .conftest import CRITIC

README = Path(__file__).parents[2] / "README.md"
HF_CONFTEST = '''
from pytest_pau import load_dataset


def pytest_pau_load_dataset(config, spec, split):
    """hf: specs without the network: the first builtin instances."""
    return load_dataset("builtin")[:6] if spec.startswith("hf:") else None
'''


def readme_commands() -> list[str]:
    """The ``pau train`` lines of the bash blocks of "Training with AAC" and its subsections."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Training with AAC (`pau train`)", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", section, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith("pau train"):
                commands.append(line.strip())
    return commands


COMMANDS = readme_commands()


def test_the_readme_shows_the_commands_this_file_runs() -> None:
    joined = "\n".join(COMMANDS)
    assert len(COMMANDS) == 7, COMMANDS
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
        assert (project / "runs" / "skyrl" / "skyrl" / "command.sh").is_file()
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

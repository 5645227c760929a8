"""``pau train -- [pytest args]`` trains on exactly what pytest selects.

A pytester project whose ``conftest.py`` supplies its own instances
(``pytest_pau_load_dataset``), whose ini file sets ``pau_dataset`` / ``pau_max_iterations`` /
``pau_seed``, and which holds an ordinary test too. ``pau train --dry-run`` must list the
ids ``pytest --pau-model=oracle --collect-only -q`` lists with the same arguments, in the
same order; after a benchmark run with failures, ``--lf`` trains on those only.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

# pytester restores sys.modules after each test: keep the heavy modules loaded (numpy and
# torch cannot be imported twice in one process).
import pytest_pau.plugin
import pytest_pau.sandbox
import pytest_pau.scoring
import pytest_pau.stats.describe
from pytest_pau import load_dataset
from pytest_pau.cli.main import main
from pytest_pau.llm import get_litellm
from pytest_pau.paths import user_cache_dir
from pytest_pau.testing import ScriptedLLM

from .conftest import CRITIC

try:  # the training test needs them; preloaded for the same reason as numpy
    import peft  # noqa: F401
    import torch  # noqa: F401
    import transformers  # noqa: F401

    import pytest_pau.train.policy

    TRAIN_EXTRA = True
except ImportError:  # pragma: no cover - without the train extra
    TRAIN_EXTRA = False

get_litellm()
_PRELOADED = (pytest_pau.plugin, pytest_pau.stats.describe, pytest_pau.sandbox, pytest_pau.scoring)
TOY_FILE = Path(__file__).parents[1] / "plugin" / "toy.py"
#: Read before any pytester fixture moves HOME: the real per-user cache (the built sandbox).
USER_CACHE = str(user_cache_dir())

CONFTEST = '''
import json
from pathlib import Path

from pytest_pau import Instance


def pytest_pau_load_dataset(config, spec, split):
    """The project's own instances: mine.json, under the spec "mine"."""
    if spec != "mine":
        return None
    rows = json.loads((Path(config.rootpath) / "mine.json").read_text())
    return [Instance.model_validate(row) for row in rows]
'''
INI = "[pytest]\npau_dataset = mine\npau_max_iterations = 3\npau_seed = 7\n"


def _toy() -> ModuleType:
    """The plugin tests' toy dataset and scripted judge/coder (``tests/plugin/toy.py``)."""
    name = "_pau_train_tests_toy"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, TOY_FILE)
        assert spec is not None, f"cannot load {TOY_FILE}"
        assert spec.loader is not None, f"cannot load {TOY_FILE}"
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


TOY = _toy()


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLM]:
    """Judge and coder of the toy set (tricky fails, boom errors), and a critic."""
    with ScriptedLLM([*TOY.SCORING_RULES, (CRITIC, "Plausible. Rating: 5")]) as server:
        yield server


@pytest.fixture
def mine(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """The project: the conftest dataset hook (ids ``mine/...``), the ini file, a plain test."""
    # pytester moves HOME: keep the built Wasm sandbox of the real user cache.
    monkeypatch.setenv("PAU_USER_CACHE", USER_CACHE)
    toy = load_dataset(str(TOY.write_toy(pytester.path)))
    rows = [
        i.model_copy(update={"id": f"mine/{i.id.split('/', 1)[1]}", "source": "mine"}) for i in toy
    ]
    (pytester.path / "toy.jsonl").unlink()
    (pytester.path / "mine.json").write_text(json.dumps([r.model_dump(mode="json") for r in rows]))
    pytester.makeconftest(CONFTEST)
    pytester.makeini(INI)
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    return pytester


def dry_run(
    capsys: pytest.CaptureFixture[str], *pytest_args: str, train: tuple[str, ...] = ()
) -> tuple[list[str], str]:
    """``pau train --dry-run [TRAIN] -- ARGS``: (the listed ids, the whole output)."""
    capsys.readouterr()
    assert main(["train", "--dry-run", *train, "--", *pytest_args]) == 0
    out = capsys.readouterr().out
    return [ln for ln in out.splitlines() if ln and not ln.startswith("#")], out


def collected(pytester: pytest.Pytester, *pytest_args: str) -> list[str]:
    """The instance ids ``pytest --pau-model=oracle --collect-only -q ARGS`` lists, in order."""
    result = pytester.runpytest("--pau-model=oracle", "--collect-only", "-q", *pytest_args)
    found = [re.fullmatch(r"pau::test_pau\[(.+)\]", ln) for ln in result.outlines]
    return [m.group(1) for m in found if m]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-m", "easy or medium", "-k", "not boom"], ["mine/double", "mine/add", "mine/clamp"]),
        (["-m", "arity1 and not hard", "--pau-limit=1"], ["mine/double"]),
        (["-k", "tricky or add"], ["mine/add", "mine/tricky"]),  # dataset order, not -k's
        (["--pau-dataset=toy.jsonl", "-m", "smoke"], ["toy/double", "toy/add"]),  # over the ini
        ([], ["mine/double", "mine/add", "mine/clamp", "mine/tricky", "mine/boom"]),
    ],
    ids=["markers-and-k", "limit", "k", "dataset", "everything"],
)
def test_dry_run_lists_what_pytest_collects(
    mine: pytest.Pytester, capsys: pytest.CaptureFixture[str], args: list[str], expected: list[str]
) -> None:
    TOY.write_toy(mine.path)  # for --pau-dataset=toy.jsonl (the plugin's own loader)
    ids, out = dry_run(capsys, *args)
    assert ids == collected(mine, *args) == expected
    # the settings come from the ini file (and the command line over it)
    assert "max_iterations=3 seed=7" in out
    dataset = "toy.jsonl" if "--pau-dataset=toy.jsonl" in args else "mine"
    assert f"# settings: dataset={dataset} split=test " in out
    given = next(ln for ln in out.splitlines() if ln.startswith("# given by"))
    assert {"dataset", "max_iterations", "seed"} <= set(re.findall(r"\w+", given))
    command = shlex.join(["pytest", "--pau-model=oracle", "--collect-only", "-q", *args])
    assert f"selected by: {command}  (rootdir {mine.path}, ini {mine.path / 'tox.ini'})" in out


def test_lf_trains_on_what_failed(
    mine: pytest.Pytester, llm: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = mine.runpytest("--pau-model=oracle", *TOY.scoring_args(llm))
    bench.assert_outcomes(passed=4, failed=1, errors=1)  # 3 PAU items and test_plain pass
    failed = ["mine/tricky", "mine/boom"]

    ids, _ = dry_run(capsys, "--lf")
    assert ids == collected(mine, "--lf") == failed
    ids, _ = dry_run(capsys, "--ff")  # failed first, then the others: pytest's order
    assert ids == collected(mine, "--ff")
    assert ids[:2] == failed
    assert len(ids) == 5

    if not TRAIN_EXTRA:
        pytest.skip("the training half needs the 'train' extra (torch, transformers, peft)")
    run = mine.path / "run"
    code = main(
        [
            "train", "--policy", "tiny-random", "--critic", llm.model,
            "--critic-api-base", llm.api_base, "--steps", "2", "--samples-per-prompt", "2",
            "--max-new-tokens", "4", "--threads", "1", "--no-progress", "--output", str(run),
            "--", "--lf", "--pau-max-iterations=1", "--pau-no-cache",
        ]
    )  # fmt: skip
    assert code == 0
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2]
    assert {i for r in rows for i in r["instances"]} <= set(failed)
    assert (run / "adapter" / "adapter_config.json").is_file()
    assert (run / "adapter" / "adapter_model.safetensors").is_file()
    assert json.loads((run / "selection.json").read_text()) == {
        "pytest_args": ["--lf", "--pau-max-iterations=1", "--pau-no-cache"],
        "instances": failed,
    }
    settings = json.loads((run / "config.json").read_text())["settings"]
    assert (settings["seed"], settings["max_iterations"], settings["no_cache"]) == (7, 1, True)
    assert settings["dataset"] == "mine"
    assert settings["model"] is None  # the collection's --pau-model=oracle is not recorded
    assert "2 instance(s) to train on, 0 held out" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-k", "nomatch"], "pytest arguments after `--`: -k nomatch: selected no PAU instance"),
        (["-k", "plain"], "(1 other test(s) selected, none takes a PAU instance)"),
        (["--no-such-flag"], "pytest refused them: unrecognized arguments: --no-such-flag"),
        (["-m", "(("], "pytest refused them: Wrong expression passed to '-m'"),
        (["--pau-dataset=nope.jsonl"], "nope.jsonl: no such file"),
        (["--markers"], "pytest stopped without collecting (an argument such as --help"),
        # the conftest implements a pytest-pau hook: without the plugin pluggy refuses it
        (["-p", "no:pau"], "(exit status 3): pluggy._manager.PluginValidationError: unknown hook"),
    ],
)
def test_bad_selections_are_pau_train_errors(
    mine: pytest.Pytester, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["train", "--dry-run", "--", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pau train: error: pytest arguments after `--`: ")
    assert message in err
    assert "Traceback" not in err


def test_a_collection_error_is_shown_and_exits_2(
    mine: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    mine.makepyfile(test_broken="import no_such_module_here\n")
    assert main(["train", "--dry-run", "--", "-m", "easy"]) == 2
    err = capsys.readouterr().err
    assert "pytest arguments after `--`: -m easy: pytest could not collect:" in err
    assert "test_broken.py" in err
    assert "No module named 'no_such_module_here'" in err


def test_pau_model_of_the_ini_is_kept(
    mine: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    mine.makeini(INI + "pau_model = null\n")
    ids, out = dry_run(capsys, "-m", "hard")
    assert ids == ["mine/tricky"]
    assert "pytest --collect-only -q -m hard" in out  # no --pau-model=oracle added


def test_eval_judge_is_the_benchmarks_when_the_pytest_args_name_it(
    mine: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    critic = ("--critic", "openai/critic", "--critic-api-base", "http://127.0.0.1:9/v1")
    _, out = dry_run(
        capsys, "--pau-judge-model=openai/judge", "--pau-judge-threshold=4", train=critic
    )
    assert (
        "# eval settings: judge_model=openai/judge judge_api_base=None "
        "coder_model=openai/critic coder_api_base=http://127.0.0.1:9/v1 "
    ) in out
    assert "judge_threshold=4.0" in out
    _, out = dry_run(capsys, train=critic)  # none named: the critic judges and codes
    assert "judge_model=openai/critic judge_api_base=http://127.0.0.1:9/v1 " in out


def test_help_says_how_selection_works(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["train", "--help"])
    assert info.value.code == 0
    raw = capsys.readouterr().out
    out = " ".join(raw.split())
    assert out.startswith("usage: pau train [options] [-- PYTEST_ARGS ...]")
    for text in (
        "pytest --pau-model=oracle --collect-only -q [pytest args]",
        "--lf / --ff (pytest's cache of your last benchmark run: train on what failed)",
        "the collection runs as --pau-model=oracle",
        "--select is gone too: use -- -k TEXT",
        "--dry-run lists the selection",
    ):
        assert text in out, text
    options = raw.split("\noptions:", 1)[1]
    assert "--policy POLICY" in options
    for removed in ("--dataset", "--limit", "--select", "--max-turns", "--no-cache", "--seed"):
        assert f"  {removed}" not in options, removed  # hidden: only their error remains


@pytest.fixture
def critic_only() -> Iterator[ScriptedLLM]:
    """A critic that answers nothing else: a judge or coder request to it fails."""
    with ScriptedLLM([(CRITIC, "Plausible. Rating: 5")]) as server:
        yield server


def test_eval_every_scores_with_the_benchmarks_settings(
    mine: pytest.Pytester,
    llm: ScriptedLLM,
    critic_only: ScriptedLLM,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not TRAIN_EXTRA:
        pytest.skip("needs the 'train' extra (torch, transformers, peft)")
    run = mine.path / "run"
    code = main(
        [
            "train", "--critic", critic_only.model, "--critic-api-base", critic_only.api_base,
            "--steps", "1", "--samples-per-prompt", "2", "--max-new-tokens", "4",
            "--eval-every", "1", "--eval-instances", "1", "--threads", "1", "--no-progress",
            "--output", str(run),
            "--", "-m", "smoke", *TOY.scoring_args(llm), "--pau-judge-threshold=1",
            "--pau-match-threshold=0", "--pau-max-iterations=1", "--pau-no-cache",
        ]
    )  # fmt: skip
    assert code == 0
    (row,) = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert row["instances"] == ["mine/double"]  # mine/add is held out
    # judged by the benchmark's judge (the critic server would refuse), with its thresholds:
    # the scripted judge rates the tiny policy's description 1, which passes threshold 1
    assert (row["eval_passed"], row["eval_failed"], row["eval_errors"]) == (1, 0, 0)
    assert row["eval_judge_mean"] == 1.0
    out = capsys.readouterr().out
    assert "model pau-policy (pau train step 1) on mine/test: interactive, max 1 iterations" in out
    assert f"judge {llm.model}, coder {llm.model}" in out
    assert "items 1: 1 passed, 0 failed" in out

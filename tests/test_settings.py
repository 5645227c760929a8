"""One home for each setting: PauSettings holds every default, the option rows follow it.

Adding an option is two edits (a PauSettings field and an OptionSpec row); these tests fail
when one of them is missed, when a default is written a second time in a help text, or when
a command-line tool re-declares a setting the plugin has.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from pydantic import ValidationError

from pytest_pau.cli.main import build_parser
from pytest_pau.settings import DEFAULTS, PauSettings, help_text, resolve
from pytest_pau.settings.options import ALL_OPTIONS, OPTIONS_BY_NAME


def test_every_field_has_an_option_row_and_every_row_a_field() -> None:
    assert {s.field for s in ALL_OPTIONS} == set(PauSettings.model_fields)


def test_help_states_the_fields_default_and_only_there() -> None:
    for spec in ALL_OPTIONS:
        assert "Default" not in spec.text, f"--pau-{spec.name}: the default is generated"
        default = PauSettings.model_fields[spec.field].default
        if default is not None and not isinstance(default, bool):
            shown = format(default, "g") if isinstance(default, float) else str(default)
            assert f"Default: {shown}" in help_text(spec), spec.name
    assert help_text(OPTIONS_BY_NAME["max-iterations"]).endswith("Default: 20.")
    assert help_text(OPTIONS_BY_NAME["judge-threshold"]).endswith("Default: 3.")
    assert help_text(OPTIONS_BY_NAME["no-cache"]).endswith("Default: off.")


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ValidationError, match="max_iteration"):
        PauSettings(max_iteration=5)  # type: ignore[call-arg]


def test_every_bad_ini_value_is_reported_at_once() -> None:
    ini = {"pau_limit": "0", "pau_seed": "x", "pau_judge_threshold": "7"}
    with pytest.raises(Exception, match="pau_limit") as info:
        resolve(lambda f: None, lambda k: ini.get(k, ""), ini_source="pytest.ini")
    text = str(info.value)
    for key in ini:
        assert f"pytest.ini: {key} = " in text, key


def _train_options() -> dict[str, argparse.Action]:
    parser = build_parser(only="train")
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    train = sub.choices["train"]
    return {opt: action for action in train._actions for opt in action.option_strings}


def test_pau_train_has_no_copy_of_a_plugin_setting() -> None:
    """Its benchmark settings are the plugin's own, parsed by pytest from the args after --."""
    from pytest_pau.train.config import TrainSpec

    fields = set(PauSettings.model_fields)
    for option, action in _train_options().items():
        if action.help == argparse.SUPPRESS:
            continue  # a removed option: it only points at its --pau-* replacement
        assert action.dest not in fields, option
        assert option.removeprefix("--") not in OPTIONS_BY_NAME, option
    assert not set(TrainSpec.model_fields) & fields
    assert TrainSpec.model_fields["settings"].annotation is PauSettings
    assert TrainSpec().settings == DEFAULTS


@pytest.mark.parametrize(
    ("argv", "replacement"),
    [
        (["--dataset", "humaneval"], "-- --pau-dataset=humaneval (or set pau_dataset"),
        (["--split", "train"], "-- --pau-split=train"),
        (["--limit", "3"], "-- --pau-limit=3"),
        (["--seed", "7"], "-- --pau-seed=7"),
        (["--max-iterations", "2"], "-- --pau-max-iterations=2"),
        (["--max-turns", "2"], "-- --pau-max-iterations=2"),
        (["--sandbox", "process"], "-- --pau-sandbox=process"),
        (["--cache-dir", "c"], "-- --pau-cache-dir=c"),
        (["--no-cache"], "-- --pau-no-cache (or set pau_no_cache"),
        (["--select", "smoke"], "-- -k smoke"),
    ],
)
def test_pau_train_removed_copies_name_the_plugins_option(
    argv: list[str], replacement: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pytest_pau.cli.main import main

    assert main(["train", *argv]) == 2
    err = capsys.readouterr().err
    assert f"{argv[0]} was removed" in err
    assert replacement in err


@pytest.fixture
def empty_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow
def test_pau_train_settings_have_the_plugins_name_parser_and_default(
    empty_project: Path,
) -> None:
    from pytest_pau.errors import ConfigError
    from pytest_pau.plugin.train_collection import collect_selection

    # the default: PauSettings' (the plugin resolves the cache folder in the rootdir)
    plain = collect_selection([]).settings
    assert plain.model_copy(update={"model": None, "cache_dir": None}) == DEFAULTS
    assert plain.cache_dir == empty_project / ".pau_cache"
    # the name and the parser: --pau-seed, parse_int; --pau-max-iterations, parse_positive_int
    assert collect_selection(["--pau-seed=5", "--pau-max-iterations", "3"]).settings.seed == 5
    with pytest.raises(ConfigError, match=r"--pau-max-iterations: expected a whole number >= 1"):
        collect_selection(["--pau-max-iterations=0"])
    with pytest.raises(ConfigError, match="the pytest-pau plugin is not active"):
        collect_selection(["-p", "no:pau"])
    # the ini twin, through the same parser
    (empty_project / "pytest.ini").write_text("[pytest]\npau_seed = 11\npau_limit = 0\n")
    with pytest.raises(ConfigError, match=r"pau_limit = '0': expected a whole number >= 1"):
        collect_selection([])


def test_max_iterations_is_one_setting_for_benchmark_and_training() -> None:
    from pytest_pau.cli.train import REMOVED
    from pytest_pau.train.config import TrainSpec

    assert TrainSpec().settings.max_iterations == DEFAULTS.max_iterations
    assert REMOVED["--max-turns"] == REMOVED["--max-iterations"] == "--pau-max-iterations"
    assert "max_turns" not in TrainSpec.model_fields
    assert "max_iterations" not in TrainSpec.model_fields


def test_the_dataset_output_modes_are_the_loaders() -> None:
    from typing import get_args

    from pytest_pau.dataset.output_format import OutputsMode
    from pytest_pau.settings.values import DATASET_OUTPUTS

    assert get_args(OutputsMode) == DATASET_OUTPUTS


def test_the_paper_protocol_takes_the_papers_scorers_for_the_roles_not_given() -> None:
    def cli(given: dict[str, str]) -> PauSettings:
        return resolve(lambda f: given.get(f), lambda k: None)

    paper = cli({"protocol": "paper"})
    assert paper.judge_model == "openai/meta-llama/Llama-3.1-70B-Instruct"
    assert paper.coder_model == "openai/Qwen/Qwen3-Coder-30B-A3B-Instruct"
    mine = cli({"protocol": "paper", "judge_model": "gpt-5", "judge_api_base": "http://x/v1"})
    assert mine.judge_model == "gpt-5"
    assert mine.judge_api_base == "http://x/v1"
    assert mine.coder_model == paper.coder_model
    # From the ini file too; the default protocol changes nothing.
    ini = resolve(lambda f: None, lambda k: {"pau_protocol": "paper"}.get(k))
    assert ini.judge_model == paper.judge_model
    assert DEFAULTS.protocol == "pytest-pau"
    assert DEFAULTS.judge_model == "local"

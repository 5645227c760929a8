"""One home for each setting: PauSettings holds every default, the option rows follow it.

Adding an option is two edits (a PauSettings field and an OptionSpec row); these tests fail
when one of them is missed, when a default is written a second time in a help text, or when
a command-line tool re-declares a setting the plugin has.
"""

from __future__ import annotations

import argparse

import pytest
from pydantic import ValidationError

from pytest_pau.cli.main import build_parser
from pytest_pau.options import ALL_OPTIONS, OPTIONS_BY_NAME
from pytest_pau.settings import DEFAULTS, PauSettings, help_text, resolve, specs_named


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


@pytest.mark.parametrize(
    "name", ["dataset", "split", "limit", "seed", "max-iterations", "sandbox", "cache-dir"]
)
def test_pau_train_shares_the_plugins_definition(name: str) -> None:
    spec = specs_named(name)[0]
    action = _train_options()[f"--{name}"]
    assert action.type is spec.parse
    assert action.help == help_text(spec)
    assert action.default is None  # "not given": the PauSettings default applies
    assert action.metavar == spec.metavar


def test_max_iterations_is_one_setting_for_benchmark_and_training() -> None:
    from pytest_pau.train.config import TrainSpec

    assert TrainSpec().max_iterations == DEFAULTS.max_iterations
    assert _train_options()["--max-turns"].dest == "max_iterations"  # the old spelling
    assert "max_turns" not in TrainSpec.model_fields


def test_the_dataset_output_modes_are_the_loaders() -> None:
    from typing import get_args

    from pytest_pau.dataset.outputs import OutputsMode
    from pytest_pau.options import DATASET_OUTPUTS

    assert get_args(OutputsMode) == DATASET_OUTPUTS

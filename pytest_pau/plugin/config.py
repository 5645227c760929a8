"""The ``--pau-*`` options in pytest: registered with their ini twins, resolved per run.

What each setting is, its default and its parser live in :mod:`pytest_pau.settings`; this is
only how pytest learns of them and hands them back.
"""

from __future__ import annotations

from typing import Literal

import pytest

from pytest_pau.settings import PauSettings, add_options, help_text, resolve
from pytest_pau.settings.options import ALL_OPTIONS


def register_pytest_options(parser: pytest.Parser) -> None:
    """Add every option to pytest's ``pau`` group, and its ini twin."""
    group = parser.getgroup(
        "pau", "PAU benchmark (pytest-pau); each option has an ini twin, e.g. pau_model"
    )
    add_options(group.addoption)
    for spec in ALL_OPTIONS:
        # Ini values stay strings ("" = unset) and go through the same parser as the flag,
        # so `pau_limit = 0` fails with the same message as `--pau-limit=0`.
        ini_type: Literal["bool", "string"] = "bool" if spec.flag else "string"
        parser.addini(
            "pau_" + spec.field,
            help=help_text(spec),
            type=ini_type,
            default=False if spec.flag else "",
        )


def settings_from_config(config: pytest.Config) -> PauSettings:
    """Resolve the settings of a pytest run (command line, then ini, then defaults)."""
    source = str(config.inipath) if config.inipath else "the ini file"

    def ini(key: str) -> object:
        try:
            return config.getini(key)
        except pytest.UsageError as exc:  # pytest's typed read of an ini boolean
            raise ValueError(str(exc)) from None

    return resolve(lambda field: config.getoption("pau_" + field), ini, ini_source=source)

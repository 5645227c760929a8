"""The resolved ``--pau-*`` settings of a run: :class:`PauSettings` and how it is built.

Each setting comes from the command line, else its ini key (``pau_model`` in
``pytest.ini``, ``[tool.pytest.ini_options]`` or ``setup.cfg``), else its default.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from pytest_pau.errors import ConfigError
from pytest_pau.options import ALL_OPTIONS, LOCAL_MODELS

if TYPE_CHECKING:
    import pytest


class PauSettings(BaseModel):
    """The resolved ``--pau-*`` settings of one run."""

    model_config = ConfigDict(frozen=True)

    model: str | None = None
    """The model under test; None means the plugin is inactive."""
    api_base: str | None = None
    judge_model: str = "local"
    judge_api_base: str | None = None
    coder_model: str = "local"
    coder_api_base: str | None = None
    judge_samples: int = 1
    judge_logprobs: bool = False
    gold_control: bool = False
    max_cost_usd: float | None = None
    dataset: str = "builtin"
    split: str = "test"
    limit: int | None = None
    mode: str = "interactive"
    max_iterations: int = 20
    seed: int = 0
    sandbox: str = "wasm"
    cache_dir: Path | None = None
    """Resolved by the plugin to ``<rootdir>/.pau_cache`` when unset."""
    no_cache: bool = False
    judge_threshold: float = 3.0
    match_threshold: float = 0.8
    min_mean_judge: float | None = None
    min_pass_rate: float | None = None
    min_mean_match: float | None = None
    gate_on_ci: bool = False
    report: Path | None = None
    html: Path | None = None
    plots: Path | None = None

    @property
    def active(self) -> bool:
        """Whether ``--pau-model`` (or ``pau_model``) was given."""
        return self.model is not None

    def thresholds(self) -> dict[str, float | None]:
        """Item thresholds and gates, as the report's ``run.thresholds`` records them."""
        return {
            "judge_threshold": self.judge_threshold,
            "match_threshold": self.match_threshold,
            "min_mean_judge": self.min_mean_judge,
            "min_pass_rate": self.min_pass_rate,
            "min_mean_match": self.min_mean_match,
        }

    def low_fidelity_roles(self) -> list[tuple[str, str, str]]:
        """``(role, model, option)`` for the judge/coder served by an embedded model."""
        out = []
        if self.judge_model in LOCAL_MODELS:
            out.append(("judge", self.judge_model, "--pau-judge-model"))
        if self.coder_model in LOCAL_MODELS:
            out.append(("coder", self.coder_model, "--pau-coder-model"))
        return out


def resolve(
    cli: Callable[[str], Any],
    ini: Callable[[str], Any],
    *,
    ini_source: str = "the ini file",
) -> PauSettings:
    """Build settings from a command-line lookup and an ini lookup.

    Args:
        cli: ``field -> value`` of the parsed command line (None when not given).
        ini: ``ini key -> raw value`` (``""``/None when unset; bool for flags).
        ini_source: Name of the ini file, for error messages.

    Raises:
        ConfigError: An ini value does not parse; the message names the key and the file.
    """
    values: dict[str, Any] = {}
    for spec in ALL_OPTIONS:
        value = cli(spec.field)
        if value is None:
            raw = ini("pau_" + spec.field)
            if spec.flag:
                value = bool(raw) if raw not in (None, "") else None
            elif raw not in (None, "") and spec.parse is not None:
                try:
                    value = spec.parse(str(raw))
                except argparse.ArgumentTypeError as exc:
                    raise ConfigError(
                        f"{ini_source}: pau_{spec.field} = {raw!r}: {exc}; "
                        f"fix the value or pass --pau-{spec.name} on the command line"
                    ) from None
        if value is not None:
            values[spec.field] = value
    return PauSettings(**values)


def settings_from_config(config: pytest.Config) -> PauSettings:
    """Resolve the settings of a pytest run (command line, then ini, then defaults)."""
    source = str(config.inipath) if config.inipath else "the ini file"

    def ini(name: str) -> Any:
        value = config.getini(name)
        # TOML can hold numbers and booleans where our ini keys are strings.
        return value

    return resolve(lambda field: config.getoption("pau_" + field), ini, ini_source=source)

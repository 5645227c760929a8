"""The resolved ``--pau-*`` settings of a run: :class:`PauSettings`, the one home of every default.

Each setting comes from the command line, else its ini key (``pau_model`` in
``pytest.ini``, ``[tool.pytest.ini_options]`` or ``setup.cfg``), else the default of its
:class:`PauSettings` field. :mod:`pytest_pau.settings.options` says how each one is parsed and
explained; this module adds the options to argparse tools (pytest's group too:
:mod:`pytest_pau.plugin.config`), with help texts whose "Default: ..." sentence is read from
the field, and resolves them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, create_model, field_validator, model_validator

from pytest_pau.errors import ConfigError
from pytest_pau.models.metrics import LEVEL_GATES
from pytest_pau.settings.gates_and_outputs import REPORT_OUTPUTS
from pytest_pau.settings.options import ALL_OPTIONS, OPTIONS_BY_NAME, OptionSpec
from pytest_pau.settings.values import (
    LOCAL_MODELS,
    PAPER_CODER_MODEL,
    PAPER_JUDGE_MODEL,
    ReasoningMode,
    judge_check_size,
    margins_of,
    parse_judge_check,
    role_value,
    shard_of,
)

AddOption = Callable[..., Any]
#: Episodes in flight per process for hosted models (``--pau-concurrency``'s default).
DEFAULT_CONCURRENCY = 16
#: Hidden reasoning tokens a call of a reasoning model gets on top of its visible cap.
DEFAULT_REASONING_BUDGET = 4096
#: The regression ``--pau-baseline`` allows when ``--pau-max-regression`` is unset: one
#: primary metric, so that a same-quality re-run passes (57-74% at 100 items, 90-98% at 240,
#: ~100% at 741; with three default margins it was 22-28%, 47-56%, 90-97%: docs/gates.md).
DEFAULT_MAX_REGRESSION = "judge:0.2"


class _RunSettings(BaseModel):
    """The fields of :class:`PauSettings` ahead of the level gates' (in the order its JSON
    keeps them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = None
    """The model under test; None means the plugin is inactive."""
    api_base: str | None = None
    judge_model: str = "local"
    """Under ``--pau-protocol=paper`` the paper's judge unless given (:meth:`_paper_roles`)."""
    judge_api_base: str | None = None
    coder_model: str = "local"
    """Under ``--pau-protocol=paper`` the paper's coder unless given."""
    coder_api_base: str | None = None
    coder: Literal["fixed", "self"] = "fixed"
    """``self``: the model under test also writes code from its own description."""
    protocol: Literal["pytest-pau", "paper"] = "pytest-pau"
    """How a run is scored and counted (:mod:`pytest_pau.models.paper`)."""
    reasoning: str = "auto"
    """Per role (:func:`pytest_pau.settings.values.role_value`): ``auto``, ``on`` or ``off``."""
    reasoning_budget: str = str(DEFAULT_REASONING_BUDGET)
    """Per role: hidden tokens on top of each call's visible cap, for models that reason."""
    reasoning_effort: str | None = None
    """Per role: the ``reasoning_effort`` sent; None sends none (the provider's default)."""
    judge_samples: int = 1
    judge_logprobs: bool = False
    gold_control: bool = False
    judge_check: str = "20"
    """``N``, ``all`` or ``off`` (:func:`~pytest_pau.settings.values.judge_check_size`)."""
    max_cost_usd: float | None = None
    service_tier: Literal["default", "flex"] = "default"
    """The model under test's service tier (``flex``: half price, slower)."""
    dataset: str = "builtin"
    split: str = "test"
    dataset_outputs: Literal["auto", "repr", "json", "reference", "recompute"] = "auto"
    limit: int | None = None
    shard: str | None = None
    """``K/N``: run the K-th of N parts of the selection (``pau merge`` joins the reports)."""
    mode: Literal["interactive", "incontext"] = "interactive"
    max_iterations: int = 20
    """The interactive loop's iteration limit (PAU's 20); ``pau train`` episodes use it too."""
    seed: int = 0
    sandbox: Literal["wasm", "process"] = "wasm"
    cache_dir: Path | None = None
    """Resolved by the plugin to ``<rootdir>/.pau_cache`` when unset."""
    no_cache: bool = False
    concurrency: int | None = None
    """Episodes in flight per process; None: :meth:`episodes_in_flight` decides."""
    max_connections: int = 64
    max_rpm: int | None = None
    """A known quota in requests per minute per model, for the whole run."""
    max_tpm: int | None = None
    """A known quota in tokens per minute per model, for the whole run."""
    judge_threshold: float = 3.0
    """An item passes with a judge score at or above this..."""
    match_threshold: float = 0.8
    """...and a code match at or above this."""

    @field_validator("judge_check", mode="before")
    @classmethod
    def _judge_check(cls, value: Any) -> str:
        """``20``, ``all`` or ``off``, however given (an int too)."""
        try:
            return parse_judge_check(str(value))
        except argparse.ArgumentTypeError as exc:
            raise ValueError(f"judge_check: {exc}") from None


# One field per level gate, its threshold (None: no gate), made from the table of gates
# (pytest_pau.models.metrics.LEVEL_GATES): adding a gate there adds its setting. Type
# checkers see none of them: the package reads the thresholds through level_gates().
if TYPE_CHECKING:
    _WithLevelGates = _RunSettings
else:
    _WithLevelGates = create_model(
        "_WithLevelGates",
        __base__=_RunSettings,
        __doc__="The level gates' thresholds, one field per row of ``LEVEL_GATES``.",
        **{key: (float | None, None) for key in LEVEL_GATES},
    )


class _GateSettings(_WithLevelGates):
    """The fields of :class:`PauSettings` after the level gates' and before the outputs'."""

    gate_on_ci: bool = False
    baseline: Path | None = None
    """The released model's JSON report: the regression gate compares against it."""
    max_regression: str | None = None
    """``METRIC:DELTA,...``; None: :data:`DEFAULT_MAX_REGRESSION` (with a baseline)."""
    gate_confidence: float = 0.95
    early_stop: bool = False
    exit: Literal["gates", "items"] = "gates"
    """With a gate set, ``gates``: the gates (not items below thresholds) decide the exit."""


# One field per output, its path (None: not written), made from the table of outputs
# (pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS): adding an output there adds its
# setting. Type checkers see the ones the package names (the rest are read by field name).
if TYPE_CHECKING:

    class _WithOutputs(_GateSettings):
        report: Path | None = None
        html: Path | None = None
        plots: Path | None = None
        markdown: Path | None = None

else:
    _WithOutputs = create_model(
        "_WithOutputs",
        __base__=_GateSettings,
        __doc__="The outputs' paths, one field per row of ``REPORT_OUTPUTS``.",
        **{output.field: (Path | None, None) for output in REPORT_OUTPUTS},
    )


class PauSettings(_WithOutputs):
    """The resolved ``--pau-*`` settings of one run; each field's default is the option's.

    A level gate's threshold is the field named by its key in
    :data:`~pytest_pau.models.metrics.LEVEL_GATES` (``min_mean_judge``...), read together
    by :meth:`level_gates`; an output's path is the field named by its row of
    :data:`~pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS` (``report``, ``html``...).
    """

    def judge_check_size(self) -> int | None:
        """Items the judge check rates: None for all, 0 when off."""
        return judge_check_size(self.judge_check)

    @model_validator(mode="before")
    @classmethod
    def _paper_roles(cls, data: Any) -> Any:
        """Under ``protocol="paper"``, the paper's judge and coder for the roles not given.

        Only a role whose model was not set changes: an explicit ``--pau-judge-model``
        (or ``pau_judge_model``) always wins, and ``--pau-*-api-base`` names the server.
        """
        if isinstance(data, dict) and data.get("protocol") == "paper":
            data = dict(data)
            data.setdefault("judge_model", PAPER_JUDGE_MODEL)
            data.setdefault("coder_model", PAPER_CODER_MODEL)
        return data

    @property
    def active(self) -> bool:
        """Whether ``--pau-model`` (or ``pau_model``) was given."""
        return self.model is not None

    def thresholds(self) -> dict[str, float | None]:
        """Item thresholds and gates, as the report's ``run.thresholds`` records them."""
        return {
            "judge_threshold": self.judge_threshold,
            "match_threshold": self.match_threshold,
            **{key: getattr(self, key) for key in LEVEL_GATES},
        }

    def level_gates(self) -> dict[str, float]:
        """``{gate key: threshold}`` of the level gates that are set, in the table's order."""
        return {key: value for key in LEVEL_GATES if (value := getattr(self, key)) is not None}

    @property
    def gated(self) -> bool:
        """Whether any release gate is set (then the gates decide the exit status)."""
        return self.baseline is not None or bool(self.level_gates())

    @property
    def shard_part(self) -> tuple[int, int] | None:
        """``(K, N)`` of ``--pau-shard=K/N``, or None for a whole run."""
        return shard_of(self.shard)

    def budget_share(self) -> float | None:
        """What this process's run may spend: ``--pau-max-cost-usd``, split between shards.

        Shards run on machines that share no ledger, so each gets an even share of the cap
        (the partition balances their expected cost): together they never spend more.
        """
        part = self.shard_part
        if self.max_cost_usd is None or part is None:
            return self.max_cost_usd
        return self.max_cost_usd / part[1]

    def regression_margins(self) -> dict[str, float]:
        """``{metric: allowed regression}`` of the baseline gate (empty without a baseline)."""
        if self.baseline is None:
            return {}
        return margins_of(self.max_regression or DEFAULT_MAX_REGRESSION)

    def reasoning_for(self, role: str) -> tuple[ReasoningMode, int, str | None]:
        """``(mode, budget, effort)`` of ``role`` (``model``, ``judge``, ``coder``, ``critic``)."""
        mode = cast("ReasoningMode", role_value(self.reasoning, role) or "auto")
        budget = role_value(self.reasoning_budget, role) or DEFAULT_REASONING_BUDGET
        return mode, int(budget), role_value(self.reasoning_effort, role)

    def episodes_in_flight(self) -> int:
        """``--pau-concurrency``, else 16, or 1 when only embedded models do the work.

        An embedded model is CPU-bound and serialised per process: episodes that wait on it
        gain nothing from running together, and their outcomes would appear later.
        """
        if self.concurrency is not None:
            return self.concurrency
        embedded = self.model in LOCAL_MODELS or (
            self.model in ("oracle", "null")
            and self.judge_model in LOCAL_MODELS
            and self.coder_model in LOCAL_MODELS
        )
        return 1 if embedded else DEFAULT_CONCURRENCY

    def low_fidelity_roles(self) -> list[tuple[str, str, str]]:
        """``(role, model, option)`` for the judge/coder served by an embedded model."""
        out = []
        if self.judge_model in LOCAL_MODELS:
            out.append(("judge", self.judge_model, "--pau-judge-model"))
        if self.coder_model in LOCAL_MODELS:
            out.append(("coder", self.coder_model, "--pau-coder-model"))
        return out


DEFAULTS = PauSettings()
"""Every setting at its default: what signatures elsewhere take their defaults from."""


def default_of(spec: OptionSpec) -> Any:
    """The default of ``spec``'s setting: its :class:`PauSettings` field's."""
    return PauSettings.model_fields[spec.field].default


def help_text(spec: OptionSpec) -> str:
    """``spec``'s help: its text and a "Default: ..." sentence read from the field."""
    default = default_of(spec)
    if default is None:
        if spec.default_text is None:
            raise ValueError(f"option --pau-{spec.name} has a None default and no default_text")
        shown = spec.default_text
    elif isinstance(default, bool):
        shown = "on" if default else "off"
    elif isinstance(default, float):
        shown = format(default, "g")
    else:
        shown = str(default)
    note = f" {spec.default_note}" if spec.default_note else ""
    return f"{spec.text} Default: {shown}{note}."


def add_options(
    addoption: AddOption,
    specs: Iterable[OptionSpec] = ALL_OPTIONS,
    *,
    prefix: str = "--pau-",
    dest_prefix: str = "pau_",
) -> None:
    """Add ``specs`` through ``addoption`` (pytest's ``group.addoption`` or argparse's).

    Every option's argparse default is None, so "not given" can fall back to an ini key or
    to the :class:`PauSettings` default (:func:`resolve`).
    """
    for spec in specs:
        dest = dest_prefix + spec.field
        text = help_text(spec).replace("%", "%%")  # argparse %-formats help texts
        if spec.flag:
            addoption(prefix + spec.name, action="store_true", default=None, dest=dest, help=text)
        else:
            addoption(
                prefix + spec.name,
                type=spec.parse,
                default=None,
                dest=dest,
                metavar=spec.metavar,
                help=text,
            )


def specs_named(*names: str) -> list[OptionSpec]:
    """The option rows of ``names`` (``"dataset"``, ``"max-iterations"``...).

    Raises:
        KeyError: a name that is no option (the groups are :data:`OPTION_GROUPS`).
    """
    unknown = [n for n in names if n not in OPTIONS_BY_NAME]
    if unknown:
        raise KeyError(f"no option named {unknown}; options: {sorted(OPTIONS_BY_NAME)}")
    return [OPTIONS_BY_NAME[n] for n in names]


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
        ConfigError: Ini values do not parse; the message names every bad key and the file.
    """
    values: dict[str, Any] = {}
    problems: list[str] = []
    for spec in ALL_OPTIONS:
        value = cli(spec.field)
        if value is None:
            try:
                raw = ini("pau_" + spec.field)
            except ValueError as exc:  # pytest's reader of an ini boolean: "invalid truth value"
                problems.append(
                    f"pau_{spec.field}: {exc}; expected true or false (also yes/no, on/off, "
                    f"1/0); fix the value or pass --pau-{spec.name} on the command line"
                )
                continue
            if spec.flag:
                value = bool(raw) if raw not in (None, "") else None
            elif raw not in (None, "") and spec.parse is not None:
                try:
                    value = spec.parse(str(raw))
                except argparse.ArgumentTypeError as exc:
                    problems.append(
                        f"pau_{spec.field} = {raw!r}: {exc}; fix the value or pass "
                        f"--pau-{spec.name} on the command line"
                    )
        if value is not None:
            values[spec.field] = value
    if problems:
        raise ConfigError(f"{ini_source}: " + f"\n{ini_source}: ".join(problems))
    if values.get("max_regression") is not None and values.get("baseline") is None:
        raise ConfigError(
            f"--pau-max-regression={values['max_regression']} needs --pau-baseline=REPORT.json "
            "(the released model's report to compare with)"
        )
    if values.get("shard") is not None and values.get("early_stop"):
        raise ConfigError(
            f"--pau-early-stop cannot be combined with --pau-shard={values['shard']}: an early "
            "stop decides from the items of the whole selection seen so far, and a shard sees "
            "only its part, so its verdict would be a per-shard one that says nothing about "
            "the whole. Run the shards without --pau-early-stop and decide the gates over all "
            "of them with `pau merge SHARD.json ... -o REPORT.json --gate`, or stop early on "
            "one machine (with -n for more processes)"
        )
    return PauSettings(**values)

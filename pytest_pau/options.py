"""Every ``--pau-*`` option, its ini twin, and the settings object they resolve to.

Options are declared once, as :class:`OptionSpec` rows grouped by theme, and added with
``add_options(addoption, *groups, prefix=...)`` so that pytest (``--pau-model``) and any argparse
based tool (``pau ... --model``) share names, parsers and help texts.

Resolution order for each setting: the command line, then the ini key of the same name
(``pau_model`` in ``pytest.ini``, ``[tool.pytest.ini_options]`` or ``setup.cfg``), then
the default stated in the help text. :func:`pytest_pau.settings.settings_from_config`
does that and returns one validated, frozen :class:`~pytest_pau.settings.PauSettings`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import pytest

AddOption = Callable[..., Any]

MODES = ("interactive", "incontext")
SANDBOX_BACKENDS = ("wasm", "process")
LOCAL_MODELS = ("local", "local-small")


# --------------------------------------------------------------------------- parsers
# Each parser is an argparse ``type=``: it raises ArgumentTypeError, which argparse turns
# into "argument --pau-x: <message>"; ini values go through the same functions.


def parse_positive_int(text: str) -> int:
    """An integer >= 1 (``--pau-limit``, ``--pau-max-iterations``...)."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def parse_int(text: str) -> int:
    """Any integer (``--pau-seed``)."""
    try:
        return int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _parse_float(text: str, low: float, high: float | None, what: str) -> float:
    try:
        value = float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if value != value or value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def parse_fraction(text: str) -> float:
    """A number in [0, 1] (``--pau-match-threshold=0.8``, ``--pau-min-pass-rate=0.5``)."""
    return _parse_float(text, 0.0, 1.0, "a number between 0 and 1 such as 0.8")


def parse_judge_score(text: str) -> float:
    """A judge score in [1, 5] (``--pau-judge-threshold=3``, ``--pau-min-mean-judge=2.5``)."""
    return _parse_float(text, 1.0, 5.0, "a judge score between 1 and 5 such as 3")


def parse_usd(text: str) -> float:
    """A non-negative amount of US dollars (``--pau-max-cost-usd=2.50``)."""
    return _parse_float(text, 0.0, None, "an amount of US dollars >= 0 such as 2.50")


def parse_model(text: str) -> str:
    """A litellm model string, ``local``/``local-small``, or ``oracle``/``null``."""
    value = str(text).strip()
    if not value:
        raise argparse.ArgumentTypeError(
            "expected a model such as 'gpt-5-mini', 'openai/NAME', 'local' or 'oracle', got ''"
        )
    return value


def parse_text(text: str) -> str:
    """A non-empty string."""
    value = str(text).strip()
    if not value:
        raise argparse.ArgumentTypeError("expected a non-empty value, got ''")
    return value


def parse_path(text: str) -> Path:
    """A file or folder path (``~`` expanded)."""
    return Path(parse_text(text)).expanduser()


def parse_choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A parser accepting exactly one of ``choices``."""

    def parse(text: str) -> str:
        value = str(text).strip()
        if value not in choices:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(choices)}, got {text!r}")
        return value

    parse.__name__ = "choice"
    return parse


# --------------------------------------------------------------------------- specs


@dataclass(frozen=True)
class OptionSpec:
    """One setting: its option name (without prefix), parser, default and help text."""

    name: str
    """Setting name with dashes: ``model`` -> ``--pau-model``, ini ``pau_model``."""
    help: str
    """Help text; starts with a capital and states the default."""
    parse: Callable[[str], Any] | None = None
    """Value parser; None for an on/off flag."""
    default: Any = None
    metavar: str | None = None

    @property
    def field(self) -> str:
        """The :class:`PauSettings` field and argparse ``dest`` suffix: ``judge_model``."""
        return self.name.replace("-", "_")

    @property
    def flag(self) -> bool:
        return self.parse is None


MODEL_OPTIONS = (
    OptionSpec(
        "model",
        "The model under test: a litellm model string (gpt-5-mini, "
        "anthropic/claude-opus-4, ollama/qwen3:8b, openai/NAME with --pau-api-base), "
        "local / local-small (embedded), or the pseudo-models oracle / null. Without it "
        "the plugin collects nothing and changes nothing. Default: unset.",
        parse_model,
        None,
        "MODEL",
    ),
    OptionSpec(
        "api-base",
        "Base URL of an OpenAI-compatible server for --pau-model. Default: the provider's own.",
        parse_text,
        None,
        "URL",
    ),
    OptionSpec(
        "judge-model",
        "Model that rates descriptions 1-5 against the gold one. "
        "Default: local (low fidelity; the paper used Llama-3.1-70B-Instruct).",
        parse_model,
        "local",
        "MODEL",
    ),
    OptionSpec(
        "judge-api-base",
        "Base URL for --pau-judge-model. Default: the provider's own.",
        parse_text,
        None,
        "URL",
    ),
    OptionSpec(
        "coder-model",
        "Model that writes code from a description for code match. "
        "Default: local (low fidelity; the paper used Qwen3-Coder-30B-A3B-Instruct).",
        parse_model,
        "local",
        "MODEL",
    ),
    OptionSpec(
        "coder-api-base",
        "Base URL for --pau-coder-model. Default: the provider's own.",
        parse_text,
        None,
        "URL",
    ),
    OptionSpec(
        "judge-samples",
        "Judge ratings per description; their mean is the score and "
        "their spread is reported. Default: 1.",
        parse_positive_int,
        1,
        "N",
    ),
    OptionSpec(
        "judge-logprobs",
        "Also report the judge's probability-weighted rating where "
        "the provider returns logprobs (the embedded models do). Default: off.",
    ),
    OptionSpec(
        "gold-control",
        "Also run the coder on the gold description (the ceiling the coder allows). Default: off.",
    ),
    OptionSpec(
        "max-cost-usd",
        "Stop starting model calls once the run has spent this many US "
        "dollars; remaining items are skipped. Default: no limit.",
        parse_usd,
        None,
        "USD",
    ),
)

DATASET_OPTIONS = (
    OptionSpec(
        "dataset",
        "Instances to run: builtin, humaneval, a .jsonl/.parquet file in "
        "PAU's column format, or hf:OWNER/NAME. Default: builtin.",
        parse_text,
        "builtin",
        "SPEC",
    ),
    OptionSpec("split", "Dataset split. Default: test.", parse_text, "test", "NAME"),
    OptionSpec(
        "limit",
        "Run only the first N instances left after -k/-m (and --lf/--ff) "
        "selection, in dataset order. Default: all.",
        parse_positive_int,
        None,
        "N",
    ),
)

RUN_OPTIONS = (
    OptionSpec(
        "mode",
        "interactive (reason-act-reflect with sandbox calls) or incontext "
        "(one answer from the examples). Default: interactive.",
        parse_choice(MODES),
        "interactive",
        "MODE",
    ),
    OptionSpec(
        "max-iterations",
        "Iteration limit of the interactive loop. Default: 20.",
        parse_positive_int,
        20,
        "N",
    ),
    OptionSpec(
        "seed", "Seed passed to every model call and sampler. Default: 0.", parse_int, 0, "N"
    ),
    OptionSpec(
        "sandbox",
        "Where hidden methods run: wasm (isolated) or process (a "
        "subprocess with rlimits, for trusted code). Default: wasm.",
        parse_choice(SANDBOX_BACKENDS),
        "wasm",
        "BACKEND",
    ),
    OptionSpec(
        "cache-dir",
        "Folder of the model-call cache. Default: .pau_cache beside pytest's cache (the rootdir).",
        parse_path,
        None,
        "DIR",
    ),
    OptionSpec("no-cache", "Neither read nor write the model-call cache. Default: off."),
)

THRESHOLD_OPTIONS = (
    OptionSpec(
        "judge-threshold",
        "An item fails when its judge score is below this. Default: 3.",
        parse_judge_score,
        3.0,
        "SCORE",
    ),
    OptionSpec(
        "match-threshold",
        "An item fails when its code match is below this. Default: 0.8.",
        parse_fraction,
        0.8,
        "FRACTION",
    ),
)

GATE_OPTIONS = (
    OptionSpec(
        "min-mean-judge",
        "Release gate: exit status 1 when the mean judge score is below this. Default: no gate.",
        parse_judge_score,
        None,
        "SCORE",
    ),
    OptionSpec(
        "min-pass-rate",
        "Release gate: exit status 1 when the share of passed items "
        "is below this. Default: no gate.",
        parse_fraction,
        None,
        "FRACTION",
    ),
    OptionSpec(
        "min-mean-match",
        "Release gate: exit status 1 when the mean code match is below this. Default: no gate.",
        parse_fraction,
        None,
        "FRACTION",
    ),
    OptionSpec(
        "gate-on-ci",
        "Gates compare the lower bound of the 95%% bootstrap interval "
        "instead of the mean: a gate passes only when it is met beyond noise. "
        "Default: off.",
    ),
)

REPORT_OPTIONS = (
    OptionSpec(
        "report",
        "Write the JSON report here (atomically). Default: none.",
        parse_path,
        None,
        "PATH",
    ),
    OptionSpec(
        "html", "Write a self-contained HTML report here. Default: none.", parse_path, None, "PATH"
    ),
    OptionSpec(
        "plots",
        "Write PNG plots into this folder (needs the plots extra). Default: none.",
        parse_path,
        None,
        "DIR",
    ),
)

ALL_OPTIONS: tuple[OptionSpec, ...] = (
    MODEL_OPTIONS
    + DATASET_OPTIONS
    + RUN_OPTIONS
    + THRESHOLD_OPTIONS
    + GATE_OPTIONS
    + REPORT_OPTIONS
)


def _add(addoption: AddOption, prefix: str, specs: Iterable[OptionSpec], dest_prefix: str) -> None:
    for spec in specs:
        dest = dest_prefix + spec.field
        if spec.flag:
            # default None (not False) so "not given" falls back to the ini key.
            addoption(
                prefix + spec.name, action="store_true", default=None, dest=dest, help=spec.help
            )
        else:
            addoption(
                prefix + spec.name,
                type=spec.parse,
                default=None,
                dest=dest,
                metavar=spec.metavar,
                help=spec.help,
            )


#: The option tables by name, in the order ``--help`` lists them. A command-line tool that
#: shares options with the plugin (pytest-benchmark's pattern) adds the groups it needs.
OPTION_GROUPS: dict[str, tuple[OptionSpec, ...]] = {
    "model": MODEL_OPTIONS,  # model, judge, coder and budget
    "dataset": DATASET_OPTIONS,  # dataset, split, limit
    "run": RUN_OPTIONS,  # mode, iterations, seed, sandbox, cache
    "threshold": THRESHOLD_OPTIONS,  # per-item pass thresholds
    "gate": GATE_OPTIONS,  # session-wide release gates
    "report": REPORT_OPTIONS,  # JSON, HTML and plot outputs
}


def add_options(
    addoption: AddOption, *groups: str, prefix: str = "--pau-", dest_prefix: str = "pau_"
) -> None:
    """Add the options of ``groups`` (names of :data:`OPTION_GROUPS`; all when none)."""
    for name in groups or tuple(OPTION_GROUPS):
        _add(addoption, prefix, OPTION_GROUPS[name], dest_prefix)


def register_pytest_options(parser: pytest.Parser) -> None:
    """Add every option to pytest's ``pau`` group and its ini twin."""
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
            help=spec.help.replace("%%", "%"),
            type=ini_type,
            default=False if spec.flag else "",
        )

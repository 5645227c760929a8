"""Every ``--pau-*`` option as one :class:`OptionSpec` row: name, parser, metavar, help text.

The rows say how a setting is typed and explained; its default lives in one place only,
the field of :class:`pytest_pau.settings.PauSettings` of the same name, and the help text's
"Default: ..." sentence is generated from it (:func:`pytest_pau.settings.help_text`). A
test checks that every field has a row and every row a field, so adding an option is two
edits: a field and a row.

pytest (``--pau-model``, ini ``pau_model``) and argparse tools add the same rows with
:func:`pytest_pau.settings.add_options`, so they share names, parsers and help texts
(pytest-benchmark's ``add_display_options(addoption, prefix)``). ``pau train`` needs none:
it takes the settings pytest resolves for the arguments after its ``--``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

MODES = ("interactive", "incontext")
SANDBOX_BACKENDS = ("wasm", "process")
LOCAL_MODELS = ("local", "local-small")
#: How a dataset file stores example outputs (``dataset/outputs.py`` reads them).
DATASET_OUTPUTS = ("auto", "repr", "json")
#: What decides the exit status when a release gate is set (``--pau-exit``).
EXIT_POLICIES = ("gates", "items")


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


def parse_confidence(text: str) -> float:
    """A confidence level in [0.5, 1) (``--pau-gate-confidence=0.95``)."""
    value = _parse_float(text, 0.5, 1.0, "a confidence between 0.5 and 1 such as 0.95")
    if value >= 1.0:
        raise argparse.ArgumentTypeError(
            f"expected a confidence between 0.5 and 1 such as 0.95, got {text!r}: "
            "a confidence of 1 can never be reached"
        )
    return value


#: The metrics a gate or a comparison reads: key -> (name for people, (low, high) of its scale).
METRICS: dict[str, tuple[str, tuple[float, float]]] = {
    "judge": ("judge score", (1.0, 5.0)),
    "match": ("code match", (0.0, 1.0)),
    "pass": ("pass rate", (0.0, 1.0)),
}
#: Other spellings of the metric keys (``--fail-if-worse``, ``--pau-max-regression``).
METRIC_ALIASES = {
    "judge_score": "judge",
    "code_match": "match",
    "pass_rate": "pass",
    "passed": "pass",
}


def metric_key(text: str) -> str:
    """The canonical metric key (``judge``, ``match``, ``pass``) for ``text`` or an alias."""
    key = METRIC_ALIASES.get(text.strip().lower(), text.strip().lower())
    if key not in METRICS:
        raise argparse.ArgumentTypeError(
            f"unknown metric {text.strip()!r}; expected one of {', '.join(METRICS)} "
            f"(or {', '.join(METRIC_ALIASES)})"
        )
    return key


def parse_margin(text: str) -> tuple[str, float]:
    """One ``METRIC:DELTA`` (``judge:0.2``): an allowed regression on the metric's scale."""
    metric, sep, delta_text = str(text).strip().partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(
            f"expected METRIC:DELTA such as 'judge:0.2', got {str(text).strip()!r}"
        )
    key = metric_key(metric)
    try:
        delta = float(delta_text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{str(text).strip()!r}: DELTA must be a number such as 0.2, got {delta_text!r}"
        ) from None
    low, high = METRICS[key][1]
    if not 0 <= delta < high - low:
        raise argparse.ArgumentTypeError(
            f"{str(text).strip()!r}: DELTA must be >= 0 and below {high - low:g} "
            f"(the range of the {METRICS[key][0]}), got {delta!r}"
        )
    return key, delta


def margins_of(text: str) -> dict[str, float]:
    """``judge:0.2,match:0.05`` as ``{metric: margin}``; a metric named twice is refused."""
    out: dict[str, float] = {}
    for part in str(text).split(","):
        key, delta = parse_margin(part)
        if key in out:
            raise argparse.ArgumentTypeError(f"{text!r} names {key!r} twice")
        out[key] = delta
    return out


def parse_margins(text: str) -> str:
    """``METRIC:DELTA,...`` (``--pau-max-regression=judge:0.2,pass:0.05``), canonical text."""
    return ",".join(f"{k}:{v:g}" for k, v in margins_of(text).items())


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


#: The roles a per-role option can name: the model under test, the judge (and failure
#: classifier), the coder, and the training critic.
ROLES = ("model", "judge", "coder", "critic")
ReasoningMode = Literal["auto", "on", "off"]
REASONING_MODES: tuple[ReasoningMode, ...] = ("auto", "on", "off")
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high")


def parse_per_role(value: Callable[[str], str], what: str) -> Callable[[str], str]:
    """A parser of ``VALUE`` (every role) or ``ROLE:VALUE,...`` (``model:high,judge:low``).

    Returns the canonical text (roles in :data:`ROLES` order, ``*`` for every role), which
    :func:`role_value` reads back.
    """

    def parse(text: str) -> str:
        raw = str(text).strip()
        if not raw:
            raise argparse.ArgumentTypeError(f"expected {what}, got ''")
        if ":" not in raw:
            return value(raw)
        found: dict[str, str] = {}
        for part in raw.split(","):
            role, sep, item = part.strip().partition(":")
            role = role.strip()
            if not sep or role not in ROLES:
                raise argparse.ArgumentTypeError(
                    f"expected {what} or ROLE:VALUE pairs with ROLE one of {', '.join(ROLES)}, "
                    f"got {part.strip()!r} in {text!r}"
                )
            found[role] = value(item.strip())
        return ",".join(f"{r}:{found[r]}" for r in ROLES if r in found)

    parse.__name__ = "per_role"
    return parse


def role_value(text: str | None, role: str) -> str | None:
    """The value a per-role setting gives ``role`` (None: not set for it)."""
    if text is None or ":" not in text:
        return text
    for part in text.split(","):
        name, _, item = part.partition(":")
        if name == role:
            return item
    return None


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
    """How one setting is typed and explained (its default is the PauSettings field's)."""

    name: str
    """Setting name with dashes: ``model`` -> ``--pau-model``, ini ``pau_model``."""
    text: str
    """What the option does, starting with a capital; the "Default: ..." sentence is added."""
    parse: Callable[[str], Any] | None = None
    """Value parser (an argparse ``type=``); None for an on/off flag."""
    metavar: str | None = None
    default_text: str | None = None
    """How the default reads when it is None ("no gate", "all"); required then."""
    default_note: str | None = None
    """A remark after the default value, e.g. "(low fidelity; ...)"."""

    @property
    def field(self) -> str:
        """The :class:`PauSettings` field and argparse ``dest`` suffix: ``judge_model``."""
        return self.name.replace("-", "_")

    @property
    def flag(self) -> bool:
        return self.parse is None


def _whole_number(text: str) -> str:
    return str(parse_positive_int(text))


def _choice_text(choices: tuple[str, ...]) -> Callable[[str], str]:
    return parse_choice(choices)


MODEL_OPTIONS = (
    OptionSpec(
        "model",
        "The model under test: a litellm model string (gpt-5-mini, "
        "anthropic/claude-opus-4, ollama/qwen3:8b, openai/NAME with --pau-api-base), "
        "local / local-small (embedded), or the pseudo-models oracle / null. Without it "
        "the plugin collects nothing and changes nothing.",
        parse_model,
        "MODEL",
        default_text="unset",
    ),
    OptionSpec(
        "api-base",
        "Base URL of an OpenAI-compatible server for --pau-model.",
        parse_text,
        "URL",
        default_text="the provider's own",
    ),
    OptionSpec(
        "judge-model",
        "Model that rates descriptions 1-5 against the gold one.",
        parse_model,
        "MODEL",
        default_note="(low fidelity; the paper used Llama-3.1-70B-Instruct)",
    ),
    OptionSpec(
        "judge-api-base",
        "Base URL for --pau-judge-model.",
        parse_text,
        "URL",
        default_text="the provider's own",
    ),
    OptionSpec(
        "coder-model",
        "Model that writes code from a description for code match.",
        parse_model,
        "MODEL",
        default_note="(low fidelity; the paper used Qwen3-Coder-30B-A3B-Instruct)",
    ),
    OptionSpec(
        "coder-api-base",
        "Base URL for --pau-coder-model.",
        parse_text,
        "URL",
        default_text="the provider's own",
    ),
    OptionSpec(
        "judge-samples",
        "Judge ratings per description; their mean is the score and their spread is reported.",
        parse_positive_int,
        "N",
    ),
    OptionSpec(
        "judge-logprobs",
        "Also report the judge's probability-weighted rating where "
        "the provider returns logprobs (the embedded models do).",
    ),
    OptionSpec(
        "gold-control",
        "Also run the coder on the gold description (the ceiling the coder allows).",
    ),
    OptionSpec(
        "reasoning",
        "Whether a model reasons before it answers (hidden tokens the token cap also covers): "
        "on, off, or auto (litellm's model map, and a starved answer as evidence); "
        "per role as model:on,judge:off,coder:auto.",
        parse_per_role(_choice_text(REASONING_MODES), "auto, on or off"),
        "MODE",
    ),
    OptionSpec(
        "reasoning-budget",
        "Hidden reasoning tokens allowed on top of each call's answer cap, for models that "
        "reason; doubled (twice at most) when an answer still comes back empty. Per role as "
        "model:N,judge:N.",
        parse_per_role(_whole_number, "a whole number of tokens >= 1"),
        "TOKENS",
    ),
    OptionSpec(
        "reasoning-effort",
        "The reasoning_effort sent to providers that have it: none, minimal, low, medium or high; "
        "per role as model:high,judge:low,coder:low.",
        parse_per_role(_choice_text(REASONING_EFFORTS), "none, minimal, low, medium or high"),
        "EFFORT",
        default_text="the provider's own",
    ),
    OptionSpec(
        "max-cost-usd",
        "Stop starting model calls once the run has spent this many US "
        "dollars; remaining items are skipped.",
        parse_usd,
        "USD",
        default_text="no limit",
    ),
)

DATASET_OPTIONS = (
    OptionSpec(
        "dataset",
        "Instances to run: builtin, humaneval, a .jsonl/.parquet file in "
        "PAU's column format, or hf:OWNER/NAME.",
        parse_text,
        "SPEC",
    ),
    OptionSpec("split", "Dataset split.", parse_text, "NAME"),
    OptionSpec(
        "dataset-outputs",
        "How a .jsonl/.parquet/hf: dataset stores example outputs: repr (PAU's repr text), "
        "json (plain JSON values), or auto (detected per file).",
        parse_choice(DATASET_OUTPUTS),
        "HOW",
    ),
    OptionSpec(
        "limit",
        "Run only the first N instances left after -k/-m (and --lf/--ff) "
        "selection, in dataset order.",
        parse_positive_int,
        "N",
        default_text="all",
    ),
)

RUN_OPTIONS = (
    OptionSpec(
        "mode",
        "interactive (reason-act-reflect with sandbox calls) or incontext "
        "(one answer from the examples).",
        parse_choice(MODES),
        "MODE",
    ),
    OptionSpec(
        "max-iterations",
        "Iteration limit of the interactive loop.",
        parse_positive_int,
        "N",
    ),
    OptionSpec("seed", "Seed passed to every model call and sampler.", parse_int, "N"),
    OptionSpec(
        "sandbox",
        "Where hidden methods run: wasm (isolated) or process (a "
        "subprocess with rlimits, for trusted code).",
        parse_choice(SANDBOX_BACKENDS),
        "BACKEND",
    ),
    OptionSpec(
        "cache-dir",
        "Folder of the model-call cache.",
        parse_path,
        "DIR",
        default_text=".pau_cache beside pytest's cache (the rootdir)",
    ),
    OptionSpec("no-cache", "Neither read nor write the model-call cache."),
    OptionSpec(
        "concurrency",
        "Episodes in flight at once in each process (threads; with -n, in each worker). "
        "pytest still reports the items in order, each when it reaches it.",
        parse_positive_int,
        "N",
        default_text="16, or 1 when the model under test is embedded (or every role is)",
    ),
    OptionSpec(
        "max-connections",
        "Requests in flight at once per model endpoint, for the whole run (shared by the "
        "roles that use it, split between -n workers); halved on rate limits (HTTP 429), "
        "grown back while the provider keeps up.",
        parse_positive_int,
        "N",
    ),
)

THRESHOLD_OPTIONS = (
    OptionSpec(
        "judge-threshold",
        "An item fails when its judge score is below this.",
        parse_judge_score,
        "SCORE",
    ),
    OptionSpec(
        "match-threshold",
        "An item fails when its code match is below this.",
        parse_fraction,
        "FRACTION",
    ),
)

GATE_OPTIONS = (
    OptionSpec(
        "min-mean-judge",
        "Release gate: exit status 1 when the mean judge score is below this.",
        parse_judge_score,
        "SCORE",
        default_text="no gate",
    ),
    OptionSpec(
        "min-pass-rate",
        "Release gate: exit status 1 when the share of passed items is below this.",
        parse_fraction,
        "FRACTION",
        default_text="no gate",
    ),
    OptionSpec(
        "min-mean-match",
        "Release gate: exit status 1 when the mean code match is below this.",
        parse_fraction,
        "FRACTION",
        default_text="no gate",
    ),
    OptionSpec(
        "gate-on-ci",
        "Gates compare the one-sided lower confidence bound (at --pau-gate-confidence) "
        "instead of the mean: a gate passes only when it is met beyond noise.",
    ),
    OptionSpec(
        "baseline",
        "Regression gate: a JSON report (--pau-report) of the released model; exit status 1 "
        "unless this run is shown, paired on the instances both scored, to be worse by less "
        "than --pau-max-regression.",
        parse_path,
        "REPORT.json",
        default_text="no regression gate",
    ),
    OptionSpec(
        "max-regression",
        "The regression each metric may show against --pau-baseline: METRIC:DELTA pairs, "
        "METRIC judge, match or pass.",
        parse_margins,
        "MARGINS",
        default_text="judge:0.2,match:0.05,pass:0.05",
    ),
    OptionSpec(
        "gate-confidence",
        "Confidence of the regression gate's non-inferiority test, of --pau-gate-on-ci's "
        "bound and of --pau-early-stop's verdicts.",
        parse_confidence,
        "LEVEL",
    ),
    OptionSpec(
        "early-stop",
        "Stop starting items once every gate's verdict is known at --pau-gate-confidence "
        "(anytime-valid confidence sequences; items run in a seeded random order); the rest "
        "are skipped.",
    ),
    OptionSpec(
        "exit",
        "What decides the exit status when a gate is set: gates (items below their "
        "thresholds do not fail the run; errors and other tests still do) or items (every "
        "failed item fails the run too).",
        parse_choice(EXIT_POLICIES),
        "gates|items",
    ),
)

REPORT_OPTIONS = (
    OptionSpec(
        "report",
        "Write the JSON report here (atomically).",
        parse_path,
        "PATH",
        default_text="none",
    ),
    OptionSpec(
        "html",
        "Write a self-contained HTML report here.",
        parse_path,
        "PATH",
        default_text="none",
    ),
    OptionSpec(
        "plots",
        "Write PNG plots into this folder (needs the plots extra).",
        parse_path,
        "DIR",
        default_text="none",
    ),
)

#: The option tables by name, in the order ``--help`` lists them.
OPTION_GROUPS: dict[str, tuple[OptionSpec, ...]] = {
    "model": MODEL_OPTIONS,  # model, judge, coder and budget
    "dataset": DATASET_OPTIONS,  # dataset, split, limit
    "run": RUN_OPTIONS,  # mode, iterations, seed, sandbox, cache
    "threshold": THRESHOLD_OPTIONS,  # per-item pass thresholds
    "gate": GATE_OPTIONS,  # session-wide release gates
    "report": REPORT_OPTIONS,  # JSON, HTML and plot outputs
}

ALL_OPTIONS: tuple[OptionSpec, ...] = tuple(s for g in OPTION_GROUPS.values() for s in g)
OPTIONS_BY_NAME: dict[str, OptionSpec] = {s.name: s for s in ALL_OPTIONS}

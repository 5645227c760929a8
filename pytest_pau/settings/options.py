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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_pau.settings.values import (
    DATASET_OUTPUTS,
    EXIT_POLICIES,
    MODES,
    REASONING_EFFORTS,
    REASONING_MODES,
    SANDBOX_BACKENDS,
    SERVICE_TIERS,
    parse_choice,
    parse_confidence,
    parse_fraction,
    parse_int,
    parse_judge_score,
    parse_margins,
    parse_model,
    parse_path,
    parse_per_role,
    parse_positive_int,
    parse_text,
    parse_usd,
)


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
    OptionSpec(
        "service-tier",
        "The provider's service tier for the model under test: default, or flex (OpenAI's "
        "half-price tier: slower, now and then without capacity; such a request is sent "
        "again at the default tier at once). The judge and coder keep the default tier.",
        parse_choice(SERVICE_TIERS),
        "TIER",
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
    OptionSpec(
        "max-rpm",
        "A provider quota you know, in requests per minute per model, for the whole run "
        "(split between -n workers): requests are paced under it. Quotas a provider "
        "announces in its rate-limit headers are kept without it.",
        parse_positive_int,
        "N",
        default_text="the provider's headers decide",
    ),
    OptionSpec(
        "max-tpm",
        "A provider quota you know, in tokens per minute per model (a request counts its "
        "prompt and its output cap), for the whole run, split between -n workers.",
        parse_positive_int,
        "N",
        default_text="the provider's headers decide",
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

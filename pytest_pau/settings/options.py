"""Every ``--pau-*`` option as one :class:`OptionSpec` row: name, parser, metavar, help text.

The rows of what runs (models, dataset, run) are here; those of what decides and what is
written (thresholds, gates, outputs) in :mod:`pytest_pau.settings.gates_and_outputs`; this
module puts them together in ``--help`` order.

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

from pytest_pau.settings.gates_and_outputs import GATE_OPTIONS, REPORT_OPTIONS, THRESHOLD_OPTIONS
from pytest_pau.settings.spec import OptionSpec
from pytest_pau.settings.values import (
    CODERS,
    DATASET_OUTPUTS,
    MODES,
    PROTOCOLS,
    REASONING_EFFORTS,
    REASONING_MODES,
    SANDBOX_BACKENDS,
    SERVICE_TIERS,
    parse_choice,
    parse_int,
    parse_judge_check,
    parse_model,
    parse_path,
    parse_per_role,
    parse_positive_int,
    parse_shard,
    parse_text,
    parse_url,
    parse_usd,
)


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
        parse_url,
        "URL",
        default_text="the provider's own",
    ),
    OptionSpec(
        "judge-model",
        "Model that rates descriptions 1-5 against the gold one.",
        parse_model,
        "MODEL",
        default_note="(low fidelity); with --pau-protocol=paper the paper's "
        "meta-llama/Llama-3.1-70B-Instruct at --pau-judge-api-base",
    ),
    OptionSpec(
        "judge-api-base",
        "Base URL for --pau-judge-model.",
        parse_url,
        "URL",
        default_text="the provider's own",
    ),
    OptionSpec(
        "coder-model",
        "Model that writes code from a description for code match.",
        parse_model,
        "MODEL",
        default_note="(low fidelity); with --pau-protocol=paper the paper's "
        "Qwen/Qwen3-Coder-30B-A3B-Instruct at --pau-coder-api-base",
    ),
    OptionSpec(
        "coder-api-base",
        "Base URL for --pau-coder-model.",
        parse_url,
        "URL",
        default_text="the provider's own",
    ),
    OptionSpec(
        "coder",
        "Who writes the code that code match runs: fixed (--pau-coder-model), or self (the "
        "model under test too, from its own description and calls: its code match is "
        "reported beside the fixed coder's, as the paper's judge-self variant).",
        parse_choice(CODERS),
        "fixed|self",
    ),
    OptionSpec(
        "judge-samples",
        "Judge ratings per description; their mean is the score (none when any sample has "
        "no rating) and their spread is reported.",
        parse_positive_int,
        "N",
    ),
    OptionSpec(
        "judge-logprobs",
        "Also report the judge's probability-weighted rating where "
        "the provider returns logprobs (the embedded models do).",
    ),
    OptionSpec(
        "judge-check",
        "The judge check: on N sampled items (all when fewer) the judge also rates the gold "
        "description and a decoy (another instance's similar description), and the coder "
        "writes code from the decoy; judge-based gates are not decided when it cannot tell "
        "them apart on 75% of them, or rated no pair. N, all or off.",
        parse_judge_check,
        "N|all|off",
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
        "Spend at most this many US dollars: each call reserves its worst case before it is "
        "sent, and an item starts only when the budget left can finish it; items not run "
        "leave the gates not decided. One ledger for every xdist worker on this machine; "
        "--pau-shard shards get an even share each.",
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
        "How a .jsonl/.parquet/hf: dataset stores example outputs: repr (repr text), json "
        "(plain JSON values), reference (the PAU reference's own layout, read by position: "
        "the first train output a value, later ones repr text, test outputs values), auto "
        "(detected per file), or recompute (run the gold code on every input in the sandbox, "
        "use its outputs and report each stored output that disagrees, with the reason).",
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
    OptionSpec(
        "shard",
        "Run the K-th of N parts of the selection (after -k/-m and --pau-limit): the same "
        "partition on every machine, balanced by expected uncached cost; the shards' JSON "
        "reports join with `pau merge`, which decides the gates. Splits --pau-max-cost-usd "
        "and --pau-max-connections evenly between the shards.",
        parse_shard,
        "K/N",
        default_text="the whole selection",
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
        "protocol",
        "How the run is scored and counted: pytest-pau, or paper (the PAU paper's judge and "
        "coder as the default roles, a missing judge rating counted as 1 and a missing code "
        "match as 0 in every mean, interval and gate, its 10-entry history and 300-token "
        "turns, and the paper's statistics in the summary).",
        parse_choice(PROTOCOLS),
        "pytest-pau|paper",
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
        "roles that use it, split between the xdist workers of every host and between "
        "--pau-shard shards); halved on rate limits (HTTP 429), "
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

__all__ = ["ALL_OPTIONS", "OPTIONS_BY_NAME", "OPTION_GROUPS", "OptionSpec"]

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

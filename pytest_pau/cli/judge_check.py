"""``pau judge-check``: is this judge a judge? Rate gold, decoy, content-free and known-wrong
descriptions.

For N instances of a dataset (a seeded sample, ``-n``), the judge named by
``--pau-judge-model`` rates these descriptions against each instance's gold description,
through the benchmark's own judge (the same prompts, cache, retries and token caps):

* the gold description itself (what a perfect model would write);
* a decoy: the gold description of another instance chosen to be plausible (same arity
  and argument types, most shared words), never the instance's own;
* a content-free sentence that fits every method;
* where the dataset has them (its ``wrong_descriptions`` column; the builtin set has one for
  each instance of the default sample), the instance's known-wrong descriptions: near misses
  of the gold with one detail changed (an off-by-one, first for last, a wrong edge case).

It prints the means of each class, how often the judge rated the gold strictly above the
decoy (the run's judge check needs 75%), the AUC of gold against decoy with its 95%
interval, a table of ratings by class and, with known-wrong descriptions, how often the
gold was rated above all of its item's (a ``known wrong`` row and line; the exit status
does not read them), and writes it all as JSON, item by item, to
``-o FILE`` (default ``judge-check.json``; an existing file only with ``--overwrite``).
Run it before paying for a benchmark run, to choose a judge that can tell a right
description from a fluent wrong one. Its calls go through the response cache
(``--pau-cache-dir``, default ``.pau_cache``) and are counted (requests, cache hits, cost).

Exit status: 0 the judge tells gold from decoy on at least 75% of the instances, 1 it does
not, 2 bad arguments or an error before any rating.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError
from pytest_pau.settings.values import parse_path

if TYPE_CHECKING:
    from pytest_pau.models.judge_check import JudgeCheck, JudgeCheckItem
    from pytest_pau.settings import PauSettings

#: The ``--pau-*`` options the command reads (their rows, parsers and help are the plugin's).
OPTIONS = (
    "judge-model",
    "judge-api-base",
    "dataset",
    "split",
    "dataset-outputs",
    "seed",
    "judge-samples",
    "reasoning",
    "reasoning-budget",
    "reasoning-effort",
    "cache-dir",
    "no-cache",
    "max-cost-usd",
)
#: Instances rated by default: enough for the AUC's interval to be about +-0.1.
DEFAULT_INSTANCES = 40
DEFAULT_OUTPUT = "judge-check.json"


def _instances(text: str) -> int | None:
    value = text.strip().lower()
    if value == "all":
        return None
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(
            f"expected a number of instances >= 1 or all, got {text!r}"
        )
    return n


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``pau judge-check``."""
    from pytest_pau.settings import add_options, specs_named

    doc = (__doc__ or "").split("\n\n")
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "judge-check",
        help=(
            "Rate gold, decoy, content-free and known-wrong descriptions: can this judge "
            "tell them apart?"
        ),
        description="\n\n".join(doc[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-n",
        "--instances",
        type=_instances,
        default=DEFAULT_INSTANCES,
        metavar="N|all",
        help=f"Instances to rate (a seeded sample; all when fewer). Default: {DEFAULT_INSTANCES}.",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=parse_path,
        default=Path(DEFAULT_OUTPUT),
        metavar="FILE.json",
        help=f"Write the figures and every rating here (atomically). Default: {DEFAULT_OUTPUT}.",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="Replace an existing --output file (refused otherwise, before any call).",
    )
    add_options(parser.add_argument, specs_named(*OPTIONS))
    return parser


def _settings(args: argparse.Namespace) -> PauSettings:
    from pytest_pau.settings import resolve

    settings = resolve(lambda field: getattr(args, f"pau_{field}", None), lambda _key: None)
    if settings.cache_dir is None and not settings.no_cache:
        settings = settings.model_copy(update={"cache_dir": Path(".pau_cache")})
    return settings


def _judge(settings: PauSettings) -> tuple[Any, Any]:
    """The judge as a run builds it (client with cache and budget, caps, reasoning)."""
    from pytest_pau.llm import Budget, make_client
    from pytest_pau.llm.caps import caps_for
    from pytest_pau.llm.reasoning import ReasoningSpec
    from pytest_pau.scoring import Judge

    mode, budget, effort = settings.reasoning_for("judge")
    client = make_client(
        settings.judge_model,
        api_base=settings.judge_api_base,
        cache_dir=settings.cache_dir,
        no_cache=settings.no_cache,
        budget=Budget(settings.max_cost_usd) if settings.max_cost_usd is not None else None,
        reasoning=ReasoningSpec(mode=mode, budget=budget, effort=effort),
    )
    judge = Judge(
        client,
        samples=settings.judge_samples,
        use_logprobs=settings.judge_logprobs,
        seed=settings.seed,
        max_tokens=caps_for(settings.protocol).judge,
    )
    return client, judge


def check_output(settings: PauSettings, output: Path) -> None:
    """The one guard over outputs, for ``--output``: not the dataset file nor the cache's
    files, no folder, FIFO or device, in a folder that takes a file; before any model call.

    Raises:
        ConfigError: naming ``--output``, the path and the problem.
    """
    from pytest_pau.files.guard import RUN_CHECKED, check_outputs, output_arg
    from pytest_pau.plugin.preflight import input_args

    check_outputs([output_arg("--output", output)], input_args(settings), checked=RUN_CHECKED)


def run(args: argparse.Namespace) -> int:
    """Run ``pau judge-check`` (see the module docstring)."""
    from pytest_pau import load_dataset
    from pytest_pau.prompting import PROMPTS_VERSION
    from pytest_pau.scoring.decoy import check_sample, decoys_for, rate_check
    from pytest_pau.stats.judge_check import check_line, known_wrong_line, summarize_check

    settings = _settings(args)
    output: Path = args.output
    check_output(settings, output)
    if output.exists() and not args.overwrite:
        raise ConfigError(
            f"--output {str(output)!r} exists (an earlier check?): name another file, or "
            "pass --overwrite to replace it"
        )
    instances = load_dataset(
        settings.dataset,
        settings.split,
        outputs=settings.dataset_outputs,
        protocol=settings.protocol,
    )
    ids = check_sample([i.id for i in instances], args.instances, seed=settings.seed)
    decoys = decoys_for(ids, instances, seed=settings.seed)
    if not decoys:
        raise ConfigError(
            f"--pau-dataset={settings.dataset!r}: no instance has another instance's "
            "different description to use as its decoy (the check needs at least two)"
        )
    by_id = {i.id: i for i in instances}
    client, judge = _judge(settings)
    print(
        f"pau judge-check: judge {settings.judge_model}"
        + (f" at {settings.judge_api_base}" if settings.judge_api_base else "")
        + f" on {settings.dataset}/{settings.split}, {len(decoys)} instances, seed {settings.seed}",
        flush=True,
    )
    start = time.perf_counter()
    items: list[tuple[str, JudgeCheckItem]] = []
    for k, (item_id, decoy) in enumerate(decoys.items(), 1):
        instance = by_id[item_id]
        item, _used = rate_check(
            judge, instance, decoy, content_free=True, known_wrong=instance.wrong_descriptions
        )
        items.append((item_id, item))
        print(
            f"  {k}/{len(decoys)} {item_id}: gold {_r(item.gold)}, decoy {_r(item.decoy)} "
            f"({decoy.id}), content-free {_r(item.content_free)}"
            + (
                f", known wrong {', '.join(_r(r) for r in item.known_wrong)}"
                if item.known_wrong
                else ""
            )
            + (f"; {item.error}" if item.error else ""),
            file=sys.stderr,
            flush=True,
        )
    wall = time.perf_counter() - start
    check = summarize_check([i for _, i in items])
    assert check is not None  # decoys is not empty
    usage = client.usage
    requests = usage.calls - usage.cache_hits
    for line in _table(check):
        print(line)
    print(check_line(check))
    wrong_line = known_wrong_line(check)
    if wrong_line is not None:
        print(wrong_line)
    print(
        f"requests {requests} (cache hits {usage.cache_hits}), cost ${usage.cost_usd:.4f}, "
        f"wall {wall:.1f} s"
    )
    doc = {
        "judge_model": settings.judge_model,
        "judge_api_base": settings.judge_api_base,
        "dataset": settings.dataset,
        "split": settings.split,
        "seed": settings.seed,
        "prompts_version": PROMPTS_VERSION,
        "check": check.model_dump(mode="json"),
        "requests": requests,
        "cache_hits": usage.cache_hits,
        "cost_usd": usage.cost_usd,
        "wall_s": round(wall, 3),
        "items": [{"id": i, **item.model_dump(mode="json")} for i, item in items],
    }
    from pytest_pau.paths import write_text_atomic

    written = write_text_atomic(output, json.dumps(doc, indent=2) + "\n")
    print(f"JSON: {written}")
    return 0 if check.discriminates else 1


def _r(value: float | None) -> str:
    return "none" if value is None else f"{value:g}"


def _table(check: JudgeCheck) -> list[str]:
    """Ratings by class: one row per class, one column per rating, and the mean of the
    row's ratings (the line's gold and decoy means are of the rated pairs only).

    The content-free row is always there (the command asks every item's): a judge that
    rated none of them has a row of ``none``, not no row."""
    columns = ["1", "2", "3", "4", "5", "none"]
    names = {
        "gold": "gold",
        "decoy": "decoy",
        "content_free": "content-free",
        "known_wrong": "known wrong",
    }
    lines = [f"{'rating':<13}" + "".join(f"{c:>6}" for c in columns) + f"{'mean':>7}"]
    asked = {"content_free": {"none": check.sampled - check.no_decoy}}
    for key, name in names.items():
        row = check.confusion.get(key, asked.get(key))
        if row is None:
            continue
        cells = "".join(f"{row.get(c, 0):>6}" for c in columns)
        rated = {float(r): n for r, n in row.items() if r != "none"}
        count = sum(rated.values())
        mean = "n/a" if not count else f"{sum(r * n for r, n in rated.items()) / count:.2f}"
        lines.append(f"{name:<13}{cells}{mean:>7}")
    return lines

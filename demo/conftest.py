"""The quick start's ceiling: the same items run by the oracle, next to the model's result.

``--pau-model=oracle`` answers every instance with its gold description, so what this
judge and this coder make of it is the best score they allow: a model cannot score
higher with them. After the run, :func:`pytest_pau_summary_extra` scores the oracle on
the instances the run selected, with the run's judge, coder and model cache (a second
run costs nothing), and prints both under the PAU summary::

    ceiling: the same 1 item with --pau-model=oracle (the gold description as the
    answer), the same judge and coder
               judge  match  passed
      local     1.00   0.08     0/1
      oracle    5.00   1.00     1/1

It is an ordinary conftest file: the hooks are pytest-pau's public ones
(``pytest_pau_summary_extra``) and pytest's own.
"""

from __future__ import annotations

import pytest

from pytest_pau import Instance, InstanceResult
from pytest_pau.models import Summary
from pytest_pau.scoring import Evaluator
from pytest_pau.settings import PauSettings

_run: dict[str, PauSettings] = {}
_instances: list[Instance] = []


@pytest.fixture(autouse=True, scope="session")
def _remember_settings(pau_settings: PauSettings) -> None:
    """The run's resolved settings (its judge, coder, cache folder...), for the hook below."""
    _run["settings"] = pau_settings


def pytest_collection_finish(session: pytest.Session) -> None:
    """The instances the run selected (after -m, -k and --pau-limit), in order."""
    _instances[:] = [
        item.callspec.params["pau_instance"]
        for item in session.items
        if "pau_instance" in getattr(getattr(item, "callspec", None), "params", {})
    ]


def _mean(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    return f"{sum(known) / len(known):.2f}" if known else "n/a"


def pytest_pau_summary_extra(config: pytest.Config, summary: Summary) -> list[str] | None:
    settings = _run.get("settings")
    if settings is None or settings.model in ("oracle", "null"):
        return None  # nothing ran, or this run is the ceiling (or the floor) itself
    if not _instances:  # under -n the controller runs no item: measure it as its own run
        return [
            "ceiling: pytest --pau-model=oracle with the same options shows what this judge "
            "and coder allow"
        ]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"measuring the ceiling: {_items(len(_instances))} with --pau-model=oracle ..."
        )
    evaluator = Evaluator(settings.model_copy(update={"model": "oracle"}))
    results: list[InstanceResult] = [evaluator.evaluate(inst) for inst in _instances]
    scored = [r for r in results if r.scored]
    c = summary.counts
    w = max(len(settings.model), len("oracle")) + 2
    lines = [
        f"ceiling: the same {_items(len(_instances))} with --pau-model=oracle (the gold "
        "description as the answer), the same judge and coder",
        f"  {'':<{w}}{'judge':>6} {'match':>6} {'passed':>7}",
        f"  {settings.model:<{w}}{_num(summary.judge.mean):>6} "
        f"{_num(summary.code_match.mean):>6} {f'{c.passed}/{c.scored}':>7}",
        f"  {'oracle':<{w}}{_mean([r.judge_score for r in scored]):>6} "
        f"{_mean([r.code_match for r in scored]):>6} "
        f"{f'{sum(r.passed for r in scored)}/{len(scored)}':>7}",
    ]
    unscored = [r for r in results if not r.scored]
    if unscored:
        first = unscored[0]
        why = (first.error or first.skipped or "").strip().splitlines() or [""]
        lines.append(f"  the oracle left {len(unscored)} unscored; {first.id}: {why[0][:100]}")
    return lines


def _items(n: int) -> str:
    return "1 item" if n == 1 else f"{n} items"


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"

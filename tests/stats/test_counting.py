"""One counting rule (``stats.metrics.counted``) read by the summary, the gates, the early
stop, ``pau compare``, the baseline and the calibration store, per protocol."""

from __future__ import annotations

import pytest

from pytest_pau.errors import ConfigError
from pytest_pau.models import InstanceResult, RunInfo, ScoresOnly, ScoresReport
from pytest_pau.report.calibration import reference_rows, scorer_identity
from pytest_pau.report.summary import build_summary
from pytest_pau.settings import PauSettings
from pytest_pau.stats.compare import compare_reports
from pytest_pau.stats.early_stop import EarlyStopTracker
from pytest_pau.stats.gates import Gates, check_baseline
from pytest_pau.stats.metrics import counted


def _r(i: int, judge: float | None, match: float | None, **kw: object) -> InstanceResult:
    return InstanceResult(
        id=f"s/{i}", source="s", arity=1, judge_score=judge, code_match=match, **kw
    )  # type: ignore[arg-type]


SCORED = _r(0, 4.0, 0.5, passed=False)
UNRATED = _r(1, None, 1.0, error="the judge gave no parseable 'Rating: N'")
CRASHED = _r(2, None, None, error="LLMUnavailableError in the agent stage: down")
SKIPPED = _r(3, None, None, skipped="budget spent")


@pytest.mark.parametrize(
    ("item", "default", "paper"),
    [
        (SCORED, (4.0, 0.5, 0.0), (4.0, 0.5, 0.0)),
        (UNRATED, (None, None, None), (1.0, 1.0, 0.0)),  # keeps the match it has
        (CRASHED, (None, None, None), (1.0, 0.0, 0.0)),
        (SKIPPED, (None, None, None), (None, None, None)),  # not run: no row anywhere
    ],
)
def test_what_an_item_counts_as(
    item: InstanceResult, default: tuple[float | None, ...], paper: tuple[float | None, ...]
) -> None:
    metrics = ("judge", "match", "pass")
    assert tuple(counted(item, m) for m in metrics) == default
    assert tuple(counted(item, m, "paper") for m in metrics) == paper


def _results() -> list[InstanceResult]:
    scores = [5.0, 5.0, 5.0, 2.0]
    items = [_r(i, s, 1.0, passed=s >= 3) for i, s in enumerate(scores)]
    return [*items, _r(9, None, 1.0, error="the judge gave no parseable rating")]


def test_summary_and_gates_count_the_unrated_item_as_1_under_paper_only() -> None:
    gates = Gates(levels={"min_mean_judge": 3.9})
    default = build_summary(_results(), gates=gates)
    paper = build_summary(_results(), gates=gates, protocol="paper")
    assert default.judge.mean == pytest.approx(17 / 4)
    assert paper.judge.mean == pytest.approx(18 / 5)
    assert (default.counts.counted, paper.counts.counted) == (4, 5)
    # By default the unrated item is unknown (anything from 1 to 5): 3.60 to 4.40 over the
    # selection, so the gate is not decided; under paper it counts 1: 3.60, failed.
    assert default.gates[0].status == "not decided"
    assert paper.gates[0].status == "failed"
    assert paper.pass_rate == pytest.approx(3 / 5)
    assert default.pass_rate == pytest.approx(3 / 4)
    # Still listed as an error under both; only the paper summary has the paper block.
    assert [e.id for e in paper.errors] == [e.id for e in default.errors] == ["s/9"]
    assert paper.paper is not None
    assert paper.paper.judge.filled == 1
    assert default.paper is None
    # The one-sided bound of --pau-gate-on-ci counts the same values.
    on_ci = build_summary(
        _results(), gates=Gates(levels={"min_mean_judge": 1.0}, on_ci=True), protocol="paper"
    )
    low = build_summary(_results(), gates=Gates(levels={"min_mean_judge": 1.0}, on_ci=True))
    assert on_ci.gates[0].value is not None
    assert low.gates[0].value is not None
    # The default protocol's worst case puts the unknown item at the bottom of the scale,
    # where the paper protocol counts it: the same bound.
    assert on_ci.gates[0].value == pytest.approx(low.gates[0].value)


def test_early_stop_feeds_an_errored_item_as_known_under_paper() -> None:
    ids = [f"s/{i}" for i in range(30)]
    unrated = {i: _r(n, None, 0.0, error="no rating") for n, i in enumerate(ids)}
    verdicts = {}
    for protocol in ("pytest-pau", "paper"):
        tracker = EarlyStopTracker(ids, levels={"min_mean_judge": 3.0}, protocol=protocol)
        for i in ids:
            tracker.add(i, unrated[i])
        tracker.finish()
        verdicts[protocol] = tracker.level_verdicts()[0]
    # Every item scored 1 < 3: decided (failed) under paper; by default every item is
    # unknown, so the gate is not decided.
    assert verdicts["paper"].status == "failed"
    assert verdicts["pytest-pau"].status == "not decided"


def _report(protocol: str, results: list[InstanceResult]) -> ScoresReport:
    run = RunInfo(
        plugin_version="t",
        model="m",
        judge_model="j",
        coder_model="c",
        dataset="d",
        split="test",
        mode="interactive",
        seed=0,
        max_iterations=20,
        protocol=protocol,
    )
    rows = [ScoresOnly.model_validate(r, from_attributes=True) for r in results]
    return ScoresReport(run=run, instances=rows)


def test_compare_and_baseline_refuse_to_mix_protocols_and_name_both() -> None:
    a, b = _report("pytest-pau", _results()), _report("paper", _results())
    with pytest.raises(ConfigError, match=r"A \(a.json\) 'pytest-pau', B \(b.json\) 'paper'"):
        compare_reports([a, b], sources=["a.json", "b.json"])
    refusals, _ = check_baseline(a, b.run, "base.json")
    assert refusals == [
        "--pau-baseline=base.json: runs differ in protocol (baseline 'pytest-pau', "
        "this run 'paper')"
    ]
    # Two paper runs compare, the unrated item counting 1.
    comp = compare_reports([b, _report("paper", _results())])
    judge = next(m for m in comp.metrics if m.metric == "judge")
    assert judge.runs[0].mean == pytest.approx(18 / 5)
    assert judge.runs[0].n == 5


def test_the_calibration_store_keys_each_protocol_apart() -> None:
    default = scorer_identity(PauSettings(), prompts_version="p")
    paper = scorer_identity(
        PauSettings(protocol="paper", judge_model="local", coder_model="local"),
        prompts_version="p",
    )
    assert default != paper
    assert paper.endswith("protocol paper")
    keys = {r.id: r.id for r in _results()}
    rows = reference_rows(_results(), keys, "paper")  # type: ignore[arg-type]
    assert [(k, j) for k, j, _ in rows][-1] == ("s/9", 1.0)
    assert len(reference_rows(_results(), keys)) == 4  # type: ignore[arg-type]

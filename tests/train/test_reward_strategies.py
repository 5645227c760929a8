"""Scripted strategies played through the real environment: what each reward schedule pays.

The episodes run in :class:`PauEnv` with the real sandbox; the critic is scripted through the
environment's critic protocol (:class:`~pytest_pau.train.env.SupportsCritic`): it reads the
rating it should give from the step ("rated N"), so a strategy is a list of replies and the
table below is exact. ``docs/training.md`` shows the same table; the last test checks its
numbers against these.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from pytest_pau.agent import EpisodeState
from pytest_pau.models import Instance
from pytest_pau.sandbox import Sandbox
from pytest_pau.train.critic import Verdict
from pytest_pau.train.env import PauEnv
from pytest_pau.train.rewards import RewardConfig

DOCS = Path(__file__).parents[2] / "docs" / "training.md"
ITERATIONS = 20
PLAN_RATING = 5


class RatingCritic:
    """Gives the rating its step names ("rated N"); 0 when the step names none."""

    @staticmethod
    def _verdict(text: str) -> Verdict:
        match = re.search(r"rated (\d)", text)
        rating = int(match.group(1)) if match else 0
        return Verdict(score=rating / 9, rating=rating)

    def rate_reasoning(self, instance: Instance, state: EpisodeState, plan: str) -> Verdict:
        return self._verdict(plan)

    def rate_hypothesis(
        self,
        instance: Instance,
        state: EpisodeState,
        summary: str,
        concluded: bool | None,
        observed: Sequence[object] = (),
    ) -> Verdict:
        return self._verdict(summary)


def reflection(decision: str | None, rating: int) -> str:
    """A reflection: ``CONCLUDE: YES``/``NO``, or no CONCLUDE line at all (None)."""
    summary = f"SUMMARY: the method's behaviour, a hypothesis rated {rating}."
    return summary if decision is None else f"CONCLUDE: {decision}\n{summary}"


#: One iteration's reflection per iteration number (1-based): (decision, rating).
Plan = Callable[[int], tuple[str | None, int]]


def conclude_at(k: int, rating: int, before: int = 2) -> Plan:
    """NO with hypotheses rated ``before`` until iteration ``k``, then YES rated ``rating``."""
    return lambda i: ("YES", rating) if i == k else ("NO", before)


def every(decision: str | None, rating: int) -> Plan:
    return lambda i: (decision, rating)


#: The table of docs/training.md ("Which reward"), in its order.
STRATEGIES: dict[str, Plan] = {
    "conclude at iteration 1, hypothesis rated 8 (early, right)": conclude_at(1, 8),
    "NO rated 2 until iteration 10, then conclude rated 8 (late, right)": conclude_at(10, 8),
    "NO rated 2 until iteration 20, then conclude rated 8 (last moment, right)": conclude_at(20, 8),
    "conclude at iteration 1, hypothesis rated 2 (early, wrong)": conclude_at(1, 2),
    "NO rated 2 until iteration 10, then conclude rated 2 (late, wrong)": conclude_at(10, 2),
    "NO every iteration, hypothesis rated 8 (stall, good)": every("NO", 8),
    "NO every iteration, hypothesis rated 3 (stall)": every("NO", 3),
    "NO every iteration, hypothesis rated 2 (stall)": every("NO", 2),
    "NO every iteration, hypothesis rated 1 (stall, bad)": every("NO", 1),
    "no CONCLUDE line, hypothesis rated 8 (format failure)": every(None, 8),
    "no CONCLUDE line, hypothesis rated 1 (format failure)": every(None, 1),
}
RIGHT = [name for name in STRATEGIES if "right)" in name]
STALLING = [name for name in STRATEGIES if "stall" in name or "format failure" in name]
WRONG = [name for name in STRATEGIES if "wrong)" in name]


DOUBLE = Instance(
    id="t/double",
    source="t",
    code="def test_func(arg0):\n    return arg0 * 2\n",
    header="def test_func(arg0):",
    description="Returns the argument doubled.",
    arity=1,
)


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox(DOUBLE.code) as sandbox:
        yield sandbox


def play(box: Sandbox, variant: str, plan: Plan, plan_rating: int = PLAN_RATING) -> float:
    """The return of one scripted episode of ``ITERATIONS`` iterations."""
    env = PauEnv(
        DOUBLE,
        critic=RatingCritic(),
        variant=variant,
        max_iterations=ITERATIONS,
        config=RewardConfig(),
        sandbox=box,
    )
    env.reset()
    iteration = 0
    while not env.done:
        iteration += 1
        env.step(f"Try a small int; a plan rated {plan_rating}.")
        env.step("INPUT: (3,)")
        decision, rating = plan(iteration)
        env.step(reflection(decision, rating))
    assert iteration <= ITERATIONS
    return env.total_reward


@pytest.fixture(scope="module")
def table(box: Sandbox) -> dict[str, dict[str, float]]:
    return {
        variant: {name: play(box, variant, plan) for name, plan in STRATEGIES.items()}
        for variant in ("aac", "paper")
    }


def test_aac_concluding_right_out_earns_every_stalling_strategy(
    table: dict[str, dict[str, float]],
) -> None:
    aac = table["aac"]
    worst_right = min(aac[n] for n in RIGHT)
    best_other = max(aac[n] for n in STALLING + WRONG)
    assert worst_right > best_other, {n: round(v, 2) for n, v in aac.items()}
    # the margin the schedule promises (rewards.RewardConfig.stall_margin) holds here too
    stall_best = max(aac[n] for n in STALLING)
    assert aac[RIGHT[0]] - stall_best >= RewardConfig().stall_margin(ITERATIONS)


def test_a_missing_line_is_never_a_bonus(table: dict[str, dict[str, float]]) -> None:
    aac, paper = table["aac"], table["paper"]
    missing_bad = "no CONCLUDE line, hypothesis rated 1 (format failure)"
    no_bad = "NO every iteration, hypothesis rated 1 (stall, bad)"
    # 20 parse penalties of -0.5 apart, under both schedules
    assert aac[no_bad] - aac[missing_bad] == pytest.approx(10.0)
    assert paper[no_bad] - paper[missing_bad] == pytest.approx(10.0)
    # ...but only under aac does the missing line lose to concluding right
    early_right = RIGHT[0]
    assert aac[missing_bad] < aac[early_right]
    assert paper[missing_bad] > paper[early_right]  # the reference's schedule: farmed


def test_the_paper_schedule_pays_stalling_the_issue_measured(
    table: dict[str, dict[str, float]],
) -> None:
    """The figures of the review (issue 38, to within its rounding): +3.47 for concluding right
    at once, +52.84 for answering NO with a hypothesis rated 1 every iteration, +42.84
    without a CONCLUDE line."""
    paper = table["paper"]
    assert paper[RIGHT[0]] == pytest.approx(3.47, abs=0.02)
    stall = paper["NO every iteration, hypothesis rated 1 (stall, bad)"]
    assert stall == pytest.approx(52.84, abs=0.02)
    # by hand: 20 x (5/9 + 0.025 + 1/9 + 2) - 1
    assert stall == pytest.approx(20 * (5 / 9 + 0.025 + 1 / 9 + 2) - 1)
    assert paper["no CONCLUDE line, hypothesis rated 1 (format failure)"] == pytest.approx(
        42.84, abs=0.02
    )
    # not monotonic in the rating: NO rated 2 earns more than NO rated 3
    assert (
        paper["NO every iteration, hypothesis rated 2 (stall)"]
        > paper["NO every iteration, hypothesis rated 3 (stall)"]
    )


@pytest.mark.parametrize(
    "shape",
    [
        pytest.param(lambda r: conclude_at(1, r), id="conclude-at-1"),
        pytest.param(lambda r: conclude_at(10, r), id="conclude-at-10"),
        pytest.param(lambda r: every("NO", r), id="never"),
        pytest.param(lambda r: every(None, r), id="no-line"),
        pytest.param(lambda r: lambda i: ("NO", r) if i < 5 else ("YES", 8), id="early-ratings"),
    ],
)
def test_aac_return_is_monotonic_in_the_rating(shape: Callable[[int], Plan], box: Sandbox) -> None:
    returns = [play(box, "aac", shape(r)) for r in range(10)]
    assert all(b >= a - 1e-9 for a, b in itertools.pairwise(returns)), returns


def test_aac_return_is_monotonic_in_the_plan_rating(box: Sandbox) -> None:
    returns = [play(box, "aac", conclude_at(3, 8), plan_rating=r) for r in range(10)]
    assert returns == sorted(returns), returns
    assert returns[0] < returns[-1]


def docs_table() -> dict[str, tuple[float, float]]:
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("<!-- strategy-table:start -->", 1)[1].split("<!-- strategy-table:end -->")[
        0
    ]
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"[+-]?\d+\.\d\d", cells[1]):
            rows[cells[0]] = (float(cells[1]), float(cells[2]))
    return rows


def test_the_docs_table_is_this_table(table: dict[str, dict[str, float]]) -> None:
    shown = docs_table()
    assert list(shown) == list(STRATEGIES)
    for name, (aac, paper) in shown.items():
        assert aac == pytest.approx(table["aac"][name], abs=0.005), name
        assert paper == pytest.approx(table["paper"][name], abs=0.005), name

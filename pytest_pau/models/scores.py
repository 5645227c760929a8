"""What a comparison reads of a run: ids, verdicts and scores (no trajectories).

:class:`Scored` is what every statistic reads of an instance (an
:class:`~pytest_pau.models.InstanceResult` or a :class:`ScoresOnly`); a
:class:`ScoresReport` is a JSON report read for comparison only
(:func:`pytest_pau.report.compare_io.read_scores`).
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict, model_validator

from pytest_pau.models.outcome import JudgeScore, SkipCause, UnitScore, legacy_skip_cause
from pytest_pau.models.report import Report, RunInfo


class Scored(Protocol):
    """What the comparison reads of an instance: an InstanceResult or a ScoresOnly."""

    @property
    def id(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def judge_score(self) -> float | None: ...
    @property
    def code_match(self) -> float | None: ...
    @property
    def error(self) -> str | None: ...
    @property
    def skipped(self) -> str | None: ...
    @property
    def skip_cause(self) -> SkipCause | None: ...


class ScoresOnly(BaseModel):
    """The fields of an instance result that a comparison needs (the rest is skipped)."""

    model_config = ConfigDict(extra="ignore")

    id: str
    passed: bool = False
    judge_score: JudgeScore | None = None
    code_match: UnitScore | None = None
    error: str | None = None
    skipped: str | None = None
    skip_cause: SkipCause | None = None
    self_code_match: UnitScore | None = None
    n_queries: int = 0
    concluded: bool = False

    _legacy = model_validator(mode="before")(legacy_skip_cause)


class ScoresReport(BaseModel):
    """A JSON report read for comparison only: run info and scores, no trajectories.

    Validating trajectories is most of the cost of reading a report; skipping them
    reads a 5,000-instance report several times faster than
    :func:`pytest_pau.report.json_report.read_report`.
    """

    model_config = ConfigDict(extra="ignore")

    run: RunInfo
    instances: list[ScoresOnly]


AnyReport = Report | ScoresReport

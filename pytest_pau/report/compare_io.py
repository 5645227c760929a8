"""Reading JSON reports for ``pau compare``: run info and scores only.

Validating trajectories into models is most of the cost of reading a report; a
comparison needs only ids, verdicts and scores, so :func:`read_scores` reads a
5,000-instance report many times faster than
:func:`pytest_pau.report.json_report.read_report` (see ``benchmarks/compare_bench.py``).
"""

from __future__ import annotations

import os
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from pytest_pau.models import Report, RunInfo
from pytest_pau.report.json_report import read_model


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


class ScoresOnly(BaseModel):
    """The fields of an instance result that a comparison needs (the rest is skipped)."""

    model_config = ConfigDict(extra="ignore")

    id: str
    passed: bool = False
    judge_score: float | None = None
    code_match: float | None = None
    error: str | None = None
    skipped: str | None = None


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


def read_scores(path: str | os.PathLike[str]) -> ScoresReport:
    """Read the run info and scores of a JSON report (``--pau-report``).

    Raises:
        ConfigError: the file is missing or is not a pytest-pau report; the message
            names the file and the first problem.
    """
    return read_model(path, ScoresReport)

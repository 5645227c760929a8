"""Reading JSON reports for ``pau compare``: run info and scores only.

Validating trajectories into models is most of the cost of reading a report; a
comparison needs only ids, verdicts and scores, so :func:`read_scores` reads a
5,000-instance report many times faster than
:func:`pytest_pau.report.json_report.read_report` (see ``benchmarks/compare_bench.py``).
"""

from __future__ import annotations

import os

from pytest_pau.models import ScoresReport
from pytest_pau.report.json_report import read_model


def read_scores(path: str | os.PathLike[str]) -> ScoresReport:
    """Read the run info and scores of a JSON report (``--pau-report``).

    Raises:
        ConfigError: the file is missing or is not a pytest-pau report; the message
            names the file and the first problem.
    """
    return read_model(path, ScoresReport)

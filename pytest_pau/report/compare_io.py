"""Reading JSON reports for ``pau compare``: run info and scores only.

Validating trajectories into models is most of the cost of reading a report; a
comparison needs only ids, verdicts and scores, so :func:`read_scores` reads a
5,000-instance report many times faster than
:func:`pytest_pau.report.json_report.read_report` (see ``benchmarks/compare_bench.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

from pytest_pau.errors import ConfigError
from pytest_pau.models import ScoresReport
from pytest_pau.report.json_report import line_of, read_model


def read_scores(path: str | os.PathLike[str]) -> ScoresReport:
    """Read the run info and scores of a JSON report (``--pau-report``).

    Raises:
        ConfigError: the file is missing or is not a pytest-pau report, a score is not a
            number (a string ``"5"`` is refused, not read as 5), or an instance id is
            listed twice (a comparison would keep one copy silently); the message names
            the file, the line and the field.
    """
    report = read_model(path, ScoresReport)
    first: dict[str, int] = {}
    for i, r in enumerate(report.instances):
        if r.id in first:
            text = Path(path).expanduser().read_text(encoding="utf-8", errors="replace")
            line = line_of(text, ("instances", i))
            at = f"line {line}: " if line is not None else ""
            raise ConfigError(
                f"{str(path)!r}: {at}instances[{i}] repeats id {r.id!r} (first at "
                f"instances[{first[r.id]}]); a report lists each instance once: keep the "
                "result you mean and remove the other"
            )
        first[r.id] = i
    return report

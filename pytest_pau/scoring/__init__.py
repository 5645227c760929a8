"""Scoring: the judge, code match, failure modes, and the Evaluator that runs one item."""

from __future__ import annotations

from pytest_pau.scoring.coder import (
    Coder,
    as_examples,
    check_code,
    extract_code,
    run_code,
)
from pytest_pau.scoring.evaluator import Evaluator
from pytest_pau.scoring.failure import (
    CLASSIFIER_LABELS,
    SelfContradiction,
    classify_failure,
    mostly_format_failures,
    parse_label,
    self_contradiction,
)
from pytest_pau.scoring.judge import Judge

__all__ = [
    "CLASSIFIER_LABELS",
    "Coder",
    "Evaluator",
    "Judge",
    "SelfContradiction",
    "as_examples",
    "check_code",
    "classify_failure",
    "extract_code",
    "mostly_format_failures",
    "parse_label",
    "run_code",
    "self_contradiction",
]

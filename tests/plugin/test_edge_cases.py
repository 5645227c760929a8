"""Edge cases: a gate with nothing to measure, --pau-limit after --lf."""

from __future__ import annotations

import pytest


def test_gate_without_any_pau_item_says_why_it_fails(run_pau, pau_pytester) -> None:
    pau_pytester.makepyfile(test_other="def test_other():\n    pass\n")
    result = run_pau("-k", "other", "--pau-min-pass-rate=0.5")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["PAU release gate failed (--pau-min-pass-rate=0.5): no PAU item produced a result*"]
    )


def test_limit_applies_after_last_failed(run_pau) -> None:
    first = run_pau()
    first.assert_outcomes(passed=3, failed=1, errors=1)
    # --lf keeps tricky (failed) and boom (error); the limit then takes the first of those.
    again = run_pau("--lf", "--pau-limit=1", "-v")
    again.stdout.fnmatch_lines(["*test_pau?toy/tricky?*FAILED*"])
    again.assert_outcomes(failed=1)

"""The regression gate's line says which of its two p-values decides."""

from __future__ import annotations

from pytest_pau.models import BaselineSummary, RegressionVerdict
from pytest_pau.report.gate_lines import regression_line


def test_the_line_says_the_tests_p_decides_and_the_sign_flip_p_does_not() -> None:
    # It read "(p=0.961; sign-flip p=0.003)": side by side, the smaller looked like the
    # verdict of a gate that had passed.
    r = RegressionVerdict(
        metric="judge", label="judge score", margin=0.2, n=40, mean_diff=0.05, low=-0.1,
        p_value=0.961, p_difference=0.003, status="passed", passed=True,
    )  # fmt: skip
    line = regression_line(BaselineSummary(path="b.json", model="m", regressions=[r]), r)
    assert "p=0.961 decides" in line
    assert "sign-flip p=0.003 (are the runs interchangeable?) decides nothing" in line

"""The HTML report's verdict reasons carry each gate's value, not only how it was decided."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

import pytest

Run = Callable[..., pytest.RunResult]


def test_a_failed_gates_reason_shows_its_value_and_bound(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    # It read "--pau-min-pass-rate=0.9 failed: exact: all 4 items seen": which value?
    result = run_pau("--pau-min-pass-rate=0.9", "--pau-html=r.html")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    page = unescape((pau_pytester.path / "r.html").read_text())
    reasons = re.findall(r'<li class="reason">(.*?)</li>', page, re.S)
    (gate,) = [r for r in reasons if "--pau-min-pass-rate" in r]
    assert re.search(r"failed: pass rate >= 90\.0%: \d+\.\d%", gate), gate
    assert "--pau-min-pass-rate=0.9 failed" in gate  # how it was decided, still there

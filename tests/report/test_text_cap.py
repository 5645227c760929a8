"""Hardening (issue 15): one huge model answer cannot blow up the JSON report or the page."""

from __future__ import annotations

from pathlib import Path

from pytest_pau.models import Step
from pytest_pau.report.html import write_html
from pytest_pau.report.json_report import read_report, write_report

from .conftest import make_report, result

CAP = 64 * 1024  # report/text_cap.py MAX_STORED_CHARS
HUGE = "A" * 5_000_000  # the 5 MB answer of the issue


def huge_report():  # type: ignore[no-untyped-def]
    steps = [
        Step(kind="act", iteration=i, prompt=f"prompt {i}: {HUGE}", response=HUGE) for i in range(3)
    ]
    return make_report([result("big", prediction=HUGE, trajectory=steps)])


def test_report_keeps_a_capped_copy_of_each_text_with_its_full_length(tmp_path: Path) -> None:
    report = huge_report()
    path = write_report(tmp_path / "r.json", report)
    assert path.stat().st_size < 1_000_000, "7 fields of 5 MB each, capped at 64 K chars each"
    back = read_report(path).instances[0]
    assert back.prediction is not None
    assert back.prediction.startswith("A" * CAP)
    assert back.prediction.endswith(
        "[truncated: 5,000,000 chars in total; the model cache keeps the full text]"
    )
    assert back.trajectory[2].response.endswith(
        "5,000,000 chars in total; the model cache keeps the full text]"
    )
    # The run's own result is untouched (the summary and the gates see the full text).
    assert report.instances[0].prediction == HUGE
    # Written again, the capped report stays the same (no second marker).
    again = write_report(tmp_path / "again.json", read_report(path))
    assert again.read_text() == path.read_text()


def test_html_page_of_a_huge_answer_stays_small(tmp_path: Path) -> None:
    page = write_html(huge_report(), tmp_path / "r.html", plots=False)
    assert page.stat().st_size < 1_000_000

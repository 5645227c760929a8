"""A user's own output: ``pytest_pau_report_write`` gets the report with its verdict settled."""

from __future__ import annotations

import json

CONFTEST = """
import json

def pytest_pau_report_write(config, report):
    path = config.rootpath / "mine.json"
    verdict = report.summary.verdict
    path.write_text(json.dumps({"status": verdict.status, "items": len(report.instances)}))
    return f"my output: {path.name}"
"""

FAILING = """
def pytest_pau_report_write(config, report):
    raise OSError("the dashboard is down")
"""


def test_a_conftest_writes_its_own_output_from_the_settled_report(pau_pytester, run_pau) -> None:
    pau_pytester.makeconftest(CONFTEST)
    result = run_pau("-k", "not boom", "--pau-min-mean-judge=1", "--pau-report=r.json")
    assert result.ret == 0, result.stdout.str()
    mine = json.loads((pau_pytester.path / "mine.json").read_text())
    assert mine == {"status": "passed", "items": 4}
    result.stdout.fnmatch_lines(["*my output: mine.json*"])
    # What the user's output said is what the JSON report, written after it, says.
    report = json.loads((pau_pytester.path / "r.json").read_text())
    assert report["summary"]["verdict"]["status"] == "passed"


def test_a_user_output_that_fails_fails_the_run_as_a_missing_output(pau_pytester, run_pau) -> None:
    pau_pytester.makeconftest(FAILING)
    result = run_pau("-k", "not boom", "--pau-min-mean-judge=1", "--pau-report=r.json")
    assert result.ret == 1, result.stdout.str()
    result.stdout.fnmatch_lines(["*pytest_pau_report_write*could not write*dashboard is down*"])
    verdict = json.loads((pau_pytester.path / "r.json").read_text())["summary"]["verdict"]
    assert verdict["status"] == "failed"
    assert any("dashboard is down" in reason for reason in verdict["reasons"])

"""``pytest_pau_summary_extra``: the project's own summary lines, asked once, reach every
summary (terminal, JSON, HTML, Markdown), and a hook that fails costs no report."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

HOOKS = """
calls = []

def pytest_pau_summary_extra(config, summary):
    calls.append(1)
    return [f"ceiling: judge {summary.judge.mean:.2f} <script>x</script>", f"asked {len(calls)}x"]
"""


def _run(
    run_pau: Callable[..., pytest.RunResult], pytester: pytest.Pytester, hooks: str
) -> tuple[pytest.RunResult, dict[str, object]]:
    pytester.makeconftest(hooks)
    result = run_pau("--pau-report=r.json", "--pau-html=r.html", "--pau-markdown=r.md")
    return result, json.loads((pytester.path / "r.json").read_text())


def test_the_lines_reach_every_summary_once(
    run_pau: Callable[..., pytest.RunResult], pau_pytester: pytest.Pytester
) -> None:
    result, raw = _run(run_pau, pau_pytester, HOOKS)
    lines = raw["extra"]
    assert isinstance(lines, list)
    assert len(lines) == 2
    assert lines[0].startswith("ceiling: judge ")
    assert lines[1] == "asked 1x"
    out = result.stdout.str()
    assert out.count("asked 1x") == 1
    assert "asked 2x" not in out
    page = (pau_pytester.path / "r.html").read_text()
    assert '<pre id="pau-extra">ceiling: judge ' in page
    assert "asked 1x</pre>" in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<script>x</script>" not in page
    markdown = (pau_pytester.path / "r.md").read_text()
    assert "```text\nceiling: judge " in markdown  # a code block: shown, never rendered
    assert "<script>x</script>\nasked 1x\n```" in markdown


def test_no_hook_no_key(
    run_pau: Callable[..., pytest.RunResult], pau_pytester: pytest.Pytester
) -> None:
    run_pau("--pau-report=r.json")
    assert "extra" not in json.loads((pau_pytester.path / "r.json").read_text())


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("raise RuntimeError('no oracle today')", "raised RuntimeError: no oracle today"),
        ("return 'one line'", "returned str 'one line', not a list of str"),
        ("return [1, 2]", "returned list [1, 2], not a list of str"),
        ("raise KeyboardInterrupt", "was interrupted"),
        # Not Exceptions (pytest's outcomes, SystemExit) and a repr that raises: no lost report
        ("import pytest; pytest.fail('no oracle')", "raised Failed: no oracle"),
        ("import pytest; pytest.skip('later')", "raised Skipped: later"),
        ("import sys; sys.exit(3)", "raised SystemExit: 3"),
        ("return type('X', (), {'__repr__': lambda s: 1 / 0})()", "returned X, not a list of str"),
    ],
)
def test_a_failing_hook_is_a_note_and_the_report_is_written(
    run_pau: Callable[..., pytest.RunResult],
    pau_pytester: pytest.Pytester,
    body: str,
    named: str,
) -> None:
    hooks = f"def pytest_pau_summary_extra(config, summary):\n    {body}\n"
    result, raw = _run(run_pau, pau_pytester, hooks)
    assert "extra" not in raw
    note = f"pytest_pau_summary_extra of {pau_pytester.path / 'conftest.py'} {named}"
    notes = raw["notes"]
    assert isinstance(notes, list)
    assert any(n.startswith(note) and n.endswith("left out of the summary") for n in notes)
    assert named in result.stdout.str()  # the note, printed (fnmatch would read [1, 2] as a set)
    assert (pau_pytester.path / "r.html").exists()
    assert (pau_pytester.path / "r.md").exists()
    assert result.ret == 1  # the toy's items fail as ever: the hook changed no verdict


def test_a_line_with_a_fence_cannot_close_the_markdown_block() -> None:
    from pytest_pau.report.markdown import render_markdown
    from tests.report.conftest import make_report, result

    report = make_report([result("a", judge=4, match=1.0)]).model_copy(
        update={"extra": ["```", "**not bold**", "````x"]}
    )
    text = render_markdown(report)
    assert "`````text\n```\n**not bold**\n````x\n`````" in text


def test_a_lone_surrogate_in_a_line_cannot_lose_the_report(
    run_pau: Callable[..., pytest.RunResult], pau_pytester: pytest.Pytester
) -> None:
    hooks = "def pytest_pau_summary_extra(config, summary):\n    return ['bad \\ud800 line']\n"
    _, raw = _run(run_pau, pau_pytester, hooks)
    assert raw["extra"] == ["bad \\ud800 line"]


WRAPPED = """
import pytest

def pytest_pau_summary_extra(config, summary):
    return ["plain"]

class New:
    @pytest.hookimpl(wrapper=True)
    def pytest_pau_summary_extra(self, config, summary):
        return [*(yield), ["wrapped"]]

class Old:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_pau_summary_extra(self, config, summary):
        outcome = yield
        outcome.force_result([["old-style"], *outcome.get_result()])

def pytest_configure(config):
    config.pluginmanager.register(New(), "new")
    config.pluginmanager.register(Old(), "old")
"""


def test_a_wrapper_sees_and_changes_the_answers_as_ever(
    run_pau: Callable[..., pytest.RunResult], pau_pytester: pytest.Pytester
) -> None:
    _, raw = _run(run_pau, pau_pytester, WRAPPED)
    assert raw["extra"] == ["old-style", "plain", "wrapped"]

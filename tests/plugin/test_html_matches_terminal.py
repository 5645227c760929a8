"""The HTML report and the terminal summary show the same figures, formatted the same way.

One real run of the plugin (toy dataset: passes, a failure, an infrastructure error; a
release gate that fails; the gold control; a low-fidelity judge, so notes and the
calibration line) writes the HTML; both texts are parsed and every figure found in both
must read the same (the issue: "code match 0.67 in one place and 100.0% in another").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from html.parser import HTMLParser

import pytest

from pytest_pau.settings import PauSettings

Run = Callable[..., pytest.RunResult]
NUMBER = re.compile(r"\$?\d[\d,]*\.\d+%?|\d+%")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        self.parts.append("\n")


def visible(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


def one(pattern: str, text: str) -> tuple[str, ...]:
    found = re.findall(pattern, text, flags=re.MULTILINE)
    assert len(found) == 1, (pattern, found)
    return found[0] if isinstance(found[0], tuple) else (found[0],)


@pytest.fixture
def run(run_pau: Run, pau_pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(
        PauSettings,
        "low_fidelity_roles",
        lambda self: [("judge", self.judge_model, "--pau-judge-model")],
    )
    result = run_pau(
        "--pau-html=r.html",
        "--pau-gold-control",
        "--pau-min-pass-rate=0.9",
        "--pau-min-mean-match=0.5",
    )
    out = result.stdout.str()
    terminal = out[out.index("PAU summary") :]
    page = (pau_pytester.path / "r.html").read_text()
    section = page[page.index("<h2>Summary</h2>") : page.index("<h3>Run</h3>")]
    return terminal, section


def test_every_figure_of_the_html_summary_reads_as_in_the_terminal(run) -> None:
    terminal, section = run
    text = visible(section)
    # The run has what the comparison is about.
    assert "3 passed, 1 failed, 1 error (infrastructure)" in terminal
    assert "FAIL pass rate >= 90.0%" in terminal
    assert "PASS mean code match >= 0.50" in terminal

    pairs = {
        "pass rate": (
            one(r"^pass rate +(\S+)  95% CI \[(.*?)\]", terminal),
            one(
                r'class="k">pass rate</div><div class="v">(.*?)</div><div class="ci">'
                r"95% CI \[(.*?)\]",
                section,
            ),
        ),
        "judge": (
            one(r"^judge score  mean (\S+)  95% CI \[(.*?)\]", terminal),
            one(
                r'class="k">mean judge score</div><div class="v">(.*?)</div>'
                r'<div class="ci">95% CI \[(.*?)\]',
                section,
            ),
        ),
        "code match": (
            one(r"^code match   mean (\S+)  95% CI \[(.*?)\]", terminal),
            one(
                r'class="k">mean code match</div><div class="v">(.*?)</div>'
                r'<div class="ci">95% CI \[(.*?)\]',
                section,
            ),
        ),
        "ceiling": (
            one(r"code match (\S+) of the model beside (\S+) of the coder", terminal),
            one(r"code match (\S+) of the model beside (\S+) of the coder", text),
        ),
        "requests": (
            one(r"model requests ([\d,]+) made, cost (\$\S+); cache hits ([\d,]+)", terminal),
            tuple(
                one(
                    r"(\$[\d.]+)</div><div class=\"ci\">([\d,]+) requests made, ([\d,]+) cache",
                    section,
                )[i]
                for i in (1, 0, 2)
            ),
        ),
        "counts": (
            one(r"^items (\d+): (\d+) passed, (\d+) failed, (\d+) error", terminal),
            one(
                r'class="k">items</div><div class="v">(\d+)</div><div class="ci">(\d+) passed, '
                r"(\d+) failed, (\d+) error",
                section,
            ),
        ),
        "pass-rate gate": (
            one(r"pass rate >= (\S+): (.*?)(?:, short by \S+)?  \(--pau-min-pass-rate\)", terminal)[
                ::-1
            ],
            one(
                r"\(--pau-min-pass-rate\)</td><td class=\"num\">(.*?)</td>"
                r'<td class="num">(.*?)</td>',
                section,
            ),
        ),
        "match gate": (
            one(r"mean code match >= (\S+): (.*?)  \(--pau-min-mean-match\)", terminal)[::-1],
            one(
                r"\(--pau-min-mean-match\)</td><td class=\"num\">(.*?)</td>"
                r'<td class="num">(.*?)</td>',
                section,
            ),
        ),
        "failure modes": (
            tuple(re.findall(r"^  ([a-z_]+) +(\d+) +\d+\.\d%$", terminal, flags=re.M)),
            tuple(re.findall(r'<tr><td>([a-z_]+)</td><td class="num">(\d+)</td></tr>', section)),
        ),
    }
    for name, (shown_there, shown_here) in pairs.items():
        assert shown_there == shown_here, name

    # The notes and the calibration line, word for word (pytest-pau's own text only).
    notes = re.findall(r"^(note: .*|calibration.*)$", terminal, flags=re.M)
    assert any(n.startswith("note: the judge is the embedded") for n in notes)
    assert sum(n.startswith("calibration") for n in notes) == 1
    html_notes = [
        # A `command` of the terminal is <code>command</code> in the HTML.
        unescape(re.sub(r"</?code>", "`", li))
        for li in re.findall(r'<li class="(?:note|calibration)">(.*?)</li>', section)
    ]
    assert html_notes == notes

    # And nothing the page shows as a figure is written another way in the terminal.
    for figure in NUMBER.findall(text):
        assert figure in terminal, f"{figure!r} of the HTML summary is not in the terminal's"


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

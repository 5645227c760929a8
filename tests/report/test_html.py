"""The HTML report as a file: self-contained, escaped, complete (no browser here)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from pytest_pau.models import CallResult, Mismatch, Report, Step
from pytest_pau.report.html import render_html, script_json, write_html

from .conftest import make_report, result

PAYLOAD = '</script><script>document.title="PWNED"</script><img id="pwn" src=x onerror="document.title=1">'


def mixed_report(payload: str = PAYLOAD) -> Report:
    """Passed, failed (two modes, arities 1-3), errored items; one carries ``payload``."""
    steps = [
        Step(kind="reason", iteration=1, prompt="p", response="Try a small positive number."),
        Step(
            kind="act",
            iteration=1,
            prompt="p",
            response="(3,)",
            parsed_input="(3,)",
            result=CallResult(ok=True, value="9", literal=True),
        ),
        Step(
            kind="reflect",
            iteration=1,
            prompt="p",
            response="NO. Maybe it triples: HYPOTHESIS-ONE",
            concluded=False,
        ),
        Step(
            kind="act",
            iteration=2,
            prompt="p",
            response="(-2,)",
            parsed_input="(-2,)",
            result=CallResult(ok=False, error_type="ValueError", message="negative input"),
        ),
        Step(
            kind="act",
            iteration=3,
            prompt="p",
            response="whatever",
            parsed_input=None,
            format_error="no tuple literal found",
        ),
        Step(
            kind="reflect",
            iteration=3,
            prompt="p",
            response="YES. It squares: HYPOTHESIS-TWO",
            concluded=True,
        ),
    ]
    return make_report(
        [
            result("ok_one", 5, 1.0, arity=1),
            result("ok_two", 4, 0.9, arity=2),
            result(
                "bad_reason",
                2,
                0.5,
                arity=1,
                failure_mode="reasoning_error",
                trajectory=steps,
                prediction="It squares the number.",
                gold="Squares non-negative numbers.",
                judge_explanation="JUDGE-SAYS misses the guard.",
                code="def test_func(x):\n    return x * x\n",
                mismatches=[Mismatch(input="(-2,)", expected="ValueError", got="4")],
                n_queries=2,
            ),
            result("bad_explore", 1, 0.0, arity=2, failure_mode="insufficient_exploration"),
            result("bad_explore3", 2, 0.1, arity=3, failure_mode="insufficient_exploration"),
            result(
                "evil",
                1,
                0.0,
                arity=1,
                failure_mode="hallucination",
                prediction=payload,
                judge_explanation=payload,
                code=payload,
            ),
            result("broken", None, None, error="provider outage <b>503</b>"),
        ],
        model="model<script>",
    )


@pytest.fixture
def html_file(tmp_path: Path) -> Path:
    return write_html(mixed_report(), tmp_path / "sub" / "report.html")


def test_file_is_self_contained(html_file: Path) -> None:
    text = html_file.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert "default-src 'none'" in text  # the CSP forbids any fetch
    # Nothing is loaded from elsewhere: every src/href is inline data.
    refs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", text)
    assert refs, "the plots should be inline images"
    assert all(r.startswith("data:image/png;base64,") for r in refs), refs
    assert "http://" not in text
    assert "https://" not in text
    assert text.count("data:image/png;base64,") == 3


def test_model_text_is_escaped(html_file: Path) -> None:
    text = html_file.read_text()
    # The only <script> elements are the data block and the page's own script.
    assert text.count("<script") == 2
    assert "</script><script>document.title" not in text
    assert '<img id="pwn"' not in text
    assert "PAU report: model&lt;script&gt; on builtin" in text
    assert "<b>503</b>" not in text
    # The data block reads back to the exact untrusted text.
    block = re.search(r'<script type="application/json" id="pau-data">(.*?)</script>', text, re.S)
    assert block is not None
    data = json.loads(block.group(1))
    evil = next(i for i in data["instances"] if i["id"] == "builtin/evil")
    assert evil["prediction"] == PAYLOAD


def test_rows_carry_the_filter_keys(html_file: Path) -> None:
    text = html_file.read_text()
    rows = re.findall(
        r'<tr class="inst"[^>]*data-id="([^"]*)" data-status="(\w+)" data-arity="(\d)" data-mode="(\w+)"',
        text,
    )
    assert len(rows) == 7
    assert ("builtin/bad_explore3", "failed", "3", "insufficient_exploration") in rows
    assert ("builtin/broken", "error", "1", "infrastructure") in rows
    # Filter menus offer only the values that occur.
    assert '<option value="error">error</option>' in text
    assert '<option value="skipped">' not in text
    assert '<option value="3">3</option>' in text


def test_summary_is_built_when_the_report_has_none(html_file: Path) -> None:
    text = html_file.read_text()
    assert "2 passed, 4 failed, 1 error, 0 skipped" in text
    assert ">33.3%<" in text  # pass rate of the 6 scored items


def test_script_json_cannot_close_its_element() -> None:
    value = {"a": "</script><!-- & \u2028 \u2029 <b>", "n": [1.5, None]}
    text = script_json(value)
    assert "<" not in text
    assert ">" not in text
    assert "&" not in text
    assert json.loads(text) == value


def test_long_texts_are_cut() -> None:
    rep = make_report([result("x", 1, 0.0, prediction="z" * 10_000)])
    text = render_html(rep, plots=False)
    assert "z" * 6000 in text
    assert "z" * 6001 not in text
    assert "[... 4000 more characters not shown]" in text


def test_without_plots_or_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rep = mixed_report()
    assert "data:image/png" not in render_html(rep, plots=False)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    path = write_html(rep, tmp_path / "r.html")
    assert "No plots: plots need matplotlib" in path.read_text()
    assert path.stat().st_mode & 0o777 == 0o644

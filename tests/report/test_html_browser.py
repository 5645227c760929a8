"""The HTML report in a real headless Chromium: loads cleanly, filters, opens rows.

The page's ``#selftest&...`` hook only *acts* (sets the filter controls as a user would,
then clicks the first visible row); every check is made here, on the DOM Chromium
dumps, against what the report says, so a broken filter or a broken row fails.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.report import html as html_module
from pytest_pau.report.html import write_html

from .conftest import PageState
from .test_html import PAYLOAD, mixed_report

OpenPage = Callable[..., PageState]
ALL_IDS = [
    f"builtin/{k}"
    for k in ("ok_one", "ok_two", "bad_reason", "bad_explore", "bad_explore3", "evil", "broken")
]


@pytest.fixture
def page(tmp_path: Path) -> Path:
    return write_html(mixed_report(), tmp_path / "report.html")


def assert_clean(state: PageState) -> None:
    assert state.console == [], f"console errors: {state.console}"
    assert state.page_errors.strip() == "", f"page errors: {state.page_errors}"


def assert_shows(state: PageState, expected: list[str]) -> None:
    assert set(state.rows) == set(ALL_IDS), "every instance has a row"
    assert state.visible == expected


def test_loads_without_errors_and_shows_every_row(open_page: OpenPage, page: Path) -> None:
    state = open_page(page)
    assert_clean(state)
    assert_shows(state, ALL_IDS)
    assert state.details == {}
    assert state.selftest is None
    assert "7 of 7 instances shown" in state.dom
    assert state.title.startswith("PAU report: model<script> on builtin")


def test_status_filter_shows_only_failed_items_and_a_row_opens(
    open_page: OpenPage, page: Path
) -> None:
    state = open_page(page, "#selftest&status=failed")
    assert_clean(state)
    failed = ["builtin/bad_reason", "builtin/bad_explore", "builtin/bad_explore3", "builtin/evil"]
    assert_shows(state, failed)
    assert state.selftest == {
        "filters": {"status": "failed"},
        "opened": "builtin/bad_reason",
        "shown": 4,
        "errors": [],
    }
    detail = state.details["builtin/bad_reason"]
    # The trajectory: queries with inputs and outputs (an exception and a format error
    # too), the hypotheses in order, the judge's explanation, the code and mismatches.
    for expected in (
        "query 1: test_func",
        "(3,)",
        "9",
        "(-2,)",
        "ValueError: negative input",
        "unparseable input: no tuple literal found",
        "Try a small positive number.",
        "Squares non-negative numbers.",
        "It squares the number.",
        "JUDGE-SAYS misses the guard.",
        "return x * x",
        "code match 50%",
        "Mismatches",
    ):
        assert expected in detail, f"{expected!r} missing from the opened row"
    assert detail.index("HYPOTHESIS-ONE") < detail.index("HYPOTHESIS-TWO")
    assert "(concluded: NO)" in detail
    assert "(concluded: YES)" in detail


def test_arity_and_failure_mode_filters_combine(open_page: OpenPage, page: Path) -> None:
    state = open_page(page, "#selftest&arity=2&mode=insufficient_exploration")
    assert_clean(state)
    assert_shows(state, ["builtin/bad_explore"])
    assert state.selftest is not None
    assert state.selftest["opened"] == "builtin/bad_explore"
    state = open_page(page, "#selftest&mode=insufficient_exploration")
    assert_shows(state, ["builtin/bad_explore", "builtin/bad_explore3"])


def test_id_search_and_error_rows(open_page: OpenPage, page: Path) -> None:
    state = open_page(page, "#selftest&status=error")
    assert_clean(state)
    assert_shows(state, ["builtin/broken"])
    assert "provider outage <b>503</b>" in state.details["builtin/broken"]
    state = open_page(page, "#selftest&text=EXPLORE")
    assert_shows(state, ["builtin/bad_explore", "builtin/bad_explore3"])


def test_model_text_never_runs_as_markup(open_page: OpenPage, page: Path) -> None:
    state = open_page(page, "#selftest&mode=hallucination")
    assert_clean(state)
    assert state.selftest is not None
    assert state.selftest["opened"] == "builtin/evil"
    assert "PWNED" not in state.title
    assert state.title.startswith("PAU report")
    assert '<img id="pwn"' not in state.dom
    # It is shown, as text, in the prediction, the explanation and the code.
    assert state.details["builtin/evil"].count(PAYLOAD) == 3


def test_a_broken_filter_is_caught(
    open_page: OpenPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_asset = html_module._asset

    def broken(name: str) -> str:
        text = real_asset(name)
        if name == "report.js":
            # The status test no longer filters: every row stays visible.
            text = text.replace("d.status !== controls.status.value", "false")
        return text

    monkeypatch.setattr(html_module, "_asset", broken)
    state = open_page(
        write_html(mixed_report(), tmp_path / "broken.html"), "#selftest&status=failed"
    )
    with pytest.raises(AssertionError):
        assert_shows(
            state,
            ["builtin/bad_reason", "builtin/bad_explore", "builtin/bad_explore3", "builtin/evil"],
        )


def test_a_script_error_is_caught(
    open_page: OpenPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_asset = html_module._asset
    monkeypatch.setattr(
        html_module,
        "_asset",
        lambda name: real_asset(name).replace(
            "function toggle(row) {", "function toggle(row) { null.boom();"
        ),
    )
    state = open_page(write_html(mixed_report(), tmp_path / "err.html"), "#selftest&status=failed")
    with pytest.raises(AssertionError, match="null"):
        assert_clean(state)
    assert any("Uncaught TypeError" in line for line in state.console), (
        "Chromium's console log is read"
    )
    assert state.details == {}

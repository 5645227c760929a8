"""The HTML report's notes: our backtick-quoted commands as code, never literal backticks."""

from __future__ import annotations

from pytest_pau.models import Summary
from pytest_pau.report.html import notes_html, prose_html


def test_command_spans_become_code_and_the_rest_is_escaped() -> None:
    assert prose_html("re-run with `pau merge --gate` <now>") == (
        "re-run with <code>pau merge --gate</code> &lt;now&gt;"
    )
    assert prose_html("a ` b") == "a ` b"  # unpaired: text as written


def test_a_note_quoting_a_command_shows_it_as_code() -> None:
    page = notes_html(["measure it with `pytest --pau-model=oracle`"], Summary())
    assert "<code>pytest --pau-model=oracle</code>" in page
    assert "`" not in page

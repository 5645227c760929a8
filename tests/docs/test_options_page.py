"""docs/options.md lists every option as ``pytest --help`` does, and nothing else.

The tables are generated from the option rows (``tests/docs/options_table.py``); here they
are checked twice: against what the generator renders now (a row added or changed without
regenerating the page fails), and against the real ``pytest --help`` output, option by
option, text and default (what the page says is what users read in their terminal).
"""

from __future__ import annotations

import re

import pytest

from pytest_pau.settings.options import ALL_OPTIONS
from tests.docs.options_table import BEGIN, END, render, rewrite
from tests.docs.pages import page


def _rows() -> list[list[str]]:
    """The cells of each option row of the page's tables, unescaped."""
    rows = []
    for line in page("options.md").splitlines():
        if line.startswith("| `--pau-"):
            cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
            rows.append([c.strip().replace("\\|", "|") for c in cells])
    return rows


def _help_paragraphs(out: str) -> dict[str, str]:
    """``--pau-NAME`` -> its whole help text, from ``pytest --help``'s PAU group."""
    group = out[out.index("PAU benchmark (pytest-pau)") :].split("\n\n", 1)[0]
    helps: dict[str, str] = {}
    name = None
    for line in group.splitlines()[1:]:
        m = re.match(r"  (--pau-[a-z-]+)(?:=\S+)?(?:\s{2,}(.*))?$", line)
        if m:
            name = m.group(1)
            helps[name] = m.group(2) or ""
        elif name is not None:
            helps[name] += " " + line.strip()
    return helps


def test_the_tables_are_what_the_option_rows_render() -> None:
    text = page("options.md")
    assert text.count(BEGIN) == 1
    assert text.count(END) == 1
    assert rewrite(text) == text, (
        "docs/options.md is not what the option rows render: run "
        "`python -m tests.docs.options_table` and commit the page"
    )
    assert render() in text


def test_the_tables_say_what_pytest_help_says(pytester: pytest.Pytester) -> None:
    helps = _help_paragraphs(pytester.runpytest("--help").stdout.str())
    rows = _rows()
    names = [cells[0].strip("`").split("=")[0] for cells in rows]
    assert names == list(helps), "the page's options are not --help's, in its order"
    assert names == [f"--pau-{spec.name}" for spec in ALL_OPTIONS]
    for (option, ini, default, text), name in zip(rows, names, strict=True):
        assert ini == f"`pau_{name[len('--pau-') :].replace('-', '_')}`", option
        # argparse wraps (and may break at hyphens): compare without the blanks.
        shown = "".join(f"{text} Default: {default}.".split())
        assert shown == "".join(helps[name].split()), f"{option}: the page and --help differ"

"""``docs/reliability.md`` names the tests that show each case: every one must exist.

A row whose test was renamed or removed would claim a behaviour nothing checks any more;
the rows of a section with a "shown by" column must each name at least one test.
"""

from __future__ import annotations

import re

from .pages import ROOT, page

_TEST = re.compile(r"(tests/[\w/]+\.py)::(\w+)")


def test_every_test_the_page_names_exists() -> None:
    named = _TEST.findall(page("reliability.md"))
    assert len(named) > 30
    missing = []
    for file, name in named:
        path = ROOT / file
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if not re.search(rf"^\s*(async )?def {name}\(", text, re.MULTILINE):
            missing.append(f"{file}::{name}")
    assert not missing, f"docs/reliability.md names tests that do not exist: {missing}"


def test_every_row_of_a_shown_by_table_names_a_test() -> None:
    bare = []
    shown_by = False
    for line in page("reliability.md").splitlines():
        if not line.startswith("|"):
            shown_by = False
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[-1] == "shown by":
            shown_by = True
        elif shown_by and not set(line) <= set("|- ") and not _TEST.search(cells[-1]):
            bare.append(cells[0])
    assert not bare, f"rows that name no test: {bare}"

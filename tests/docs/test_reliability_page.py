"""Every test a docs page names as ``tests/...py::test_name`` exists (the rows of
reliability.md say which test shows each case): a renamed or removed test fails here, and
every row of a section with a "shown by" column names at least one test."""

from __future__ import annotations

import re

import pytest

from tests.docs.pages import ROOT, page, page_names

_NAMED = re.compile(r"(tests/[\w/]+\.py)::(\w+)")


def _named() -> list[tuple[str, str, str]]:
    return sorted(
        {(name, path, test) for name in page_names() for path, test in _NAMED.findall(page(name))}
    )


def test_the_reliability_page_names_its_tests() -> None:
    assert len([n for n in _named() if n[0] == "reliability.md"]) >= 30


@pytest.mark.parametrize(("name", "path", "test"), _named())
def test_a_named_test_exists(name: str, path: str, test: str) -> None:
    source = ROOT / path
    assert source.is_file(), f"{name} names {path}, which does not exist"
    assert re.search(rf"^\s*(async )?def {test}\(", source.read_text(), re.M), (
        f"{name} names {path}::{test}, which is no test there"
    )


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
        elif shown_by and not set(line) <= set("|- ") and not _NAMED.search(cells[-1]):
            bare.append(cells[0])
    assert not bare, f"rows that name no test: {bare}"

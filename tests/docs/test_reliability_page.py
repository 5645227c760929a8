"""Every test a docs page names as ``tests/...py::test_name`` (the rows of reliability.md
say which test shows each case) exists: a renamed or removed test fails here."""

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
    assert len([n for n in _named() if n[0] == "reliability.md"]) >= 20


@pytest.mark.parametrize(("name", "path", "test"), _named())
def test_a_named_test_exists(name: str, path: str, test: str) -> None:
    source = ROOT / path
    assert source.is_file(), f"{name} names {path}, which does not exist"
    assert re.search(rf"^\s*def {test}\(", source.read_text(), re.M), (
        f"{name} names {path}::{test}, which is no test there"
    )

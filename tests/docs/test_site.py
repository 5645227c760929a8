"""The documentation site builds with ``mkdocs build --strict`` and its links hold.

A page missing from the nav, a nav entry without a page, a link to a page or an anchor
that does not exist: each is a MkDocs warning, and ``--strict`` makes it an error. The
README is not part of the site (GitHub shows it), so its links into ``docs/`` are checked
here directly, against the anchors GitHub gives the pages' headings.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

from tests.docs.pages import DOCS, README, ROOT, headings, page, page_names, path_of, slug

#: The pages other work and other tests rely on by name (the lead merges sections into them).
PAGES = [
    "index.md", "getting-started.md", "options.md", "gates.md", "providers.md",
    "datasets.md", "sandbox.md", "training.md", "reliability.md", "extending.md", "ci.md",
    "paper.md", "reports.md",
]  # fmt: skip

_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _tree_state() -> dict[str, tuple[int, int]]:
    """What a build could touch in the source tree: the root's entries and all of docs/."""
    paths = [*ROOT.iterdir(), *DOCS.rglob("*")]
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in paths if p.exists()}


@pytest.mark.slow
def test_the_site_builds_strictly_outside_the_source_tree(tmp_path: Path) -> None:
    before = _tree_state()
    site = tmp_path / "site"
    run = subprocess.run(
        # Not --quiet: it hides the warnings from --strict too, and a broken link passes.
        [sys.executable, "-m", "mkdocs", "build", "--strict",
         "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
        cwd=tmp_path,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert _tree_state() == before, "mkdocs build wrote into the source tree"
    for name in PAGES:
        built = site / ("index.html" if name == "index.md" else f"{name[:-3]}/index.html")
        assert built.is_file(), f"{name} was not built"


def test_the_pages_are_there_and_each_has_one_title() -> None:
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(PAGES)
    for name in PAGES:
        titles = [h for h in headings(name) if h.startswith("# ")]
        assert len(titles) == 1, f"docs/{name}: one '# Title' line expected, found {titles}"
        assert page(name).startswith(titles[0]), f"docs/{name} must start with its title"


def test_github_and_mkdocs_give_every_heading_the_same_anchor() -> None:
    # A README link (GitHub's anchors) and a site link (MkDocs' toc) to the same heading
    # must both land: a heading whose two slugs differ (``A -> B``, non-ASCII) fails here.
    for name in page_names():
        for line in headings(name):
            text = line.lstrip("#").strip()
            plain = re.sub(r"`", "", text)
            assert slug(text) == slugify(plain, "-"), f"{name}: {line!r}"


def _anchors(path: Path) -> set[str]:
    name = README if path == ROOT / README else path.name
    return {slug(line.lstrip("#").strip()) for line in headings(name)}


def test_the_readme_links_into_every_page_and_each_link_lands() -> None:
    targets = [t for t in _LINK.findall(page(README)) if not re.match(r"[a-z]+:", t)]
    assert targets, "the README links to no page of docs/"
    linked = set()
    for target in targets:
        file, _, anchor = target.partition("#")
        path = (ROOT / file) if file else ROOT / README
        assert path.is_file(), f"README.md links to {target!r}: no such file"
        if anchor:
            assert anchor in _anchors(path), f"README.md links to {target!r}: no such heading"
        if path.parent == DOCS:
            linked.add(path.name)
    assert linked == set(PAGES), f"pages the README does not link to: {set(PAGES) - linked}"


@pytest.mark.parametrize("name", PAGES)
def test_links_between_pages_are_relative_page_links(name: str) -> None:
    # What renders on GitHub and in the site alike: ``gates.md#anchor``, never a link to
    # the README or out of docs/ (the site has neither) or a site URL (GitHub has none).
    for target in _LINK.findall(page(name)):
        if re.match(r"[a-z]+:", target):
            continue
        file = target.partition("#")[0]
        advice = f"docs/{name} links to {target!r}: link pages as 'page.md#anchor'"
        assert "/" not in file, advice
        assert not file or file.endswith(".md"), advice
        assert not file or path_of(file).is_file(), f"docs/{name} links to {target!r}"


#: "1,648 tests", "1921 tests collected": a count of the suite, stale by the next commit.
_TEST_COUNT = re.compile(r"\b\d[\d,]{2,}\s+(?:tests|test cases)\b")


def test_no_page_states_how_many_tests_the_suite_has() -> None:
    # The docs said 1,648 tests when 1,921 were collected: say what the suite runs and
    # how long it takes, not a count that goes stale with every commit.
    stated = {n: _TEST_COUNT.findall(page(n)) for n in [*page_names(), "../ARCHITECTURE.md"]}
    stated = {n: found for n, found in stated.items() if found}
    assert not stated, stated

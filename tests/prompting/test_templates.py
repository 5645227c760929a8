"""The prompt templates: one home for every stage's prompts, one version over all of them."""

from __future__ import annotations

import re
from string import Template

import pytest

from pytest_pau.prompting import MARKERS, PROMPTS_VERSION, TEMPLATE_NAMES, render
from pytest_pau.prompting.templates import STAGES, TEMPLATES_DIR


def test_every_stage_has_its_templates_and_names_are_unique() -> None:
    on_disk = sorted(p.stem for stage in STAGES for p in (TEMPLATES_DIR / stage).glob("*.md"))
    assert on_disk == sorted(TEMPLATE_NAMES)
    assert {"reason", "act", "reflect", "judge", "coder", "classify", "critic_reason"} <= set(
        TEMPLATE_NAMES
    )


def test_a_missing_placeholder_raises_and_an_unknown_template_names_the_choices() -> None:
    with pytest.raises(KeyError):
        render("judge", gold="g")
    with pytest.raises(FileNotFoundError, match="expected one of"):
        render("no-such-template")


def test_the_version_covers_all_stages_and_has_a_human_part() -> None:
    assert re.fullmatch(r"\d+\.\d+\+[0-9a-f]{8}", PROMPTS_VERSION)


def _filled(name: str) -> str:
    text = (next(p for s in STAGES for p in (TEMPLATES_DIR / s).glob(f"{name}.md"))).read_text()
    names = {m.group("named") or m.group("braced") for m in Template.pattern.finditer(text)}
    return render(name, **{n: f"<{n}>" for n in names if n})


@pytest.mark.parametrize("kind", sorted(MARKERS))
def test_each_marker_matches_its_own_template_only(kind: str) -> None:
    matching = [name for name in TEMPLATE_NAMES if re.search(MARKERS[kind], _filled(name))]
    assert matching == [kind]

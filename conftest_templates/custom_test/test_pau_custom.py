"""Your own assertions, one test per PAU instance.

Any test that takes ``pau_result`` (or ``pau_instance``) is parametrized by pytest-pau
with every selected instance, and then the builtin ``pau::test_pau`` items are not
added: each instance runs once, through your tests. Without ``--pau-model`` these tests
skip, so they can live in your ordinary test suite.
"""

from __future__ import annotations

import pytest


def test_description_is_good(pau_result):
    """Stricter than the default: the judge must rate 4 or more."""
    assert pau_result.judge_score is not None, "the judge gave no rating"
    assert pau_result.judge_score >= 4, pau_result.judge_explanation


def test_code_matches_exactly_on_strings(pau_instance, pau_result):
    """Methods tagged `strings` must be reproduced exactly by the coder."""
    if "strings" not in pau_instance.tags:
        pytest.skip("only methods tagged 'strings'")
    assert pau_result.code_match == 1.0, pau_result.mismatches[:1]

"""Cache formats: entries another version wrote in another value format
are migrated or set aside as misses with one warning (asked again and replaced), never a
``ValidationError`` in each item that meets one."""

from __future__ import annotations

import json
import sqlite3

from pytest_pau.llm.cache.answer_format import VALUE_FORMAT
from pytest_pau.llm.cache.cache_file import FILENAME
from pytest_pau.plugin.shard import MARKER_MODEL
from pytest_pau.report.json_report import read_report


def _rewrite(pau_pytester, change) -> int:
    """Rewrite every model answer (not the finished-item rows ``--pau-shard`` balances by)."""
    with sqlite3.connect(pau_pytester.path / ".pau_cache" / FILENAME) as db:
        rows = db.execute(
            "SELECT key, value FROM responses WHERE model != ?", (MARKER_MODEL,)
        ).fetchall()
        for key, value in rows:
            db.execute(
                "UPDATE responses SET value = ?, plugin_version = '0.0.1' WHERE key = ?",
                (json.dumps(change(json.loads(value))), key),
            )
    return len(rows)


def _scores(pau_pytester) -> dict[str, tuple[float | None, float | None]]:
    report = read_report(pau_pytester.path / "r.json")
    return {i.id: (i.judge_score, i.code_match) for i in report.instances}


def test_entries_in_a_format_this_version_cannot_read_are_asked_again(
    pau_pytester, run_pau, scoring_llm
) -> None:
    run_pau("-m", "smoke", "--pau-report=r.json").assert_outcomes(passed=2)
    first = _scores(pau_pytester)

    def other_format(value: dict) -> dict:  # what another version might have stored
        return {"content": value["text"], "usage": {"prompt_tokens": 3}}

    entries = _rewrite(pau_pytester, other_format)
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", "--pau-report=r.json", "-W", "always")
    result.assert_outcomes(passed=2)
    assert _scores(pau_pytester) == first
    assert scoring_llm.requests - served == entries, "each unreadable entry asked again"
    result.stdout.fnmatch_lines(
        [
            "*CacheWarning: the model cache * holds answers it cannot read, written by "
            "pytest-pau 0.0.1 (field 'text': Field required); each is asked again and replaced "
            "by this version's entry*"
        ]
    )
    assert "ValidationError" not in result.stdout.str()
    # Replaced: a third run reads them all from the cache.
    served = scoring_llm.requests
    run_pau("-m", "smoke").assert_outcomes(passed=2)
    assert scoring_llm.requests == served


def test_entries_from_before_the_format_field_are_read_and_newer_ones_set_aside(
    pau_pytester, run_pau, scoring_llm
) -> None:
    run_pau("-m", "smoke").assert_outcomes(passed=2)
    entries = _rewrite(pau_pytester, lambda v: {k: x for k, x in v.items() if k != "format"})
    served = scoring_llm.requests
    run_pau("-m", "smoke").assert_outcomes(passed=2)
    assert scoring_llm.requests == served, "format 0 entries are read (migrated)"
    _rewrite(pau_pytester, lambda v: {**v, "format": VALUE_FORMAT + 1})
    result = run_pau("-m", "smoke", "-W", "always")
    result.assert_outcomes(passed=2)
    assert scoring_llm.requests - served == entries
    result.stdout.fnmatch_lines(
        [f"*(value format {VALUE_FORMAT + 1}, newer than this version's {VALUE_FORMAT})*"]
    )

"""The model cache at the start of a run: a damaged file is set aside, a broken folder stops it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_pau.testing import ScriptedLLM


@pytest.mark.filterwarnings("ignore::pytest_pau.errors.CacheWarning")  # the inner run's
def test_a_damaged_cache_is_set_aside_and_the_run_goes_on(
    pau_pytester: pytest.Pytester, run_pau: Callable[..., pytest.RunResult]
) -> None:
    cache_dir = pau_pytester.path / ".pau_cache"
    cache_dir.mkdir()
    (cache_dir / "llm-cache.sqlite3").write_text("not a database\n" * 100)
    result = run_pau("-m", "smoke")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["note: the model cache '*llm-cache.sqlite3' was damaged (not an SQLite database*"]
    )
    moved = list(cache_dir.glob("llm-cache.sqlite3.corrupt-*"))
    assert len(moved) == 1
    assert moved[0].read_text().startswith("not a database")
    assert (cache_dir / "llm-cache.sqlite3").read_bytes().startswith(b"SQLite format 3\0")


def test_a_cache_folder_that_is_a_file_is_a_usage_error_before_any_item(
    pau_pytester: pytest.Pytester,
    run_pau: Callable[..., pytest.RunResult],
    scoring_llm: ScriptedLLM,
) -> None:
    (pau_pytester.path / "cachefile").write_text("")
    before = scoring_llm.requests
    result = run_pau("--pau-cache-dir=cachefile")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--pau-cache-dir='cachefile': the model cache 'cachefile/llm-cache.sqlite3' cannot*"]
    )
    assert "--pau-no-cache" in result.stderr.str()
    assert scoring_llm.requests == before, "nothing was paid for"

"""A dataset's tags and its source name never shadow a mark
with a meaning (pytest's ``skip``, ``xfail``, ``usefixtures``..., a plugin's or conftest's
marker), so dataset content cannot change an outcome; ``-m smoke`` keeps working."""

from __future__ import annotations

import json

import pytest

from .toy import toy_rows


def _tag(pytester: pytest.Pytester, tags: dict[str, list[str]], name: str = "toy.jsonl") -> None:
    rows = toy_rows()
    for row in rows:
        row["tags"] = row["tags"] + tags.get(row["id"], [])
    (pytester.path / name).write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_a_tag_xfail_never_turns_a_failure_into_an_xfail(pau_pytester, run_pau) -> None:
    _tag(pau_pytester, {"tricky": ["xfail"], "double": ["xfail"]})
    result = run_pau("-k", "tricky or double", "--pau-min-pass-rate=0.9")
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "pau: dataset labels that are marks with a meaning in pytest or a plugin are markers "
            "under pau_*, so they change no outcome: 'xfail' -> pau_xfail (select them with -m "
            "or -k by the new name)"
        ]
    )
    # The renamed marker selects exactly the tagged items.
    run_pau("-m", "pau_xfail").assert_outcomes(passed=1, failed=1)


@pytest.mark.parametrize("tag", ["skip", "skipif", "usefixtures"])
def test_a_tag_named_as_a_pytest_mark_changes_nothing(pau_pytester, run_pau, tag) -> None:
    _tag(pau_pytester, {"double": [tag], "add": [tag]})
    result = run_pau("-m", "smoke", "--strict-markers")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.OK


def test_a_dataset_file_named_skip_still_runs_its_items(pau_pytester, run_pau) -> None:
    _tag(pau_pytester, {}, name="skip.jsonl")
    result = run_pau("-m", "smoke", dataset="skip.jsonl")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*'skip' -> pau_skip*"])
    run_pau("-m", "pau_skip and smoke", dataset="skip.jsonl").assert_outcomes(passed=2)


def test_a_plugins_marker_is_not_taken_but_the_users_own_ini_markers_are_kept(
    pau_pytester, run_pau
) -> None:
    # A conftest (as a plugin would) gives `slowpoke` a meaning: it skips such items.
    pau_pytester.makeconftest(
        """
        import pytest

        def pytest_configure(config):
            config.addinivalue_line("markers", "slowpoke: skipped unless --runslow")

        def pytest_collection_modifyitems(items):
            for item in items:
                if item.get_closest_marker("slowpoke"):
                    item.add_marker(pytest.mark.skip(reason="slow"))
        """
    )
    # The user's ini declares `smoke` for their own -m use: that name stays.
    pau_pytester.makeini("[pytest]\nmarkers =\n    smoke: quick checks\n")
    _tag(pau_pytester, {"double": ["slowpoke"], "add": ["slowpoke"]})
    result = run_pau("-m", "smoke", "--strict-markers")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*'slowpoke' -> pau_slowpoke*"])
    assert "'smoke' ->" not in result.stdout.str()

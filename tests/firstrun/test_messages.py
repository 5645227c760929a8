"""The first run's messages: what a summary of nothing, one query, four errors and a clash say."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from pytest_pau.cli.init import write_template
from pytest_pau.cli.main import main
from pytest_pau.dataset import DatasetError, load_dataset
from pytest_pau.errors import ConfigError
from pytest_pau.llm import ResponseCache
from pytest_pau.models import InstanceResult
from pytest_pau.report.messages import failure_message, queries_text
from pytest_pau.report.render import MAX_ERRORS, TextWriter, render
from pytest_pau.report.summary import build_summary


def result(i: int, **fields: object) -> InstanceResult:
    base: dict[str, object] = {
        "id": f"t/{i}",
        "source": "t",
        "arity": 1,
        "passed": False,
        "judge_score": None,
        "code_match": None,
        "failure_mode": "infrastructure",
        "tokens": {"prompt": 10, "completion": 2},
    }
    return InstanceResult.model_validate({**base, **fields})


def rendered(results: list[InstanceResult], selected: int | None = None) -> str:
    w = TextWriter(width=80)
    render(build_summary(results, selected=selected), w, unicode=False)
    return w.getvalue()


def test_a_summary_with_nothing_scored_draws_no_empty_histogram_or_table() -> None:
    errors = [result(i, error=f"provider down ({i})\nsecond line") for i in range(4)]
    text = rendered(errors)
    assert "items 4: 0 passed, 0 failed, 4 errors (infrastructure)" in text
    assert "pass rate    n/a  (no item was scored)" in text
    for absent in ("judge score", "code match", "by arity", "by source", "concluded", "  5 "):
        assert absent not in text, absent
    assert "  0.0 " not in text  # no histogram row of code match either
    # Errors: three by name (whole message, on one line when short), the rest counted.
    assert MAX_ERRORS == 3
    listed = [line for line in text.splitlines() if line.startswith("  t/")]
    assert listed == [f"  t/{i}: provider down ({i}) second line" for i in range(3)]
    assert "  +1 more (each is an E above)" in text
    assert "provider down (3)" not in text


def test_a_summary_with_scores_keeps_its_histograms_and_lists_three_errors_plainly() -> None:
    scored = [
        result(1, passed=True, judge_score=5.0, code_match=1.0, failure_mode="none"),
        result(2, judge_score=1.0, code_match=0.0, failure_mode="hallucination"),
    ]
    errors = [result(10 + i, error="boom") for i in range(3)]
    text = rendered(scored + errors)
    assert "judge score  mean 3.00" in text
    assert "    5 " in text
    assert "by arity" in text
    assert "concluded 0/2" in text
    assert "more (each is an E above)" not in text
    assert text.count(": boom") == 3


def test_one_query_is_singular() -> None:
    assert [queries_text(n) for n in (0, 1, 2)] == ["0 queries", "1 query", "2 queries"]
    r = result(
        1,
        judge_score=2.0,
        code_match=0.0,
        failure_mode="insufficient_exploration",
        n_queries=1,
        concluded=True,
        overconfident=True,
        gold="Adds one.",
        prediction="Adds.",
    )
    message = failure_message(r, judge_threshold=3.0, match_threshold=0.8)
    assert "concluded YES after 1 query (overconfident)" in message
    r.concluded = False
    assert "did not conclude; 1 query" in failure_message(
        r, judge_threshold=3.0, match_threshold=0.8
    )


def test_init_names_two_clashing_files_in_the_plural(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text("", encoding="utf-8")
    with pytest.raises(ConfigError) as one:
        write_template("release-gate", tmp_path)
    assert f"{tmp_path / 'conftest.py'} already exists;" in str(one.value)
    assert "--force to overwrite it" in str(one.value)
    (tmp_path / "pytest.ini").write_text("", encoding="utf-8")
    with pytest.raises(ConfigError) as two:
        write_template("release-gate", tmp_path)
    message = str(two.value)
    assert f"{tmp_path / 'conftest.py'} and {tmp_path / 'pytest.ini'} already exist;" in message
    assert "--force to overwrite them" in message


def test_cache_clear_of_one_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ResponseCache(tmp_path)
    assert cache.put("key", "openai/m", {"text": "x"})
    cache.close()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 2
    assert "this would delete 1 entry from" in capsys.readouterr().err
    assert main(["cache", "clear", "--cache-dir", str(tmp_path), "--yes"]) == 0
    assert "deleted 1 entry; 0 left" in capsys.readouterr().out


def test_a_dataset_folder_names_three_files_and_counts_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "set.jsonl"
    folder.mkdir()
    for i in range(5):
        (folder / f"part-{i}.jsonl").write_text("{}\n", encoding="utf-8")
    with pytest.raises(DatasetError) as exc:
        load_dataset(str(folder))
    hint = "(it holds part-0.jsonl, part-1.jsonl, part-2.jsonl +2 more)"
    assert hint in str(exc.value), str(exc.value)
    assert str(exc.value).endswith("to read the folder with the datasets library")

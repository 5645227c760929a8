"""The Markdown summary's own words: command spans, one note per cause, the report's path."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_pau.testing import ScriptedLLM

from .toy import SCORING_RULES

Run = Callable[..., pytest.RunResult]


def test_prose_keeps_command_spans_and_escapes_the_rest() -> None:
    from pytest_pau.report.markdown import md_prose

    assert md_prose("decided by `pau merge --gate` *now*") == (
        "decided by `pau merge --gate` \\*now\\*"
    )
    # Unpaired: no span, every backtick escaped.
    assert md_prose("a ` b") == "a \\` b"
    assert md_prose("<b>`x|y`</b>") == "&lt;b&gt;`x\\|y`&lt;/b&gt;"


def test_a_shard_summary_shows_pau_merge_as_a_command_and_points_to_its_report(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    result = run_pau(
        "-m", "smoke", "--pau-shard=1/2", "--pau-min-pass-rate=0.5",
        "--pau-report=shard-1.json", "--pau-markdown=pr.md",
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-2000:]
    text = (pau_pytester.path / "pr.md").read_text()
    assert "`pau merge --gate`" in text
    assert "\\`" not in text, text
    # Where the whole run is, and how to read it.
    assert "`shard-1.json`" in text
    assert "`pau show shard-1.json`" in text


def test_without_a_report_the_summary_says_how_to_keep_one(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    run_pau("-m", "smoke", "--pau-markdown=pr.md")
    text = (pau_pytester.path / "pr.md").read_text()
    assert "No JSON report was written: add `--pau-report=FILE`" in text


def test_judge_and_coder_on_two_servers_make_one_note_with_the_addresses_given(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    with ScriptedLLM(SCORING_RULES) as coder:
        result = run_pau(
            "-m", "smoke", f"--pau-coder-model={coder.model}",
            f"--pau-coder-api-base={coder.api_base}", "--pau-markdown=pr.md",
        )  # fmt: skip
    out = result.stdout.str()
    notes = [ln for ln in out.splitlines() if "cached by alias and address only" in ln]
    assert len(notes) == 1, notes  # two servers, one note (there were two)
    (note,) = notes
    assert note.count(" at http://127.0.0.1:") == 2, note  # as given, not "localhost"
    assert "localhost" not in note
    text = (pau_pytester.path / "pr.md").read_text()
    assert text.count("cached by alias and address only") == 1

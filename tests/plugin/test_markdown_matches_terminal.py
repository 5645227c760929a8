"""The Markdown summary (``--pau-markdown``, ``$GITHUB_STEP_SUMMARY``) reads as the terminal.

One real run (toy dataset: passes, a failure, an infrastructure error; two failing gates
and a passing one; a baseline; the gold control; a judge counted as embedded, so notes and
a calibration line) in a GitHub Actions job: the pull-request file, the job summary and the
annotations are parsed, and every figure and line they share with the terminal block must
read the same. Then the size limits, on a report far larger than any comment allows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest

from pytest_pau.models import FailureMode, InstanceResult, Report, RunInfo
from pytest_pau.report.github import MAX_ANNOTATIONS, append_step_summary
from pytest_pau.report.markdown import PR_COMMENT_BYTES, STEP_SUMMARY_BYTES, render_markdown
from pytest_pau.report.summary import build_summary
from pytest_pau.settings import PauSettings

Run = Callable[..., pytest.RunResult]
NUMBER = re.compile(r"\$?\d[\d,]*\.\d+%?|\d+%")


def plain(markdown: str) -> str:
    """What a reader sees of our Markdown: entities and backslash escapes undone, one space."""
    text = unescape(re.sub(r"\\([\\`*_\[\]|~#])", r"\1", markdown))
    return re.sub(r"[ \t]+", " ", text)


def decoded(text: str) -> str:
    """A workflow command's text as GitHub shows it."""
    for code, char in (("%0A", "\n"), ("%0D", "\r"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def squeeze(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


@pytest.fixture
def run(run_pau: Run, pau_pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    path = pau_pytester.path
    run_pau("--pau-report=base.json", model="null")  # a baseline that the oracle beats
    monkeypatch.setattr(
        PauSettings,
        "low_fidelity_roles",
        lambda self: [("judge", self.judge_model, "--pau-judge-model")],
    )
    (path / "step.md").write_text("## an earlier step's summary\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(path / "step.md"))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = run_pau(
        "--pau-markdown=pr.md",
        "--pau-gold-control",
        "--pau-min-pass-rate=0.9",
        "--pau-min-mean-judge=4.5",
        "--pau-min-mean-match=0.5",
        "--pau-baseline=base.json",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    out = result.stdout.str()
    return out[out.index("PAU summary") :], path


def test_the_markdown_summary_job_summary_and_annotations_read_as_the_terminal(run) -> None:
    terminal, path = run
    markdown = (path / "pr.md").read_text()
    assert len(markdown.encode()) < PR_COMMENT_BYTES
    text = plain(markdown)
    lines = [squeeze(ln) for ln in terminal.splitlines()]

    assert text.startswith("### PAU: ❌ release gate failed (`--pau-min-mean-judge=4.5`, ")
    # The lines both show, word for word: what ran, the counts, the cost, every gate line
    # (PASS and FAIL), the baseline's lines, the notes, the calibration and the last line.
    shared = [
        ln
        for ln in lines
        if ln.startswith(
            (
                "model oracle on ",
                "items 5:",
                "model requests",
                "tokens ",
                "PASS ",
                "FAIL ",
                "baseline ",
                "flipped:",
                "note: ",
                "calibration",
                "PAU release gate failed",
            )
        )
    ]
    assert sum(ln.startswith("FAIL ") for ln in shared) >= 2
    assert any(ln.startswith("PASS ") for ln in shared)
    assert any(ln.startswith("calibration") for ln in shared)
    flat = squeeze(text)
    for line in shared:
        assert line in flat, line

    # The figures table: each value and interval as the terminal prints it.
    rate = re.search(r"^pass rate +(\S+) +(95% CI \[.*?\]) +\((\d+/\d+) scored\)", terminal, re.M)
    judge = re.search(
        r"^judge score +mean (\S+) +(95% CI \[.*?\]|\(n=.*?\)) +n=(\d+)", terminal, re.M
    )
    match = re.search(
        r"^code match +mean (\S+) +(95% CI \[.*?\]|\(n=.*?\)) +n=(\d+)", terminal, re.M
    )
    assert rate
    assert judge
    assert match
    assert f"| pass rate | {rate[1]} | {rate[2]} | {rate[3]} scored |" in text
    assert f"| judge score | mean {judge[1]} | {judge[2]} | n={judge[3]} |" in text
    assert f"| code match | mean {match[1]} | {match[2]} | n={match[3]} |" in text
    # The failure modes, count and share.
    modes = re.findall(r"^  ([a-z_]+) +(\d+) +(\d+\.\d%)$", terminal, re.M)
    assert modes
    assert modes == re.findall(r"^\| ([a-z_]+) \| (\d+) \| (\d+\.\d%) \|$", text, re.M)
    # The failed item folded, with its scores as the JSON report has them.
    assert "<details><summary>1 item below their thresholds</summary>" in markdown
    assert "| `toy/tricky` | judge score 2 < 3 | insufficient_exploration |" in text
    assert "FAILED pau::test_pau[toy/tricky] - Failed: toy/tricky: judge score 2 < 3" in (terminal)
    # And no figure of the Markdown is written another way in the terminal.
    for figure in NUMBER.findall(text):
        assert figure in terminal, f"{figure!r} of the Markdown is not in the terminal's"

    # The job summary: appended after what an earlier step wrote, the same text.
    step = (path / "step.md").read_text()
    assert step.startswith("## an earlier step's summary\n\n### PAU: ❌ release gate failed")
    assert step.split("\n\n", 1)[1] == (path / "pr.md").read_text()  # the same summary
    assert len(step.encode()) < STEP_SUMMARY_BYTES

    commands = [ln for ln in terminal.splitlines() if ln.startswith("::")]
    assert 0 < len(commands) <= MAX_ANNOTATIONS
    errors = [c for c in commands if c.startswith("::error ")]
    # One per gate that blocks, level and regression, failed or not decided (the regression
    # gate with an errored item unknown at both ends is not decided: issue 35).
    fails = [
        squeeze(ln)
        for ln in terminal.splitlines()
        if ln.strip().startswith(("FAIL ", "NOT DECIDED "))
    ]
    assert len(errors) == len(fails)
    for command, line in zip(errors, fails, strict=True):
        title, message = command[len("::error title=") :].split("::", 1)
        assert squeeze(decoded(message)) == line
        assert decoded(title).startswith(
            tuple(
                f"PAU {kind} gate {status}: "
                for kind in ("release", "regression")
                for status in ("failed", "not decided")
            )
        )
    warnings = [c for c in commands if c.startswith("::warning ")]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "::warning title=PAU%3A 1 item errored (infrastructure)::toy/boom: "
    )


def test_a_markdown_file_that_cannot_be_written_is_refused_before_any_item(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    (pau_pytester.path / "afile").touch()
    result = run_pau("-m", "smoke", "--pau-markdown=afile/pr.md")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-markdown='afile/pr.md': cannot write the file there*"])
    result = run_pau("-m", "smoke", "--pau-markdown=r.json", "--pau-report=r.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*both write*one would overwrite the other*"])


def test_a_shards_summary_says_the_gates_are_left_to_the_merge() -> None:
    report = _big_report(3)
    report.run.shard = "2/3"
    assert render_markdown(report).startswith(
        "### PAU shard 2/3: `m` on `d/test`\n\nrelease gates: decided over all shards by "
        "`pau merge --gate`"
    )


def _big_report(n: int) -> Report:
    results = [
        InstanceResult(
            id=f"set/method_with_a_long_name_{k:05d}",
            source="set",
            arity=1,
            judge_score=2.0,
            code_match=0.25,
            failure_mode=FailureMode.REASONING_ERROR,
        )
        for k in range(n)
    ]
    results += [
        InstanceResult(id=f"set/err{k}", source="set", arity=1, error="x" * 2000 + " | <b>")
        for k in range(n // 10)
    ]
    run = RunInfo(
        plugin_version="1", model="m", judge_model="j", coder_model="c", dataset="d",
        split="test", mode="interactive", seed=0, max_iterations=20,
    )  # fmt: skip
    return Report(run=run, instances=results, summary=build_summary(results))


def test_a_huge_run_stays_under_githubs_limits_with_its_lists_folded(tmp_path: Path) -> None:
    report = _big_report(5000)
    comment = render_markdown(report)
    assert len(comment.encode()) <= PR_COMMENT_BYTES
    assert comment.count("<details>") == 2  # failed items and errors, each cut at 200 rows
    assert "| ... 4800 more in the JSON report | | |" in comment
    assert "| ... 400 more in the JSON report | |" in comment
    assert "<b>" not in comment  # provider text is escaped, never rendered
    # A tighter limit shortens the lists (to 10 rows), then leaves them out, and says so.
    shorter = render_markdown(report, max_bytes=6000)
    assert len(shorter.encode()) <= 6000
    assert "| ... 4975 more in the JSON report | | |" in shorter
    tiny = render_markdown(report, max_bytes=1500)
    assert len(tiny.encode()) <= 1500
    assert "<details>" not in tiny
    assert "lists left out to fit GitHub's size limit" in tiny
    assert "items 5500: 0 passed, 5000 failed, 500 errors (infrastructure)" in plain(tiny)
    # A step summary already nearly full gets nothing rather than going past 1 MiB.
    full = tmp_path / "step.md"
    full.write_text("x" * (STEP_SUMMARY_BYTES - 10_000))
    assert append_step_summary(report, closing=None, path=full) == 0
    assert full.stat().st_size == STEP_SUMMARY_BYTES - 10_000
    roomy = tmp_path / "roomy.md"
    roomy.write_text("y" * (STEP_SUMMARY_BYTES - 100_000))
    assert append_step_summary(report, closing=None, path=roomy) > 0
    assert roomy.stat().st_size < STEP_SUMMARY_BYTES

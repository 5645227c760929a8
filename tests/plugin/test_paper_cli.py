"""``pau paper`` on three scripted runs of the toy dataset, every number checked by hand.

The runs (all ``--pau-protocol=paper``, one scripted judge and coder): the ``oracle``
interactive, a scripted model interactive (it concludes "Returns something computed from
its input." after one call) and the same model in-context (it answers "Returns the sum of
its two arguments." for every method). ``toy/boom``'s judge never gives a rating.
"""

from __future__ import annotations

import csv
import json
import re
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pytest_pau.cli.main import main
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM
from tests.firstrun.scripted import VAGUE, act_reply

from .toy import scoring_args

MODEL_RULES = [
    (MARKERS["reason"], "I will call it with the first example's input."),
    (MARKERS["act"], act_reply),
    (MARKERS["reflect"], f"CONCLUDE: YES\nSUMMARY: {VAGUE}"),
    (MARKERS["incontext"], "DESCRIPTION: Returns the sum of its two arguments."),
]
RUNS = ("oracle.json", "scripted.json", "scripted_incontext.json")


@pytest.fixture
def three_runs(pau_pytester: pytest.Pytester, scoring_llm: ScriptedLLM) -> Path:
    common = ["--pau-dataset=toy.jsonl", "--pau-protocol=paper", *scoring_args(scoring_llm)]
    with ScriptedLLM(MODEL_RULES) as model:
        mine = [f"--pau-model={model.model}", f"--pau-api-base={model.api_base}"]
        for args in (
            ["--pau-model=oracle", "--pau-report=oracle.json"],
            [*mine, "--pau-report=scripted.json"],
            [*mine, "--pau-mode=incontext", "--pau-report=scripted_incontext.json"],
        ):
            pau_pytester.runpytest(*common, *args)
    return pau_pytester.path


def _filled(report: dict[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """Judge and match per instance as the paper counts them, read from the report by hand."""
    judge = {r["id"]: r["judge_score"] or 1.0 for r in report["instances"]}
    match = {
        r["id"]: 0.0 if r["code_match"] is None else r["code_match"] for r in report["instances"]
    }
    return judge, match


def _pm(values: list[float]) -> str:
    return f"{statistics.fmean(values):.2f} ± {statistics.stdev(values):.2f}"


def _pct(hits: int, n: int) -> str:
    return f"{100 * hits / n:.1f}%"


def test_pau_paper_writes_the_table_and_figures_whose_numbers_a_hand_count_gives(
    three_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = [json.loads((three_runs / name).read_text()) for name in RUNS]
    capsys.readouterr()
    out = three_runs / "paper"
    assert main(["paper", *(str(three_runs / n) for n in RUNS), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == [
        "judge_spread.png",
        "match_spread.png",
        "modes.png",
        "paper.html",
        "rank_correlation.png",
        "table.csv",
        "table.md",
    ]
    for png in out.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (out / "paper.html").read_text()
    assert html.count("data:image/png;base64,") == 4
    # The paired tests are a table, not Markdown in a <pre>; the wide table scrolls inside
    # its box; each figure's caption says what it shows, not only its file name.
    pairs = html[html.index("<h2>Paired tests</h2>") : html.index("<h2>Figures</h2>")]
    assert "<pre>" not in pairs
    assert "|---|" not in pairs
    assert "<th>run A</th>" in pairs
    assert html.count('<div class="scroll"><table>') == 2
    assert "overflow-x:auto" in html
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", html)
    assert len(captions) == 4
    assert all(not c.startswith(c.split("(")[-1]) and len(c) > 40 for c in captions), captions
    assert any(c.startswith("Judge scores:") for c in captions), captions

    rows = list(csv.DictReader((out / "table.csv").open()))
    # In-context first (the paper's order), then the interactive runs as given, then Max.
    assert [(r["model"], r["mode"]) for r in rows] == [
        ("scripted (incontext)", "incontext"),
        ("oracle", "interactive"),
        ("scripted (interactive)", "interactive"),
        ("Max", "interactive"),
    ]
    by_label = {r["model"]: r for r in rows}
    labels = {
        "oracle": reports[0],
        "scripted (interactive)": reports[1],
        "scripted (incontext)": reports[2],
    }
    interactive = []
    for label, report in labels.items():
        judge, match = _filled(report)
        j, m = list(judge.values()), list(match.values())
        row = by_label[label]
        assert row["n"] == "5"
        assert row["judge mean ± std"] == _pm(j)
        for level in "12345":
            assert row[f"judge {level}"] == _pct(sum(v == int(level) for v in j), 5)
        assert row["judge >= 3"] == _pct(sum(v >= 3 for v in j), 5)
        assert row["match mean ± std"] == _pm(m)
        assert row["match = 1"] == _pct(sum(v == 1 for v in m), 5)
        assert row["match 80-100%"] == _pct(sum(v >= 0.8 for v in m), 5)
        assert row["match 0-19%"] == _pct(sum(v < 0.2 for v in m), 5)
        ran = [r for r in report["instances"] if r["error"] is None]
        queries = [r["n_queries"] for r in ran]
        concluded = sum(r["concluded"] for r in report["instances"])
        if report["run"]["mode"] == "incontext":  # the model asks nothing: no figure
            assert (row["queries mean ± std"], row["concluded"]) == ("n/a", "n/a")
        else:
            assert row["queries mean ± std"] == _pm(queries)
            assert row["concluded"] == _pct(concluded, 5)
        if report["run"]["mode"] == "interactive":
            interactive.append((judge, match))
    # The hand-made figures that say the runs differ: oracle 5,5,5,2 and boom 1.
    assert by_label["oracle"]["judge mean ± std"] == "3.60 ± 1.95"
    assert by_label["scripted (incontext)"]["match = 1"] == "20.0%"  # only add matches
    # Max: per instance the best of the interactive runs.
    ids = list(interactive[0][0])
    best_j = [max(run[0][i] for run in interactive) for i in ids]
    best_m = [max(run[1][i] for run in interactive) for i in ids]
    assert by_label["Max"]["judge mean ± std"] == _pm(best_j)
    assert by_label["Max"]["match mean ± std"] == _pm(best_m)
    assert by_label["Max"]["queries mean ± std"] == ""

    # The paired bootstrap, redone: seed 0, 10,000 resamples of floor(n/2) with replacement.
    def bootstrap(a: list[float], b: list[float]) -> float:
        rng = np.random.default_rng(0)
        idx = rng.integers(0, len(a), size=(10_000, len(a) // 2))
        diff = np.asarray(a)[idx].mean(axis=1) - np.asarray(b)[idx].mean(axis=1)
        wins = ((diff > 0).sum(), (diff < 0).sum())
        return 1.0 if wins[0] == wins[1] else 1 - max(wins) / 10_000

    oracle_j = [interactive[0][0][i] for i in ids]
    scripted_j = [interactive[1][0][i] for i in ids]
    p = bootstrap(oracle_j, scripted_j)
    assert (
        f"| oracle | scripted (interactive) | judge | 5 | {statistics.fmean(oracle_j):.3f} | "
        f"{statistics.fmean(scripted_j):.3f} | oracle | {p:.4f} |"
    ) in printed
    assert "| scripted (interactive) | scripted (incontext) | judge | 5 |" in printed


def test_pau_paper_refuses_reports_that_are_not_on_one_footing(
    pau_pytester: pytest.Pytester, run_pau: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    run_pau("--pau-report=default.json")
    run_pau("--pau-protocol=paper", "--pau-report=oracle.json")
    folder = pau_pytester.path
    capsys.readouterr()
    assert main(["paper", str(folder / "oracle.json"), str(folder / "default.json")]) == 2
    assert "different protocols" in capsys.readouterr().err
    other = json.loads((folder / "oracle.json").read_text())
    other["run"]["judge_model"] = "openai/another-judge"
    (folder / "other.json").write_text(json.dumps(other))
    assert main(["paper", str(folder / "oracle.json"), str(folder / "other.json")]) == 2
    err = capsys.readouterr().err
    assert "the reports have different judges" in err
    assert "other.json: 'another-judge'" in err


def test_an_incontext_run_says_queries_are_not_applicable(
    three_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It printed "queries 0.00 ± 0.00 concluded 0.0%": a model that asked nothing and
    # never finished, where the mode asks nothing by design.
    from pytest_pau.report.html import write_html
    from pytest_pau.report.json_report import read_report
    from pytest_pau.report.render_paper import paper_lines

    report = read_report(three_runs / "scripted_incontext.json")
    assert report.summary.paper is not None
    lines = paper_lines(report.summary.paper, report.run.mode)
    (queries,) = [ln for ln in lines if ln.startswith("queries")]
    assert "not applicable" in queries
    assert "0.00 ± 0.00" not in queries
    page = write_html(report, three_runs / "incontext.html").read_text()
    assert "queries      not applicable" in page
    interactive = read_report(three_runs / "scripted.json")
    assert interactive.summary.paper is not None
    (queries,) = [
        ln for ln in paper_lines(interactive.summary.paper, "interactive") if "queries" in ln
    ]
    assert "concluded" in queries
    capsys.readouterr()
    assert main(["paper", *(str(three_runs / n) for n in RUNS), "-o", str(three_runs / "p")]) == 0
    row = next(ln for ln in capsys.readouterr().out.splitlines() if "| incontext |" in ln)
    assert "| n/a | n/a |" in row

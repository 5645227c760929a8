"""Plots, HTML and compare from real reports of the plugin's own runs.

The plugin runs on the toy dataset of ``tests/plugin/toy.py`` with the ``oracle`` and
``null`` pseudo-models, a scripted judge and coder (no network) and the real sandbox,
writing ``--pau-report``, ``--pau-plots`` and ``--pau-html``; the files are then checked
and fed to ``pau compare`` and ``pau plot``.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("matplotlib", reason="the plots need the plots extra (matplotlib)")

# pytester restores sys.modules after each in-process run: keep the heavy modules loaded
# (matplotlib too: a re-import mid-run mixes classes of two module generations).
import matplotlib.backends.backend_agg
import matplotlib.figure

import pytest_pau.plugin
import pytest_pau.sandbox
import pytest_pau.scoring
from pytest_pau.cli.main import main
from pytest_pau.llm import get_litellm
from pytest_pau.report.json_report import read_report
from pytest_pau.report.plots import FIGURE_PX
from pytest_pau.settings.gates_and_outputs import PLOT_NAMES
from pytest_pau.testing import ScriptedLLM

from .conftest import PageState
from .test_plots import png_size

get_litellm()
_PRELOADED = (
    pytest_pau.plugin,
    pytest_pau.sandbox,
    pytest_pau.scoring,
    matplotlib.figure,
    matplotlib.backends.backend_agg,
)
TOY_FILE = Path(__file__).parents[1] / "plugin" / "toy.py"

pytestmark = pytest.mark.slow


def _toy() -> ModuleType:
    """The plugin tests' toy dataset and scripted judge/coder, loaded by path."""
    name = "_pau_report_tests_toy"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, TOY_FILE)
        assert spec is not None, f"cannot load {TOY_FILE}"
        assert spec.loader is not None, f"cannot load {TOY_FILE}"
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def scripted() -> Iterator[ScriptedLLM]:
    with ScriptedLLM(_toy().SCORING_RULES) as llm:
        yield llm


#: model -> the files its run wrote, so the browser test reuses the first test's run.
_RUNS: dict[str, tuple[Path, Path, Path]] = {}


def run_plugin(pytester: pytest.Pytester, llm: ScriptedLLM, model: str) -> tuple[Path, Path, Path]:
    """Run the plugin with ``model`` on the toy data; returns (report, plots dir, html)."""
    if model in _RUNS and all(p.exists() for p in _RUNS[model]):
        return _RUNS[model]
    toy = _toy()
    toy.write_toy(pytester.path)
    report, plots, html = (
        pytester.path / f"{model}.json",
        pytester.path / f"{model}_plots",
        pytester.path / f"{model}.html",
    )
    result = pytester.runpytest(
        f"--pau-model={model}",
        "--pau-dataset=toy.jsonl",
        *toy.scoring_args(llm),
        f"--pau-report={report}",
        f"--pau-plots={plots}",
        f"--pau-html={html}",
        "-p",
        "no:cacheprovider",
    )
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors") == 1, result.stdout.str()[-3000:]  # toy/boom: judge never rates
    result.stdout.fnmatch_lines(["*HTML report: *", "*plots: 3 PNG files in *"])
    _RUNS[model] = (report, plots, html)
    return report, plots, html


def test_oracle_and_null_runs_give_plots_html_and_a_comparison(
    pytester: pytest.Pytester, scripted: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    oracle = run_plugin(pytester, scripted, "oracle")
    null = run_plugin(pytester, scripted, "null")

    for _, plots, html in (oracle, null):
        for name in PLOT_NAMES:
            assert png_size(plots / f"{name}.png") == FIGURE_PX
        text = html.read_text()
        assert text.count("data:image/png;base64,") == 3
        assert "toy/tricky" in text

    # The reports read back and hold what the toy data promises.
    rep = read_report(oracle[0])
    assert {r.id: r.passed for r in rep.instances if r.error is None} == {
        "toy/double": True,
        "toy/add": True,
        "toy/clamp": True,
        "toy/tricky": False,
    }

    # pau plot draws both runs side by side.
    out_dir = pytester.path / "both"
    assert main(["plot", str(oracle[0]), str(null[0]), "--out", str(out_dir)]) == 0
    assert all(png_size(out_dir / f"{n}.png") == FIGURE_PX for n in PLOT_NAMES)

    # pau compare: the null model is far worse; the three easy items flip to fail.
    capsys.readouterr()
    code = main(
        [
            "compare",
            str(oracle[0]),
            str(null[0]),
            "--resamples",
            "1000",
            "--fail-if-worse",
            "pass:0.1",
        ]
    )
    out = capsys.readouterr().out
    assert "A  oracle  (5 instances)" in out
    assert "flips A -> B: 3 pass -> fail, 0 fail -> pass" in out
    assert "pass -> fail: toy/double, toy/add, toy/clamp" in out
    # Pass rate 3/4 -> 0/4: clearly worse, and four pairs cannot show "worse by less than
    # 0.1" anyway, so the non-inferiority gate fails.
    assert "B - A          -75.0%  [-100.0%, +33.1%]" in out, out
    # toy/boom errored in B: unknown at both ends, and the gate fails even at its best.
    assert "B vs A not worse by 0.1: FAILED (95% lower bound between -1.000 and " in out, out
    assert "gate --fail-if-worse pass:0.1: FAILED" in out
    assert code == 1


def test_plugin_html_in_chromium(
    pytester: pytest.Pytester, scripted: ScriptedLLM, open_page: object, chromium: str
) -> None:
    _, _, html = run_plugin(pytester, scripted, "oracle")
    state: PageState = open_page(html, "#selftest&status=failed")  # type: ignore[operator]
    assert state.console == []
    assert state.page_errors.strip() == ""
    assert state.visible == ["toy/tricky"]
    detail = state.details["toy/tricky"]
    assert "The candidate misses the special case." in detail  # the scripted judge's words
    assert "TRICKY: returns the argument minus one." in detail
    assert "(3,)" in detail

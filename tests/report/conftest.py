"""Report builders for the compare, plot and HTML tests.

Reports are made from :class:`~pytest_pau.models.InstanceResult` objects directly, so a
test states exactly the scores it needs (``make_report``) or draws many realistic ones
(``random_report``); ``plugin_reports`` runs the real plugin for end-to-end checks.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.models import CallResult, InstanceResult, Mismatch, Report, RunInfo, Step

MODES = ["insufficient_exploration", "reasoning_error", "self_contradiction", "hallucination"]


def run_info(**overrides: Any) -> RunInfo:
    """A RunInfo with plausible values; keyword arguments override fields."""
    base: dict[str, Any] = {
        "plugin_version": "0.1.0",
        "model": "model-a",
        "judge_model": "judge",
        "coder_model": "coder",
        "dataset": "builtin",
        "split": "test",
        "mode": "interactive",
        "seed": 0,
        "max_iterations": 20,
        "prompts_version": "1.0",
        "thresholds": {"judge_threshold": 3.0, "match_threshold": 0.8},
    }
    base.update(overrides)
    return RunInfo(**base)


def result(
    id: str,
    judge: float | None = 3.0,
    match: float | None = 1.0,
    passed: bool | None = None,
    *,
    arity: int = 1,
    error: str | None = None,
    failure_mode: str | None = None,
    **extra: Any,
) -> InstanceResult:
    """One InstanceResult; ``passed`` defaults to the paper's thresholds (3 and 0.8)."""
    if passed is None:
        passed = (
            error is None
            and judge is not None
            and judge >= 3
            and match is not None
            and match >= 0.8
        )
    if failure_mode is None:
        failure_mode = "none" if passed else ("infrastructure" if error else "reasoning_error")
    return InstanceResult(
        id=id if "/" in id else f"builtin/{id}",
        source="builtin",
        arity=arity,
        passed=passed,
        judge_score=judge,
        code_match=match,
        error=error,
        failure_mode=failure_mode,  # type: ignore[arg-type]
        **extra,
    )


def make_report(results: Sequence[InstanceResult], **run: Any) -> Report:
    """A Report of ``results`` (no summary: the compare code must not need one)."""
    return Report(run=run_info(**run), instances=list(results))


def random_report(
    n: int, *, seed: int = 0, model: str = "model-a", skill: float = 0.0, steps: int = 6
) -> Report:
    """``n`` instances with correlated judge/match scores and a short trajectory each.

    ``skill`` shifts every instance's latent difficulty, so two reports of the same
    ``seed`` and different ``skill`` are a paired comparison with a real difference.
    """
    rng = random.Random(seed)
    diff_rng = random.Random(1234)  # instance difficulty: shared by every run
    results = []
    for i in range(n):
        latent = diff_rng.gauss(0, 1) + skill + rng.gauss(0, 0.7)
        judge = float(min(5, max(1, round(3 + 1.2 * latent))))
        match = round(min(1.0, max(0.0, 0.6 + 0.3 * latent + rng.gauss(0, 0.1))), 2)
        trajectory = []
        for k in range(steps // 2):
            trajectory.append(
                Step(
                    kind="act",
                    iteration=k + 1,
                    prompt="p" * 200,
                    response=f"({k},)",
                    parsed_input=f"({k},)",
                    result=CallResult(ok=True, value=str(k * 2), literal=True),
                )
            )
            trajectory.append(
                Step(
                    kind="reflect",
                    iteration=k + 1,
                    prompt="p" * 300,
                    response="NO. It seems to double the number." * 3,
                    concluded=k == steps // 2 - 1,
                )
            )
        passed = judge >= 3 and match >= 0.8
        results.append(
            result(
                f"gen/m{i:05d}",
                judge,
                match,
                passed,
                arity=1 + i % 3,
                failure_mode="none" if passed else MODES[i % len(MODES)],
                prediction="Doubles the number.",
                gold="Returns twice the input.",
                judge_explanation="Close.",
                trajectory=trajectory,
                code="def test_func(a):\n    return a * 2\n",
                mismatches=[] if passed else [Mismatch(input="(1,)", expected="2", got="3")],
            )
        )
    return make_report(results, model=model)


# --- headless Chromium -------------------------------------------------------------


@dataclass
class PageState:
    """What a dumped DOM shows: instance rows, opened details, self-test and errors."""

    rows: dict[str, bool] = field(default_factory=dict)
    """instance id -> visible (no ``hidden`` attribute)."""
    details: dict[str, str] = field(default_factory=dict)
    """instance id -> text of its opened trajectory row."""
    selftest: dict[str, Any] | None = None
    page_errors: str = ""
    console: list[str] = field(default_factory=list)
    """Console messages Chromium logged at error level (or any uncaught exception)."""
    title: str = ""
    dom: str = ""

    @property
    def visible(self) -> list[str]:
        return [i for i, shown in self.rows.items() if shown]


class _DomReader(HTMLParser):
    def __init__(self, state: PageState) -> None:
        super().__init__(convert_charrefs=True)
        self.state = state
        self.capture: tuple[str, str] | None = None  # (kind, key) while inside an element
        self.depth = 0
        self.buf: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if self.capture is not None:
            if tag == self.capture[1]:
                self.depth += 1
            return
        if tag == "tr" and "inst" in classes:
            self.state.rows[a.get("data-id") or ""] = "hidden" not in a
        elif tag == "tr" and "detail" in classes:
            self.capture, self.depth, self.buf = (f"detail:{a.get('data-id')}", "tr"), 1, []
        elif tag == "pre" and a.get("id") in ("pau-selftest", "pau-errors"):
            self.capture, self.depth, self.buf = (str(a.get("id")), "pre"), 1, []
        elif tag == "title":
            self.capture, self.depth, self.buf = ("title", "title"), 1, []

    def handle_endtag(self, tag: str) -> None:
        if self.capture is None or tag != self.capture[1]:
            return
        self.depth -= 1
        if self.depth:
            return
        kind, text = self.capture[0], "".join(self.buf)
        if kind.startswith("detail:"):
            self.state.details[kind.split(":", 1)[1]] = text
        elif kind == "pau-selftest":
            self.state.selftest = json.loads(text) if text.strip() else None
        elif kind == "pau-errors":
            self.state.page_errors = text
        elif kind == "title":
            self.state.title = text
        self.capture = None

    def handle_data(self, data: str) -> None:
        if self.capture is not None:
            self.buf.append(data + " ")


def parse_dom(dom: str) -> PageState:
    state = PageState(dom=dom)
    _DomReader(state).feed(dom)
    return state


@pytest.fixture(scope="session")
def chromium() -> str:
    """Path of a headless-capable Chromium; skips when none is installed, fails in CI."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        reason = "no chromium on PATH: the HTML browser tests need it (apt-get install chromium)"
        if os.environ.get("CI"):
            # .ci/run installs it: a skip there would hide that the browser check never ran.
            pytest.fail(f"{reason}; .ci/run should have installed it", pytrace=False)
        pytest.skip(reason)
    return path


@pytest.fixture
def open_page(chromium: str, tmp_path: Path) -> Any:
    """``open_page(html_file, fragment="") -> PageState``: load it in headless Chromium."""

    def run(html_file: Path, fragment: str = "") -> PageState:
        profile = tmp_path / f"chromium-profile-{len(list(tmp_path.glob('chromium-profile-*')))}"
        cmd = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-extensions",
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            "--dump-dom",
            html_file.resolve().as_uri() + fragment,
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"chromium exited {proc.returncode}: {proc.stderr[-2000:]}"
        state = parse_dom(proc.stdout)
        # Chromium logs page console messages as "...:CONSOLE(line)] message" on stderr;
        # console.log is not an error, but anything uncaught or a CSP violation is.
        state.console = [
            line
            for line in proc.stderr.splitlines()
            if "CONSOLE" in line
            and (
                "Uncaught" in line
                or "Error" in line
                or "Refused" in line
                or "Content Security Policy" in line
            )
        ]
        return state

    return run

"""Release-gate extras: print how far each mean moved against a baseline report.

Put the report of the release you ship now at ``pau-baseline.json`` (or set
``PAU_BASELINE``); every run then prints the change of each mean over the items both runs
scored (a shard or a ``-k`` selection is compared on its own items, never with the
baseline's whole run). This is information only: the gates themselves, including the
statistical regression gate ``pau_baseline``, live in ``pytest.ini`` and need no code.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pytest_pau.report.json_report import read_report


class _Scores:
    """This run's scores by instance id, from every item's report (xdist workers' too)."""

    def __init__(self):
        self.by_id = {}

    def pytest_runtest_logreport(self, report):
        props = dict(report.user_properties)
        found = re.search(r"\[(.+)\]$", report.nodeid)
        if report.when == "call" and "pau_judge_score" in props and found:
            self.by_id[found.group(1)] = props


def pytest_configure(config):
    config.pluginmanager.register(_Scores(), "release-gate-scores")


def _baseline_path(config):
    return Path(os.environ.get("PAU_BASELINE", config.rootpath / "pau-baseline.json"))


def _writes(config, path):
    """Whether this run's ``--pau-report`` is the baseline file itself."""
    report = config.getoption("pau_report", None) or config.getini("pau_report")
    return bool(report) and (config.rootpath / str(report)).resolve() == path.resolve()


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def pytest_pau_summary_extra(config, summary):
    path = _baseline_path(config)
    if _writes(config, path):
        return [f"baseline: this run writes {path.name}; nothing to compare it with"]
    if not path.is_file():
        return [f"baseline: none at {path} (copy a --pau-report file there to compare)"]
    here = config.pluginmanager.get_plugin("release-gate-scores").by_id
    before = {i.id: i for i in read_report(path).instances if i.judge_score is not None}
    shared = sorted(set(here) & set(before))
    if not shared:
        return [f"baseline {path.name}: no item of this run is in it; nothing to compare"]
    lines = [f"baseline {path.name}, on the {len(shared)} items both runs scored:"]
    for label, key, field in (
        ("mean judge score", "pau_judge_score", "judge_score"),
        ("mean code match", "pau_code_match", "code_match"),
    ):
        now = _mean(here[i][key] for i in shared)
        was = _mean(getattr(before[i], field) for i in shared)
        if now is not None and was is not None:
            lines.append(f"  {label:<17} {was:.2f} -> {now:.2f} ({now - was:+.2f})")
    now = _mean(float(bool(here[i]["pau_passed"])) for i in shared)
    was = _mean(float(bool(before[i].passed)) for i in shared)
    if now is not None and was is not None:
        lines.append(
            f"  {'pass rate':<17} {was:.1%} -> {now:.1%} ({100 * (now - was):+.1f} points)"
        )
    return lines

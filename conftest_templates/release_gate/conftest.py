"""Release-gate extras: print how far each mean moved against a baseline report.

Put the report of the release you ship now at ``pau-baseline.json`` (or set
``PAU_BASELINE``); every run then prints the change of each mean. This is information
only: the gates themselves, including the statistical regression gate ``pau_baseline``,
live in ``pytest.ini`` and need no code.
"""

from __future__ import annotations

import os
from pathlib import Path

from pytest_pau.report.json_report import read_report


def _baseline(config):
    path = Path(os.environ.get("PAU_BASELINE", config.rootpath / "pau-baseline.json"))
    if not path.is_file():
        return None, path
    return read_report(path).summary, path


def pytest_pau_summary_extra(config, summary):
    base, path = _baseline(config)
    if base is None:
        return [f"baseline: none at {path} (copy a --pau-report file there to compare)"]
    lines = [f"baseline {path.name}:"]
    for label, now, before in (
        ("mean judge score", summary.judge.mean, base.judge.mean),
        ("mean code match", summary.code_match.mean, base.code_match.mean),
    ):
        if now is not None and before is not None:
            lines.append(f"  {label:<17} {before:.2f} -> {now:.2f} ({now - before:+.2f})")
    now, before = summary.pass_rate, base.pass_rate
    if now is not None and before is not None:
        lines.append(
            f"  {'pass rate':<17} {before:.1%} -> {now:.1%} ({100 * (now - before):+.1f} points)"
        )
    return lines

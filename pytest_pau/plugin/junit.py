"""``--junitxml`` that agrees with the exit status, and one testcase per release gate.

pytest's JUnit file reports every failed test as a ``<failure>``. In a gated run
(``--pau-exit=gates``, the default with a gate) an item whose model fell below its thresholds
is the gates' data, not a run failure: the run exits 0 when the gates pass, and a file
saying ``failures="2"`` would paint a green run red in every JUnit reader. So once pytest
has written the file, this rewrites it:

* each below-threshold item's ``<failure>`` becomes ``<skipped type="pau.below_threshold">``
  with the same message and text (its scores stay in the ``pau_*`` properties);
* each release gate (level and regression) becomes a testcase of class
  ``pau.release_gates``, failed or passed, with its bound, value and the summary's line
  in properties;
* the suite's ``tests``, ``failures`` and ``skipped`` counts follow.

``--pau-exit=items`` keeps pytest's items as they are (every failed item fails the run) and
still adds the gates' testcases; a run without gates is left untouched. Only the file is
read and written (not pytest's internals): the rewrite runs after pytest's own writer,
and goes through a temporary file and a rename.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pau.models import Summary
    from pytest_pau.plugin.state import PauRun

#: The class name of the gates' testcases.
GATES_CLASS = "pau.release_gates"
BELOW_TYPE = "pau.below_threshold"


def _case(name: str, passed: bool, line: str, properties: dict[str, object]) -> ET.Element:
    case = ET.Element("testcase", classname=GATES_CLASS, name=name, time="0.000")
    props = ET.SubElement(case, "properties")
    for key, value in properties.items():
        ET.SubElement(props, "property", name=key, value="" if value is None else str(value))
    if not passed:
        failure = ET.SubElement(case, "failure", message=f"FAIL {line}")
        failure.text = f"FAIL {line}"
    return case


def gate_cases(summary: Summary) -> list[ET.Element]:
    """One testcase per level gate and per regression gate, in the summary's order."""
    from pytest_pau.report.gate_lines import (
        level_line,
        level_name,
        regression_line,
        regression_name,
    )

    cases = [
        _case(
            level_name(g),
            g.passed,
            level_line(g),
            {
                "pau_gate": g.name,
                "pau_gate_option": g.option,
                "pau_gate_threshold": g.threshold,
                "pau_gate_statistic": g.statistic,
                "pau_gate_value": g.value,
                "pau_gate_margin": g.margin,
                "pau_gate_line": f"{'PASS' if g.passed else 'FAIL'} {level_line(g)}",
            },
        )
        for g in summary.gates
    ]
    b = summary.baseline
    for r in b.regressions if b is not None else ():
        assert b is not None  # for mypy: the loop runs only with a baseline
        cases.append(
            _case(
                regression_name(r),
                r.passed,
                regression_line(b, r),
                {
                    "pau_gate": f"regression_{r.metric}",
                    "pau_gate_option": "--pau-max-regression",
                    "pau_gate_baseline": b.path,
                    "pau_gate_margin": r.margin,
                    "pau_gate_mean_diff": r.mean_diff,
                    "pau_gate_lower_bound": r.low,
                    "pau_gate_line": f"{'PASS' if r.passed else 'FAIL'} {regression_line(b, r)}",
                },
            )
        )
    return cases


def _address(nodeid: str, prefix: str | None) -> tuple[str, str]:
    """``(classname, name)`` pytest writes for ``nodeid`` (its own mangling)."""
    from _pytest.junitxml import mangle_test_address

    names = mangle_test_address(nodeid)
    classnames = names[:-1]
    if prefix:
        classnames.insert(0, prefix)
    return ".".join(classnames), names[-1]


def _count(suite: ET.Element, key: str, delta: int) -> None:
    suite.set(key, str(int(suite.get(key, "0") or 0) + delta))


def rewrite(state: PauRun, path: Path) -> None:
    """Rewrite pytest's JUnit file at ``path`` (see the module docstring); no file, no change.

    Raises:
        OSError: The file cannot be read or written back.
        xml.etree.ElementTree.ParseError: It is not XML.
    """
    from pytest_pau.paths import write_text_atomic

    s, summary = state.settings, state.summary
    if summary is None or not path.is_file():
        return
    convert = s.gated and s.exit == "gates"
    cases = gate_cases(summary)
    if not cases and not (convert and state.intake.below_threshold):
        return
    tree = ET.parse(path)
    root = tree.getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    if suite is None:
        return
    moved = 0
    if convert:
        prefix = state.config.getoption("junitprefix", None)
        wanted = {_address(nodeid, prefix) for nodeid in state.intake.below_threshold}
        for case in suite.iter("testcase"):
            failure = case.find("failure")
            if failure is None or (case.get("classname"), case.get("name")) not in wanted:
                continue
            message = failure.get("message", "")
            skipped = ET.Element(
                "skipped",
                type=BELOW_TYPE,
                message=(
                    "below its thresholds: data for the release gates, not a run failure "
                    f"(--pau-exit=items makes it one): {message}"
                ),
            )
            skipped.text = failure.text
            case.insert(list(case).index(failure), skipped)
            case.remove(failure)
            moved += 1
    suite.extend(cases)
    failed_gates = sum(case.find("failure") is not None for case in cases)
    _count(suite, "tests", len(cases))
    _count(suite, "failures", failed_gates - moved)
    _count(suite, "skipped", moved)
    text = ET.tostring(root, encoding="unicode")
    write_text_atomic(path, '<?xml version="1.0" encoding="utf-8"?>' + text)


def after_junit(state: PauRun) -> None:
    """Rewrite the run's ``--junitxml`` file, if any; a failure is a warning, never a crash."""
    from _pytest.junitxml import xml_key

    xml = state.config.stash.get(xml_key, None)
    if xml is None or state.summary is None:
        return
    try:
        rewrite(state, Path(xml.logfile))
    except (OSError, ET.ParseError) as exc:
        from pytest_pau.plugin.notices import warn

        warn(f"--junitxml={xml.logfile!r}: could not add the release gates to it ({exc})")

"""Hooks that conftest files and other plugins implement to extend pytest-pau.

pytest-pau adds these specs through ``pytest_addhooks``. Implement one in a
``conftest.py`` at your rootdir (hooks that run at configure time, such as
:func:`pytest_pau_load_dataset`, are only seen there) or in a plugin. pytest only
recognises implementations whose names start with ``pytest_``; the names below follow
``pytest_pau_<noun>_<verb>``.

``pau init --template custom-agent`` and ``--template custom-dataset`` write working
examples of the first two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_pau.models import Instance, InstanceResult, Report, Summary, Trajectory
    from pytest_pau.settings import PauSettings

hookspec = pytest.hookspec


# -------------------------------------------------------------------------------------------------
# Input: which instances run
# -------------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def pytest_pau_load_dataset(config: pytest.Config, spec: str, split: str) -> list[Instance] | None:
    """Return the instances of a run, or None to let the next implementation decide.

    Called once per process (the controller and each xdist worker) at configure time, so
    it must return the same list, in the same order, every time. The plugin's own
    implementation runs last and calls :func:`pytest_pau.dataset.load_dataset`.

    Args:
        config: The pytest config (``config.rootpath`` helps resolve your files).
        spec: ``--pau-dataset`` (default ``builtin``).
        split: ``--pau-split`` (default ``test``).

    Returns:
        A list of :class:`pytest_pau.Instance` with unique ids, or None.

    firstresult: the first non-None result is used.

    Example::

        from pytest_pau import Instance, load_dataset

        def pytest_pau_load_dataset(config, spec, split):
            if spec != "mine":
                return None
            return [i for i in load_dataset("data/methods.jsonl") if "legacy" not in i.tags]
    """


# -------------------------------------------------------------------------------------------------
# Running an item
# -------------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def pytest_pau_make_agent(config: pytest.Config, settings: PauSettings, client: Any) -> Any | None:
    """Return the agent that explores each hidden method, or None for the default one.

    Called once per process, the first time an item runs. The agent needs one method,
    ``run(instance, sandbox) -> Trajectory``: call ``sandbox.call_literal("(1, 'a')")``
    as often as you like, record the calls as :class:`pytest_pau.models.Step` objects of
    kind ``act``, and put your final description in ``Trajectory.prediction``. The judge,
    the coder and the report then treat it like the builtin agent.

    Args:
        config: The pytest config.
        settings: The resolved ``--pau-*`` settings (``settings.model`` is the model
            under test, ``settings.max_iterations`` the loop limit...).
        client: An :class:`pytest_pau.llm.LLMClient` for ``--pau-model``, created
            lazily; None for the pseudo-models ``oracle`` and ``null``.

    firstresult: the first non-None result is used.

    Example::

        from pytest_pau.models import Step, Trajectory

        class FirstExamplesAgent:
            def run(self, instance, sandbox):
                steps = []
                for i, ex in enumerate(instance.train_examples):
                    result = sandbox.call_literal(ex.input)
                    steps.append(Step(kind="act", iteration=i, prompt="", response=ex.input,
                                      parsed_input=ex.input, result=result))
                return Trajectory(steps=steps, prediction="Returns ...", n_queries=len(steps))

        def pytest_pau_make_agent(config, settings, client):
            if settings.model == "first-examples":
                return FirstExamplesAgent()
            return None
    """


@hookspec
def pytest_pau_report_write(config: pytest.Config, report: Report) -> str | None:
    """Write your own output of the run (a dashboard, a CSV, a message) from its report.

    Called on the controller only, once, after the run's end is settled and the HTML and
    Markdown outputs are written, before the JSON report (which is written last, so that it
    says what the exit status says). ``report`` is the :class:`pytest_pau.models.Report`
    that ``--pau-report`` stores: ``report.summary.verdict`` (status, exit status,
    reasons), ``report.summary.gates``, ``report.instances``...; read it only.

    An ``OSError`` (or a :class:`pytest_pau.errors.PauError`) it raises is a requested
    output that could not be written: said in the summary, and it fails the run as a
    missing ``--pau-html`` does (the implementations after it are not called).

    Args:
        config: The pytest config.
        report: The run's report, its verdict settled.

    Returns:
        A line naming what was written, listed with the report files, or None.

    Example::

        def pytest_pau_report_write(config, report):
            path = config.rootpath / "pau-scores.csv"
            rows = [f"{r.id},{r.judge_score},{r.code_match}" for r in report.instances]
            path.write_text("id,judge,match\n" + "\n".join(rows) + "\n")
            return f"scores CSV: {path}"
    """


@hookspec(firstresult=True)
def pytest_pau_classify_failure(
    config: pytest.Config, instance: Instance, result: InstanceResult, trajectory: Trajectory | None
) -> str | None:
    """Name the failure mode of a failed item, or None to keep the builtin classification.

    Called for every failed (not errored, not skipped) item, before the builtin
    classifier call, so a label from here also saves that model call.

    Args:
        config: The pytest config.
        instance: The instance, gold description and code included.
        result: The scored item so far (judge score, code match, mismatches, prediction).
        trajectory: Every step the agent took, when available.

    Returns:
        One of ``insufficient_exploration``, ``reasoning_error``, ``format_following``,
        ``hallucination``, ``self_contradiction``, or None.

    firstresult: the first non-None result is used.

    Example::

        def pytest_pau_classify_failure(config, instance, result, trajectory):
            if result.n_queries < 3:
                return "insufficient_exploration"
            return None
    """


# -------------------------------------------------------------------------------------------------
# Reporting
# -------------------------------------------------------------------------------------------------


@hookspec
def pytest_pau_summary_extra(config: pytest.Config, summary: Summary) -> list[str] | None:
    """Return extra lines for the PAU summary: the terminal's, the HTML and Markdown
    summaries' and the JSON report's ``extra``.

    Called once, on the controller only (never on xdist workers), after the run's end is
    settled and before any report file is written, when the run scored at least one item.
    ``summary`` is the :class:`pytest_pau.models.Summary` the JSON report stores under
    ``summary`` (``summary.judge.mean``, ``summary.pass_rate``, ``summary.by_source``,
    ``summary.gates``...); read it only. An implementation that raises, or returns
    something other than a list of strings, adds no line: the summary's notes name it and
    the run's verdict stands.

    Args:
        config: The pytest config.
        summary: The run's summary.

    Returns:
        Lines of text (without newline), or None.

    Example::

        def pytest_pau_summary_extra(config, summary):
            hard = summary.by_tag.get("hard")
            if hard and hard.pass_rate is not None:
                return [f"hard instances: pass rate {hard.pass_rate:.0%}"]
            return None
    """

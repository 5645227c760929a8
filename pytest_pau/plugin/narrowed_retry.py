"""A gated run whose selection pytest's cache narrowed (``--lf``, ``--sw``) decides nothing.

``pytest || pytest --lf`` is how CI retries flaky tests; with release gates it would
launder a verdict: the second run's gates would be about the items that failed last time
only (a model that failed its gate on the whole selection passes on the re-run items if
they score well this time). So a gated run whose selection the cache provider narrowed
says so and is ``not decided`` (exit status 1): the gates are about the whole selection,
which a retry must run again (a fresh job, ``--cache-clear``, or no ``--lf``/``--sw``).
``--ff`` and ``--nf`` only reorder the selection and change nothing.

Detected from pytest's own state, never from its messages: the cache provider's options
(``lf``, ``stepwise``), its plugins (``lfplugin`` with recorded failures, the stepwise
plugin) and the PAU items it deselected (``pytest_deselected``), so ``-k``/``-m`` alone
never trigger it. Under xdist each worker collects and narrows: the first report it sends
carries what it found (:func:`pytest_pau.plugin.hooks.PauPlugin.pytest_runtest_makereport`).
"""

from __future__ import annotations

import pytest

#: Which cache-provider option narrowed the selection -> how to run the whole one.
_WHAT = {
    "--lf": "pytest's cache of the last run's failures",
    "--sw": "pytest's stepwise cache (the items before the last failure were skipped)",
}


def narrowed_by(config: pytest.Config, deselected: int) -> str | None:
    """``--lf`` or ``--sw`` when that option deselected PAU items this run (None: it did
    not, or it is off).

    Args:
        config: The run's config.
        deselected: PAU items deselected during collection (by anything).
    """
    if not deselected:
        return None
    plugins = config.pluginmanager
    lf = plugins.get_plugin("lfplugin")
    if config.getoption("lf", False) and lf is not None and getattr(lf, "lastfailed", None):
        return "--lf"
    stepwise = config.getoption("stepwise", False) or config.getoption("stepwise_skip", False)
    if stepwise and plugins.get_plugin("stepwiseplugin") is not None:
        return "--sw"
    return None


def reason(option: str, selected: int, deselected: int) -> str:
    """The verdict's reason for a run whose selection ``option`` narrowed."""
    return (
        f"the selection came from {option} ({_WHAT[option]}): {selected} items re-run, "
        f"{deselected} deselected; gates decided on the re-run items alone would not be about "
        "the selection: run the whole selection again (without --lf/--sw, or with "
        "--cache-clear) to decide them"
    )

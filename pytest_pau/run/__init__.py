"""The end of a run without pytest: results and settings in, the settled summary out.

:mod:`pytest_pau.run.end` decides a run's figures, gate verdicts and verdict in one pass
(:func:`~pytest_pau.run.end.settle` on a :class:`~pytest_pau.run.end.RunEnd`); the plugin
and ``pau merge`` both call it. Below the plugin and the command line, above the report
and the statistics; it never imports pytest.
"""

from pytest_pau.run.end import RunEnd, settle

__all__ = ["RunEnd", "settle"]

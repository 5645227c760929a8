"""The plugin's own test: one item per instance, ``pau::test_pau[<source>/<id>]``.

The plugin collects this module in any folder when ``--pau-model`` is given (unless the
project has its own tests taking ``pau_instance``). The work happens in the
``pau_result`` fixture, during setup: an infrastructure failure is therefore an error
(E), and only a model that misses a threshold fails (F), with
:class:`~pytest_pau.plugin.blocking.BelowThreshold`, which a gated run counts in its gates instead
of as a run failure.
"""

from __future__ import annotations

from pytest_pau.models import InstanceResult
from pytest_pau.plugin.blocking import BelowThreshold
from pytest_pau.report.messages import failure_message
from pytest_pau.settings import PauSettings


def test_pau(pau_result: InstanceResult, pau_settings: PauSettings) -> None:
    """The model's description of the hidden method meets both thresholds."""
    if not pau_result.passed:
        report = pau_settings.report
        # A failure (F) like pytest.fail's, marked so that gated runs count it as data.
        raise BelowThreshold(
            failure_message(
                pau_result,
                judge_threshold=pau_settings.judge_threshold,
                match_threshold=pau_settings.match_threshold,
                report_path=report,
            ),
            pytrace=False,
        )

"""The data that flows through pytest-pau, one pydantic model per thing.

Data moves one way: ``dataset`` makes :class:`Instance` objects, ``sandbox`` returns
:class:`CallResult` objects, ``agent`` records :class:`Step` objects into a
:class:`Trajectory`, ``scoring`` produces :class:`JudgeResult` and
:class:`CodeMatchResult` and folds them into one :class:`InstanceResult` per item, which
``report`` aggregates into a :class:`Summary` and a :class:`Report`.

Every stage imports this package and the stages before it, never the ones after. The
result vocabulary (:class:`ItemStatus`, :class:`SkipCause`, :class:`FailureMode`,
:class:`PassRule`) lives in
:mod:`pytest_pau.models.outcome`.
"""

from __future__ import annotations

from pytest_pau.models.episode import Completion, Observation, Step, StepKind, Trajectory, Usage
from pytest_pau.models.instance import CallResult, Example, Instance, OutputDisagreement
from pytest_pau.models.outcome import (
    FAILURE_MODES,
    CodeMatchResult,
    FailureMode,
    InstanceResult,
    ItemStatus,
    JudgeResult,
    Mismatch,
    PassRule,
    Skip,
    SkipCause,
)
from pytest_pau.models.paper import (
    PAPER,
    PROTOCOLS,
    PaperJudgeStats,
    PaperMatchStats,
    PaperStats,
    ScoringProtocol,
)
from pytest_pau.models.report import CalibrationRow, Report, RunInfo, ShardInfo
from pytest_pau.models.scores import AnyReport, Scored, ScoresOnly, ScoresReport
from pytest_pau.models.summary import (
    BaselineSummary,
    Calibration,
    Counts,
    EarlyStop,
    FlaggedItem,
    GateVerdict,
    GoldStats,
    GroupStats,
    ItemError,
    JudgeStats,
    MatchStats,
    RegressionVerdict,
    Summary,
    TokenCounts,
    Verdict,
)

__all__ = [
    "FAILURE_MODES",
    "PAPER",
    "PROTOCOLS",
    "AnyReport",
    "BaselineSummary",
    "Calibration",
    "CalibrationRow",
    "CallResult",
    "CodeMatchResult",
    "Completion",
    "Counts",
    "EarlyStop",
    "Example",
    "FailureMode",
    "FlaggedItem",
    "GateVerdict",
    "GoldStats",
    "GroupStats",
    "Instance",
    "InstanceResult",
    "ItemError",
    "ItemStatus",
    "JudgeResult",
    "JudgeStats",
    "MatchStats",
    "Mismatch",
    "Observation",
    "OutputDisagreement",
    "PaperJudgeStats",
    "PaperMatchStats",
    "PaperStats",
    "PassRule",
    "RegressionVerdict",
    "Report",
    "RunInfo",
    "Scored",
    "ScoresOnly",
    "ScoresReport",
    "ScoringProtocol",
    "ShardInfo",
    "Skip",
    "SkipCause",
    "Step",
    "StepKind",
    "Summary",
    "TokenCounts",
    "Trajectory",
    "Usage",
    "Verdict",
]

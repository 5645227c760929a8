"""The JSON report written by ``--pau-report``: what produced it, every item, the summary."""

from __future__ import annotations

from pydantic import BaseModel, Field

from pytest_pau.models.instance import OutputDisagreement
from pytest_pau.models.outcome import InstanceResult
from pytest_pau.models.summary import Summary


class RunInfo(BaseModel):
    """The ``run`` block of the JSON report: what produced it."""

    plugin_version: str
    model: str
    judge_model: str
    coder_model: str
    dataset: str
    split: str
    mode: str
    seed: int
    max_iterations: int
    prompts_version: str = ""
    dataset_outputs: str | None = None
    """How the dataset's example outputs were read: ``repr`` or ``json`` (None: a loader built them)."""
    dataset_outputs_by: str | None = None
    """``detected``, ``given`` (``--pau-dataset-outputs``), ``pytest-pau`` or ``loader``."""
    dataset_notes: list[str] = Field(default_factory=list)
    """What the loader did beyond reading: outputs recomputed, stored outputs that disagree
    with the gold code's, expectations changed by the paper protocol (one line each)."""
    dataset_disagreements: list[OutputDisagreement] = Field(default_factory=list)
    """``--pau-dataset-outputs=recompute``: every stored output the gold code disagrees with."""
    protocol: str = "pytest-pau"
    """``--pau-protocol``: ``pytest-pau`` or ``paper`` (how missing scores count); runs of
    different protocols are never compared."""
    coder: str = "fixed"
    """``--pau-coder``: ``fixed``, or ``self`` (the model under test also wrote code)."""
    thresholds: dict[str, float | None] = Field(default_factory=dict)
    started: str = ""
    finished: str = ""
    python: str = ""
    host: str = ""
    interrupted: bool = False


class Report(BaseModel):
    """The JSON report written by ``--pau-report``."""

    run: RunInfo
    instances: list[InstanceResult] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    notes: list[str] = Field(default_factory=list)
    """The terminal summary's notes when the report was written (low-fidelity scorers,
    items without a result, cache and endpoint warnings); empty in older reports."""

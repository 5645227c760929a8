"""The JSON report written by ``--pau-report``: what produced it, every item, the summary."""

from __future__ import annotations

from pydantic import BaseModel, Field

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
    thresholds: dict[str, float | None] = Field(default_factory=dict)
    started: str = ""
    finished: str = ""
    python: str = ""
    host: str = ""
    interrupted: bool = False
    protocol: str = "pytest-pau"
    """How the scores were counted: ``pytest-pau`` (an item whose judge or coder failed is an
    error, left out of every mean) or ``paper`` (the PAU reference's counting: a missing judge
    rating counts 1 and a missing code match 0). Reports of different protocols are not
    comparable."""


class Report(BaseModel):
    """The JSON report written by ``--pau-report``."""

    run: RunInfo
    instances: list[InstanceResult] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    notes: list[str] = Field(default_factory=list)
    """The terminal summary's notes when the report was written (low-fidelity scorers,
    items without a result, cache and endpoint warnings); empty in older reports."""

"""The JSON report written by ``--pau-report``: what produced it, every item, the summary."""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
)

from pytest_pau.models.instance import OutputDisagreement, _escaped
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
    shard: str | None = None
    """``K/N`` for one shard of a run (``--pau-shard``); None for a whole run or a merged one."""
    instance_digests: dict[str, str] = Field(default_factory=dict)
    """``{instance id: Instance.task_digest()}`` of the instances the run loaded: a
    baseline or a compared run whose digest differs under the same id is another task
    (empty in reports written before it was kept: not checked)."""


class CalibrationRow(BaseModel):
    """One stored ``oracle``/``null`` score of a selected instance (for ``pau merge``)."""

    instance: str
    model: str
    judge: float | None = None
    match: float | None = None


class ShardInfo(BaseModel):
    """What ``pau merge`` needs of one shard (``--pau-shard=K/N``) besides its items."""

    index: int
    """K: which part this is (1-based)."""
    count: int
    """N: how many parts the selection was split into."""
    selection: list[str] | None = Field(default=None)
    """Every selected instance of the whole run (after -k/-m and --pau-limit), in order;
    None when the shard could not learn it (no xdist worker reported it)."""
    own: list[str] = Field(default_factory=list)
    """The instances this shard ran: its part of :attr:`selection`."""
    user_skipped: list[str] = Field(default_factory=list)
    """Instances of :attr:`own` that pytest skipped at setup without a result (a ``skip``
    mark, ``xfail(run=False)``): out of the gates' selection, as in a whole run."""
    cached: list[str] = Field(default_factory=list)
    """Instances the balance counted as answered by the cache (nearly free); the partition
    is a function of :attr:`selection` and this list, so shards that disagree on it were
    partitioned differently."""
    instances_digest: str = ""
    """SHA-256 of the selected instances' ids and contents: another dataset file under the
    same ids gives another digest."""
    settings: dict[str, Any] = Field(default_factory=dict)
    """Every setting that decides the scores, the selection or the gates (not the outputs,
    the cache folder or the concurrency, which may differ per machine)."""
    calibration: list[CalibrationRow] = Field(default_factory=list)
    """The calibration store's oracle/null scores of the selected instances on this machine."""
    calibration_commands: dict[str, str] = Field(default_factory=dict)
    """``oracle``/``null`` -> the command that measures it on the whole selection."""
    notes: list[str] = Field(default_factory=list)
    """The shard's notes about its own machine (cache, endpoints, crashed workers): the
    notes every run computes from its figures are computed again for the merged run."""


class Report(BaseModel):
    """The JSON report written by ``--pau-report``."""

    run: RunInfo
    instances: list[InstanceResult] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    notes: list[str] = Field(default_factory=list)
    """The terminal summary's notes when the report was written (low-fidelity scorers,
    items without a result, cache and endpoint warnings); empty in older reports."""
    extra: list[str] = Field(default_factory=list)
    """The lines of the project's ``pytest_pau_summary_extra`` hooks (its own figures, such
    as the quick start's ceiling), as the terminal summary shows them; no key in the JSON
    when there are none. Not carried into a ``pau merge`` of shards (each was of one part)."""
    shard: ShardInfo | None = None
    """A shard's selection and settings, for ``pau merge``; None (and no key in the JSON)
    for a whole run."""

    # A hook's line or a note quoting an exception can hold a lone surrogate, which no
    # UTF-8 file can: written as its escape, so the report is never lost over it.
    _no_surrogates = field_validator("notes", "extra", mode="before")(_escaped)

    @model_serializer(mode="wrap")
    def _without_empty_keys(self, handler: SerializerFunctionWrapHandler) -> Any:
        # A report keeps the keys it always had: ``shard`` only for a shard, ``extra`` only
        # when a hook gave lines.
        data = handler(self)
        if isinstance(data, dict):
            if data.get("shard") is None:
                data.pop("shard", None)
            if not data.get("extra"):
                data.pop("extra", None)
        return data

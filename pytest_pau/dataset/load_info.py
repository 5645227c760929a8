"""What a load returns besides the instances: how their example outputs were read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from pytest_pau.models import Instance, OutputDisagreement

OutputsRead = Literal["repr", "json", "reference", "recomputed"]
OutputsBy = Literal["detected", "given", "pytest-pau", "loader"]


@dataclass(frozen=True)
class DatasetInfo:
    """How a dataset's example outputs were read (shown by ``--collect-only -v``, the report).

    Example:
        >>> DatasetInfo("json", "detected", "40 JSON values, 12 plain text").describe()
        'outputs: json (detected: 40 JSON values, 12 plain text)'
    """

    outputs: OutputsRead | None
    """``repr`` (``"'abc'"`` is the str ``'abc'``), ``json`` (``"abc"`` is the str
    ``'abc'``, ``3`` the int), ``reference`` (the PAU reference's layout, by position),
    ``recomputed`` (the gold code's outputs, ``--pau-dataset-outputs=recompute``); None
    when not known: instances a registered loader built."""
    outputs_by: OutputsBy
    """Who decided: ``detected`` from the file (``outputs="auto"``), ``given`` by the
    caller (``outputs="repr"|"json"``, ``--pau-dataset-outputs``), ``pytest-pau`` for the
    sets it writes itself (builtin, humaneval: repr), ``loader`` for a registered loader."""
    evidence: str = ""
    """What detection counted, e.g. ``40 JSON values, 12 plain text``; empty unless
    detected."""
    stored: str | None = None
    """With ``recomputed``: how the stored outputs were read for the comparison."""
    notes: tuple[str, ...] = ()
    """What the loader did beyond reading (recomputed outputs, disagreements, the paper
    protocol's expectations), one line each: the run's header and summary show them."""
    disagreements: tuple[OutputDisagreement, ...] = ()
    """Stored outputs the gold code does not give (``recompute``), with the reason."""
    checked: bool = False
    """Every instance was checked against the sandbox when the set was built (the builtin
    set: ``scripts/build_builtin.py``), so a load need not check it again
    (:mod:`pytest_pau.sandbox.runnable`)."""

    def describe(self) -> str:
        """One line: ``outputs: json (detected: 40 JSON values, 12 plain text)``."""
        if self.outputs is None:
            return "outputs: as the registered loader built them"
        if self.outputs == "recomputed":
            return f"outputs: recomputed by the gold code (stored as {self.stored})"
        how = {
            "detected": f"detected: {self.evidence}" if self.evidence else "detected",
            "given": "as given",
            "pytest-pau": "written by pytest-pau",
            "loader": "registered loader",
        }[self.outputs_by]
        return f"outputs: {self.outputs} ({how})"

    def as_dict(self) -> dict[str, str | None]:
        """The fields as JSON-ready values, for the report's ``run`` block."""
        return {
            "outputs": self.outputs,
            "outputs_by": self.outputs_by,
            "evidence": self.evidence,
            "stored": self.stored,
        }


LOADER_INFO = DatasetInfo(None, "loader")
"""The info of instances that a registered loader returned."""


class LoadedDataset(list[Instance]):
    """The instances of a dataset, a plain ``list[Instance]``, plus :attr:`info`.

    Everything that takes a list takes it; comparisons ignore :attr:`info`, and slicing or
    filtering gives a plain list (the info describes the whole load).
    """

    info: DatasetInfo
    """How the example outputs were read."""
    json_tests: dict[str, list[str]]
    """For a file in the reference's layout: each instance's test outputs as the
    reference's own scorer reads them (the JSON-decoded cells, as repr text)."""

    def __init__(
        self,
        instances: Iterable[Instance] = (),
        info: DatasetInfo = LOADER_INFO,
        json_tests: dict[str, list[str]] | None = None,
    ) -> None:
        super().__init__(instances)
        self.info = info
        self.json_tests = dict(json_tests or {})

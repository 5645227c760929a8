"""Reading and writing the JSON report (``--pau-report``), atomically.

The schema is :class:`pytest_pau.models.Report`: ``run`` (what produced it),
``instances`` (one :class:`~pytest_pau.models.InstanceResult` each) and ``summary``
(:func:`pytest_pau.report.summary.build_summary`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from pytest_pau.errors import ConfigError
from pytest_pau.models import Report
from pytest_pau.paths import write_text_atomic
from pytest_pau.report.text_cap import capped

M = TypeVar("M", bound=BaseModel)


def write_report(path: str | os.PathLike[str], report: Report) -> Path:
    """Write ``report`` as JSON to ``path`` atomically.

    The text goes to a temporary file in the same folder, is flushed to disk, then
    renamed over ``path``, so a reader (or a run killed mid-write) never sees half a file.
    Each text field keeps at most :data:`~pytest_pau.report.text_cap.MAX_STORED_CHARS`
    characters, with a marker giving the full length (the model cache has the full text).

    Returns:
        The absolute path written.
    """
    return write_text_atomic(path, capped(report).model_dump_json(indent=1))


def read_report(path: str | os.PathLike[str]) -> Report:
    """Read a report written by :func:`write_report`.

    Raises:
        ConfigError: The file is missing or is not a pytest-pau report; the message
            names the file and the first problem.
    """
    return read_model(path, Report)


def read_model(path: str | os.PathLike[str], model: type[M]) -> M:
    """Read a JSON report into ``model`` (:class:`Report`, or a lighter view of it).

    Raises:
        ConfigError: The file is missing or does not validate as ``model``; the message
            names the file and the first problem.
    """
    p = Path(path).expanduser()
    try:
        text = p.read_bytes()
    except OSError as exc:
        raise ConfigError(
            f"cannot read report {str(p)!r}: {exc.strerror or exc}; "
            "write one with `pytest --pau-model=MODEL --pau-report=PATH`"
        ) from None
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "(top level)"
        raise ConfigError(
            f"{str(p)!r} is not a pytest-pau JSON report: at {where}: {first.get('msg')}; "
            "expected the file that --pau-report wrote"
        ) from None

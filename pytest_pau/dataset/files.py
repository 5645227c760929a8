"""Read PAU-format rows from ``.jsonl`` and ``.parquet`` files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pytest_pau.dataset.pau_format import rows_to_instances
from pytest_pau.errors import DatasetError
from pytest_pau.models import Instance

SUFFIXES: tuple[str, ...] = (".jsonl", ".parquet")


def source_name(text: str) -> str:
    """A marker-safe source name from a file stem or dataset name (``my-set`` -> ``my_set``)."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_").lower()
    if not name or name[0].isdigit():
        name = f"ds_{name}"
    return name


def iter_jsonl(path: Path, shown: str) -> Iterator[tuple[str, int, Mapping[str, Any] | Exception]]:
    """Yield ``(location, index, row)`` for each non-blank line of a JSONL file.

    A line that is not a JSON object is yielded as a :class:`ValueError` so the caller can
    report it with the others.
    """
    index = 0
    with path.open("r", encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            location = f"{shown} line {lineno}"
            try:
                row: Any = json.loads(line)
            except json.JSONDecodeError as exc:
                yield (
                    location,
                    index,
                    ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})"),
                )
            else:
                if not isinstance(row, dict):
                    row = ValueError(f"expected a JSON object, got {type(row).__name__}")
                yield location, index, row
            index += 1


def read_parquet_rows(path: Path, shown: str) -> list[dict[str, Any]]:
    """All rows of a parquet file as dicts (needs the ``parquet`` extra)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - depends on the environment
        raise DatasetError(
            f"{shown}: reading .parquet needs pyarrow; install it with "
            "`pip install 'pytest-pau[parquet]'`"
        ) from None
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several types for corrupt files
        raise DatasetError(f"{shown}: not a readable parquet file ({exc})") from None
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def iter_rows(
    rows: list[dict[str, Any]], shown: str
) -> Iterator[tuple[str, int, Mapping[str, Any]]]:
    """Locations for in-memory rows: ``<shown> row N`` (0-based, like a DataFrame index)."""
    for index, row in enumerate(rows):
        yield f"{shown} row {index}", index, row


def load_file(path: str | Path, *, source: str | None = None) -> list[Instance]:
    """Load a PAU-format ``.jsonl`` or ``.parquet`` file.

    Args:
        path: the file; its name appears in every error message as given.
        source: the source name; defaults to the file stem made marker-safe.

    Raises:
        DatasetError: the file is missing, of another type, or has bad rows.
    """
    shown = str(path)
    file = Path(path).expanduser()
    if file.suffix not in SUFFIXES:
        raise DatasetError(
            f"{shown}: expected a .jsonl or .parquet file in PAU's column format, "
            f"got suffix {file.suffix!r}"
        )
    if not file.is_file():
        raise DatasetError(f"{shown}: no such file; check the path given to --pau-dataset")
    source = source or source_name(file.stem)
    if file.suffix == ".jsonl":
        rows = iter_jsonl(file, shown)
    else:
        rows = iter_rows(read_parquet_rows(file, shown), shown)
    instances = rows_to_instances(rows, source=source, what=shown)
    if not instances:
        raise DatasetError(f"{shown}: no rows; a dataset needs at least one instance")
    return instances

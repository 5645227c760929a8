"""Fixtures for the dataset tests: PAU-format rows and files written on the fly."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CODE = """def validate_input_args(arg0: int, arg1: int) -> None:
    if not isinstance(arg0, int) or not isinstance(arg1, int):
        raise TypeError("both arguments must be int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 == 0:
        raise ZeroDivisionError("arg1 is zero")
    return arg0 // arg1
"""


def make_row(**changes: Any) -> dict[str, Any]:
    """A valid PAU row (a two-argument floor division); ``changes`` override or drop fields.

    A change to ``None`` removes the field, to test "required" errors.
    """
    row: dict[str, Any] = {
        "id": "floor_div",
        "test_func_validated": CODE,
        "description": "Floor-divides arg0 by arg1; raises ZeroDivisionError when arg1 is 0.",
        "header": "def test_func(arg0, arg1):",
        "train_examples": json.dumps([["(7, 2)", "3"], ["(9, 3)", "3"]]),
        "test_examples": json.dumps(
            [["(-7, 2)", "-4"], ["(1, 0)", "arg1 is zero", "ZeroDivisionError"]]
        ),
        "all_examples": json.dumps(
            [
                ["(7, 2)", "3"],
                ["(9, 3)", "3"],
                ["(-7, 2)", "-4"],
                ["(1, 0)", "arg1 is zero", "ZeroDivisionError"],
            ]
        ),
        "direct_prompt": "ignored extra column",
    }
    for key, value in changes.items():
        if value is None:
            row.pop(key, None)
        else:
            row[key] = value
    return row


@pytest.fixture
def row() -> Callable[..., dict[str, Any]]:
    """The :func:`make_row` factory."""
    return make_row


@pytest.fixture
def write_jsonl(tmp_path: Path) -> Callable[..., Path]:
    """Write rows (dicts, or raw strings for broken lines) to ``<tmp>/<name>``."""

    def write(rows: list[dict[str, Any] | str], name: str = "data.jsonl") -> Path:
        path = tmp_path / name
        lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    return write


@pytest.fixture
def write_parquet(tmp_path: Path) -> Callable[..., Path]:
    """Write rows to a parquet file (needs pyarrow, the ``parquet`` extra)."""
    # Imported here, not skipped when missing: pyarrow is in the dev extra, and a silent skip
    # would hide a broken install.
    import pyarrow as pa
    import pyarrow.parquet as pq

    def write(rows: list[dict[str, Any]], path: Path | None = None) -> Path:
        path = path or tmp_path / "data.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(rows), path)
        return path

    return write

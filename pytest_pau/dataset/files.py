"""Read PAU-format rows from ``.jsonl`` and ``.parquet`` files.

A ``.jsonl`` file is UTF-8 text (a leading UTF-8 byte-order mark is accepted), one JSON
object per line, with ``\\n`` or ``\\r\\n`` line ends; blank lines are skipped. A file that is
not UTF-8 is refused with the line and byte offset of the first bad byte.
"""

from __future__ import annotations

import json
import re
import stat
from collections.abc import Iterator, Mapping
from itertools import islice
from pathlib import Path
from typing import Any

from pytest_pau.dataset import json_numbers
from pytest_pau.dataset.literal_text import json_problem
from pytest_pau.dataset.load_info import LoadedDataset
from pytest_pau.dataset.output_format import OutputsMode, check_mode
from pytest_pau.dataset.pau_format import rows_to_instances
from pytest_pau.dataset.text_files import convert_hint, open_binary, utf8_lines
from pytest_pau.errors import DatasetError

SUFFIXES: tuple[str, ...] = (".jsonl", ".parquet")

SNIFF_BYTES = 64 * 1024
"""How much of a ``.jsonl`` file is looked at for signs of a binary file."""

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "it is gzip-compressed; decompress it first (gunzip)"),
    (b"PAR1", "it is a parquet file; name it .parquet"),
    (b"PK\x03\x04", "it is a zip archive; extract the .jsonl file from it"),
    (
        b"\xff\xfe",
        "it starts with a UTF-16 byte-order mark; convert it with `iconv -f utf-16 -t utf-8`",
    ),
    (
        b"\xfe\xff",
        "it starts with a UTF-16 byte-order mark; convert it with `iconv -f utf-16 -t utf-8`",
    ),
)


def source_name(text: str) -> str:
    """A marker-safe source name from a file stem or dataset name (``my-set`` -> ``my_set``)."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_").lower()
    if not name or name[0].isdigit():
        name = f"ds_{name}"
    return name


def iter_jsonl(path: Path, shown: str) -> Iterator[tuple[str, int, Mapping[str, Any] | Exception]]:
    """Yield ``(location, index, row)`` for each non-blank line of a JSONL file.

    A line that is not a JSON object is yielded as a :class:`ValueError` so the caller can
    report it with the others. The file is read as bytes so that a byte that is not UTF-8
    is reported with its offset and line instead of crashing the run.

    Raises:
        DatasetError: the file cannot be opened, is binary, or is not UTF-8 text.
    """
    handle = open_binary(path, shown)
    with handle:
        check_text(handle.read(SNIFF_BYTES), shown)
        handle.seek(0)
        hint = "a .jsonl dataset must be UTF-8; " + convert_hint(shown)
        index = 0
        for lineno, line in utf8_lines(handle, shown, hint):
            # Drop the line end first: json counts a trailing newline as a new line, so an
            # error at the end of the text would read "line 2 column 1".
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            yield f"{shown} line {lineno}", index, _row(line)
            index += 1


def _row(line: str) -> Mapping[str, Any] | Exception:
    try:
        row: Any = json_numbers.loads(line)
    except json.JSONDecodeError as exc:
        problem = json_problem(
            exc, at_end="the line ends there, and a row is one whole JSON object on one line"
        )
        return ValueError(f"not valid JSON ({problem})")
    except RecursionError:
        return ValueError("not valid JSON (nested too deeply to read)")
    if not isinstance(row, dict):
        return ValueError(f"expected a JSON object, got {type(row).__name__}")
    return row


def check_text(head: bytes, shown: str) -> None:
    """Refuse a file whose first bytes show it is not UTF-8 JSON lines, saying what it is.

    Raises:
        DatasetError: a compressed, parquet, UTF-16 or other binary file.
    """
    for magic, what in _MAGIC:
        if head.startswith(magic):
            raise DatasetError(f"{shown}: not UTF-8 text: {what}")
    if b"\x00" in head:
        pos = head.index(b"\x00")
        line = head.count(b"\n", 0, pos) + 1
        raise DatasetError(
            f"{shown}: not a text file: byte 0x00 at byte offset {pos} (line {line}); a .jsonl "
            "dataset is UTF-8 text with one JSON object per line"
        )


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
    return table_rows(table, shown)


def table_rows(table: Any, shown: str) -> list[dict[str, Any]]:
    """``table.to_list()`` / ``to_pylist()`` of an Arrow table or ``datasets`` split.

    Arrow decodes string columns only here, so text that is not UTF-8 (a Latin-1 file read
    by ``datasets``) surfaces here, as a ``UnicodeDecodeError`` naming neither file nor row.

    Raises:
        DatasetError: a text column holds bytes that are not UTF-8.
    """
    convert = getattr(table, "to_list", None) or table.to_pylist
    try:
        rows: list[dict[str, Any]] = convert()
    except UnicodeDecodeError as exc:
        bad = exc.object[exc.start : exc.start + 1].hex()
        raise DatasetError(
            f"{shown}{_undecodable_cell(table)}: not UTF-8 text: byte 0x{bad} at byte "
            f"{exc.start} of the value ({exc.reason}); write the data as UTF-8 (for a Latin-1 "
            "source file: `iconv -f latin1 -t utf-8 FILE`)"
        ) from None
    return rows


def _undecodable_cell(table: Any) -> str:
    """`` row N, field 'x'`` of the first value that does not decode, or '' if not found.

    Only on the error path: each column is converted alone, then the bad one cell by cell.
    """
    arrow = getattr(getattr(table, "data", None), "table", table)  # datasets -> pyarrow
    try:
        for name in arrow.column_names:
            column = arrow.column(name)
            try:
                column.to_pylist()
                continue
            except UnicodeDecodeError:
                pass
            for index in range(len(column)):
                try:
                    column[index].as_py()
                except UnicodeDecodeError:
                    return f" row {index}, field {name!r}"
    except Exception:  # a table of another kind: the message goes without the place
        return ""
    return ""


def iter_rows(
    rows: list[dict[str, Any]], shown: str
) -> Iterator[tuple[str, int, Mapping[str, Any]]]:
    """Locations for in-memory rows: ``<shown> row N`` (0-based, like a DataFrame index)."""
    for index, row in enumerate(rows):
        yield f"{shown} row {index}", index, row


def check_file(file: Path, shown: str) -> int:
    """Check that ``file`` is a regular file; return its size in bytes.

    Raises:
        DatasetError: it is missing, a directory, not a regular file, or cannot be read.
    """
    try:
        info = file.stat()
    except (FileNotFoundError, NotADirectoryError):
        where = "" if file.is_absolute() else f" (looked for {file.resolve()})"
        raise DatasetError(
            f"{shown}: no such file{where}; check the path given to --pau-dataset"
        ) from None
    except OSError as exc:
        raise DatasetError(f"{shown}: cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        inside = sorted(p.name for p in islice(file.iterdir(), 200) if p.suffix in SUFFIXES)
        more = f" +{len(inside) - 3} more" if len(inside) > 3 else ""
        hint = f" (it holds {', '.join(inside[:3])}{more})" if inside else ""
        raise DatasetError(
            f"{shown}: is a directory; pass a .jsonl or .parquet file in PAU's column "
            f"format{hint}, or hf:{shown} to read the folder with the datasets library"
        )
    if not stat.S_ISREG(info.st_mode):
        raise DatasetError(f"{shown}: not a regular file; pass a .jsonl or .parquet file")
    return info.st_size


def load_file(
    path: str | Path, *, source: str | None = None, outputs: OutputsMode = "auto"
) -> LoadedDataset:
    """Load a PAU-format ``.jsonl`` or ``.parquet`` file.

    Args:
        path: the file; its name appears in every error message as given.
        source: the source name; defaults to the file stem made marker-safe.
        outputs: how the file writes example outputs: ``repr``, ``json``, or ``auto`` to
            detect it (:mod:`pytest_pau.dataset.output_format`).

    Returns:
        The instances; ``.info.outputs`` says how their outputs were read.

    Raises:
        DatasetError: the file is missing, of another type, not UTF-8, has bad rows, or
            writes its outputs too inconsistently to detect.
    """
    check_mode(outputs)
    shown = str(path)
    file = Path(path).expanduser()
    if file.is_dir():
        check_file(file, shown)  # says it is a folder and which dataset files it holds
    if file.suffix not in SUFFIXES:
        raise DatasetError(
            f"{shown}: expected a .jsonl or .parquet file in PAU's column format, "
            f"got suffix {file.suffix!r}"
        )
    size = check_file(file, shown)
    source = source or source_name(file.stem)
    if file.suffix == ".jsonl":
        rows = iter_jsonl(file, shown)
        empty = "the file is empty" if size == 0 else "the file has only blank lines"
    else:
        rows = iter_rows(read_parquet_rows(file, shown), shown)
        empty = "the table has no rows"
    instances = rows_to_instances(rows, source=source, what=shown, outputs=outputs)
    if not instances:
        raise DatasetError(f"{shown}: no rows ({empty}); a dataset needs at least one instance")
    return instances

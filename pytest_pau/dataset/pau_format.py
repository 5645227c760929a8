"""PAU's column format: turn rows into validated :class:`~pytest_pau.models.Instance` objects.

A row has the columns of the published PAU set:

- ``test_func_validated`` (required): the method's source, ``def test_func(...)`` plus its
  ``validate_input_args`` guard and helpers.
- ``description`` (required): the gold description.
- ``header`` (required): what the model sees, ``def test_func(arg0, arg1):``.
- ``train_examples``, ``test_examples`` (required), ``all_examples`` (optional): each a JSON
  string (or, from parquet/hf, already a list) of pairs ``[input_text, output]``.
  ``input_text`` is a Python tuple literal with one item per argument, ``"([1, 2], 3)"``, or
  ``"('abc',)"`` for one argument.
- ``id`` (optional): the local id; without it the row index (``0007``) is used.
- ``tags`` (optional, our addition): a list (or JSON list) of marker-safe names.
- ``wrong_descriptions`` (optional, our addition): a list (or JSON list) of known-wrong
  descriptions written for the instance, near misses of the gold (one detail changed), which
  ``pau judge-check`` rates as its ``known wrong`` class: at most
  :data:`MAX_WRONG_DESCRIPTIONS`, each a non-empty string that is neither the gold
  description nor another of them (whitespace, case and Unicode form aside:
  :func:`~pytest_pau.models.instance.text_key`).

**Outputs.** A file writes every ``output`` one way, and it is read that way as a whole
(:mod:`pytest_pau.dataset.output_format`): ``repr``, PAU's own convention, the ``repr`` text of
the value (``"'racecar'"``, ``"[1, 2]"``, ``"3"``; what our build script writes), or
``json``, the plain JSON value (``"racecar"``, ``[1, 2]``, ``3``, ``true``), stored as its
Python ``repr``. ``outputs="auto"`` detects which from all the rows of the file; a split
too close to call is an error that asks for ``outputs="repr"`` or ``"json"``. JSON has no
tuple, set, bytes or non-str dict key: a method that returns one needs a repr file. The
PAU reference's own files mix both by position (``reference``, read as
:mod:`pytest_pau.dataset.reference_layout` says; ``auto`` knows them by their signature).

**Exceptions (our encoding).** A pair with a third element, ``[input_text, message,
"ValueError"]``, records that the call raised that exception type with that message; it
becomes ``Example(input=..., output=message, raises="ValueError")``. The message is plain
text in both conventions; a third element ``null`` marks an ordinary output.

Every problem is reported as ``<file> line N: field 'x': problem`` (``row N`` for parquet),
and loading stops before any model is called.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pytest_pau.dataset import json_numbers
from pytest_pau.dataset.literal_text import json_problem, shown
from pytest_pau.dataset.load_info import DatasetInfo, LoadedDataset
from pytest_pau.dataset.output_format import (
    Convention,
    OutputsMode,
    check_mode,
    collect_evidence,
    read_output,
)
from pytest_pau.dataset.reference_layout import (
    SIGNATURE,
    argument_tuple,
    has_reference_signature,
    json_reading,
    read_cell,
)
from pytest_pau.dataset.signature import RowError as RowError
from pytest_pau.dataset.signature import code_arity, header_arity, parse_input
from pytest_pau.dataset.signature import count_params as count_params
from pytest_pau.errors import DatasetError
from pytest_pau.models import Example, Instance
from pytest_pau.models.instance import text_key

REQUIRED_COLUMNS: tuple[str, ...] = (
    "test_func_validated",
    "description",
    "header",
    "train_examples",
    "test_examples",
)
"""Columns every row must have."""

EXAMPLE_COLUMNS: tuple[str, ...] = ("train_examples", "test_examples", "all_examples")

MAX_ERRORS = 10
"""How many problems one :class:`DatasetError` lists before it stops collecting."""

MAX_WRONG_DESCRIPTIONS = 20
"""The most known-wrong descriptions one instance may have: ``pau judge-check`` makes a judge
call for each on every checked instance, so a cell of 100,000 was 100,000 calls."""

_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_EXC_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_BAD_ID_CHARS = re.compile(r"[\s\[\]]")


def decode_column(value: Any, field: str) -> Any:
    """An example column as a list: JSON text decoded, numpy arrays (parquet) as lists.

    Raises:
        RowError: the text is not valid JSON.
    """
    if isinstance(value, str):
        try:
            value = json_numbers.loads(value)
        except json.JSONDecodeError as exc:
            raise RowError(
                field, f"not valid JSON ({json_problem(exc, 'character', 'the text ends there')})"
            ) from None
        except RecursionError:
            raise RowError(field, "not valid JSON (nested too deeply to read)") from None
    if hasattr(value, "tolist"):
        value = value.tolist()
    return value


def parse_examples(
    value: Any,
    field: str,
    arity: int,
    cache: dict[str, int],
    *,
    build: bool = True,
    outputs: Convention = "repr",
) -> list[Example]:
    """Turn one example column (JSON text or a list of pairs) into :class:`Example` objects.

    With ``build=False`` the column is only checked (``all_examples``, which an
    :class:`Instance` does not keep) and an empty list is returned. ``outputs`` is the
    file's convention (see :mod:`pytest_pau.dataset.output_format`).

    Raises:
        RowError: naming the field and the item.
    """
    value = decode_column(value, field)
    if not isinstance(value, (list, tuple)):
        raise RowError(
            field, f"expected a list of [input, output] pairs, got {type(value).__name__}"
        )
    examples: list[Example] = []
    for i, pair in enumerate(value):
        if hasattr(pair, "tolist"):
            pair = pair.tolist()
        if not isinstance(pair, (list, tuple)) or len(pair) not in (2, 3):
            raise RowError(
                field,
                f"item {i}: expected [input, output] or [input, message, 'ExcType'], "
                f"got {shown(pair)}",
            )
        raw_input = pair[0]
        if outputs == "reference" and isinstance(raw_input, str):
            raw_input = argument_tuple(raw_input)  # "(7)" is f(7) there: a lone value
        try:
            text = parse_input(raw_input, arity, cache)
        except ValueError as exc:
            raise RowError(field, f"item {i}: {exc}") from None
        output = pair[1]
        raises = None
        if len(pair) == 3:
            raises = pair[2]
            if raises is not None and not (isinstance(raises, str) and _EXC_RE.match(raises)):
                raise RowError(
                    field, f"item {i}: exception type must be a name, got {shown(raises)}"
                )
        if not build:
            continue
        if raises is not None:
            # The message of an exception is plain text in both conventions.
            output = output if isinstance(output, str) else repr(output)
        else:
            try:
                if outputs == "reference":
                    output = read_cell(field, i, output, str(pair[0]))[0]
                else:
                    output = read_output(output, outputs)
            except ValueError as exc:
                raise RowError(field, f"item {i}: {exc}") from None
        examples.append(Example(input=text, output=output, raises=raises))
    return examples


def parse_tags(value: Any) -> list[str]:
    """Read the optional ``tags`` column: a list, or a JSON list, of marker-safe names."""
    if value is None:
        return []
    if isinstance(value, str):
        try:
            value = json_numbers.loads(value) if value.strip().startswith("[") else value.split(",")
        except json.JSONDecodeError as exc:
            raise RowError("tags", f"not valid JSON ({exc.msg})") from None
        except RecursionError:
            raise RowError("tags", "not valid JSON (nested too deeply to read)") from None
    if hasattr(value, "tolist"):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise RowError("tags", f"expected a list of names, got {value!r}")
    tags = [t.strip() if isinstance(t, str) else t for t in value]
    for tag in tags:
        if not isinstance(tag, str) or not _NAME_RE.match(tag):
            raise RowError(
                "tags", f"tag {tag!r} is not a valid pytest marker name (letters, digits, '_')"
            )
    return tags


def parse_wrong_descriptions(value: Any, description: str, local_id: str) -> tuple[str, ...]:
    """Read the optional ``wrong_descriptions`` column: a list, or a JSON list, of at most
    :data:`MAX_WRONG_DESCRIPTIONS` non-empty strings, none the gold ``description`` nor a
    repeat of another (whitespace, case and Unicode form aside: :func:`text_key`).

    Raises:
        RowError: naming the field, the instance and the item.
    """
    field = "wrong_descriptions"
    if value is None:
        return ()
    where = f"instance {local_id!r}"
    if isinstance(value, str):
        try:
            value = json_numbers.loads(value)
        except json.JSONDecodeError as exc:
            raise RowError(
                field,
                f"{where}: expected a JSON list of strings, got text that is not valid JSON "
                f'({exc.msg}); write it as ["..."]',
            ) from None
        except RecursionError:
            raise RowError(field, f"{where}: not valid JSON (nested too deeply to read)") from None
    if hasattr(value, "tolist"):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise RowError(
            field, f"{where}: expected a list of strings, got {type(value).__name__} {shown(value)}"
        )
    if len(value) > MAX_WRONG_DESCRIPTIONS:
        raise RowError(
            field,
            f"{where}: {len(value)} known-wrong descriptions, at most "
            f"{MAX_WRONG_DESCRIPTIONS} (pau judge-check rates each one with a judge call); "
            "keep the nearest misses",
        )
    gold = text_key(description)
    texts: list[str] = []
    seen: dict[str, int] = {}
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise RowError(
                field,
                f"{where}: item {i}: expected a string, got {type(text).__name__} {shown(text)}",
            )
        if not text.strip():
            raise RowError(
                field, f"{where}: item {i}: is empty; write a wrong description or drop it"
            )
        key = text_key(text)
        if key == gold:
            raise RowError(
                field,
                f"{where}: item {i}: is the gold description (whitespace, case and Unicode "
                "form aside); a known-wrong description must differ from it in what it says",
            )
        if key in seen:
            raise RowError(
                field,
                f"{where}: item {i}: repeats item {seen[key]} (whitespace, case and Unicode "
                "form aside); drop it",
            )
        seen[key] = i
        texts.append(text.strip())
    return tuple(texts)


def _text(row: Mapping[str, Any], field: str) -> str:
    value = row.get(field)
    if value is None:
        raise RowError(field, "required")
    if not isinstance(value, str):
        raise RowError(field, f"expected a string, got {type(value).__name__}")
    if not value.strip():
        raise RowError(field, "must not be empty")
    return value


def row_to_instance(
    row: Mapping[str, Any],
    *,
    source: str,
    default_id: str,
    cache: dict[str, int] | None = None,
    outputs: Convention = "repr",
) -> Instance:
    """Validate one PAU row and build its :class:`Instance`, reading outputs as ``outputs``.

    Raises:
        RowError: for the first problem found, naming the field.
    """
    if not isinstance(row, Mapping):
        raise RowError("<row>", f"expected a JSON object, got {type(row).__name__}")
    cache = {} if cache is None else cache
    code = _text(row, "test_func_validated")
    description = _text(row, "description")
    header = _text(row, "header").strip()
    arity = header_arity(header)
    defined = code_arity(code)
    if defined != arity:
        raise RowError(
            "header",
            f"declares {arity} argument(s) but test_func in 'test_func_validated' takes {defined}",
        )
    local_id = row.get("id")
    if local_id is None or local_id == "":
        local_id = default_id
    elif isinstance(local_id, bool) or not isinstance(local_id, (str, int)):
        raise RowError("id", f"expected a string or an integer, got {local_id!r}")
    local_id = str(local_id)
    if _BAD_ID_CHARS.search(local_id):
        raise RowError("id", f"{local_id!r} has whitespace or brackets; use letters, digits, _-.")
    examples: dict[str, list[Example]] = {}
    for field in EXAMPLE_COLUMNS:
        if row.get(field) is None:
            if field != "all_examples":
                raise RowError(field, "required")
            continue
        examples[field] = parse_examples(
            row[field], field, arity, cache, build=field != "all_examples", outputs=outputs
        )
    if not examples["test_examples"]:
        raise RowError(
            "test_examples",
            "is empty; code match needs held-back examples (give at least one "
            "[input, output] pair)",
        )
    return Instance(
        id=f"{source}/{local_id}",
        source=source,
        code=code,
        header=header,
        description=description.strip(),
        train_examples=examples["train_examples"],
        test_examples=examples["test_examples"],
        arity=arity,
        tags=parse_tags(row.get("tags")),
        wrong_descriptions=parse_wrong_descriptions(
            row.get("wrong_descriptions"), description, local_id
        ),
    )


def rows_to_instances(
    rows: Iterable[tuple[str, int, Mapping[str, Any] | Exception]],
    *,
    source: str,
    what: str,
    id_prefix: str = "",
    outputs: OutputsMode = "auto",
) -> LoadedDataset:
    """Validate many rows; raise one :class:`DatasetError` listing up to :data:`MAX_ERRORS`.

    Args:
        rows: ``(location, index, row)`` triples; ``location`` reads ``data.jsonl line 7``;
            ``row`` may be an exception (a line that was not JSON), reported as such.
        source: the source name, the first part of every id.
        what: the dataset as the user named it, for the summary line of the error.
        id_prefix: put before the row index when a row has no ``id`` (``test_``).
        outputs: ``repr``, ``json`` or ``reference`` (see :mod:`pytest_pau.dataset.output_format`
            and :mod:`pytest_pau.dataset.reference_layout`), or ``auto`` to detect it from
            all the rows (the reference's layout by its signature, else repr or json);
            ``recompute`` reads as ``auto`` (the caller recomputes).

    Returns:
        The instances, with ``info`` saying how their outputs were read.

    Raises:
        DatasetError: ``<file> line N: field 'x': problem`` for each bad row, or for
            duplicate ids; or the outputs are written too inconsistently to detect.
    """
    mode = check_mode(outputs)
    if mode == "recompute":
        mode = "auto"  # the stored outputs are read as auto does; dataset/recompute.py follows
    # A load allocates many small objects that all survive; the cyclic collector would rescan
    # them again and again (measured: it doubles the load time of a 5,000-row file).
    paused = gc.isenabled()
    gc.disable()
    try:
        convention: Convention
        if mode == "auto":
            rows = list(_decoded(rows))
            if has_reference_signature(rows):
                convention = "reference"
                info = DatasetInfo(convention, "detected", SIGNATURE)
            else:
                evidence = collect_evidence(rows, ("train_examples", "test_examples"))
                convention = evidence.decide(what)
                info = DatasetInfo(convention, "detected", evidence.counts())
        else:
            convention = mode
            info = DatasetInfo(mode, "given")
        json_tests: dict[str, list[str]] | None = {} if convention == "reference" else None
        instances = _rows_to_instances(
            rows,
            source=source,
            what=what,
            id_prefix=id_prefix,
            outputs=convention,
            json_tests=json_tests,
        )
        return LoadedDataset(instances, info, json_tests)
    finally:
        if paused:
            gc.enable()


def _decoded(
    rows: Iterable[tuple[str, int, Mapping[str, Any] | Exception]],
) -> Iterator[tuple[str, int, Mapping[str, Any] | Exception]]:
    """The rows with their example columns decoded once, for detection and then the build.

    A column that does not decode is left as it is; the build reports it.
    """
    for location, index, row in rows:
        if isinstance(row, Mapping):
            decoded: dict[str, Any] | None = None
            for field in EXAMPLE_COLUMNS:
                value = row.get(field)
                if isinstance(value, str) or hasattr(value, "tolist"):
                    try:
                        new = decode_column(value, field)
                    except RowError:
                        continue
                    decoded = decoded if decoded is not None else dict(row)
                    decoded[field] = new
            if decoded is not None:
                row = decoded
        yield location, index, row


def _rows_to_instances(
    rows: Iterable[tuple[str, int, Mapping[str, Any] | Exception]],
    *,
    source: str,
    what: str,
    id_prefix: str,
    outputs: Convention,
    json_tests: dict[str, list[str]] | None = None,
) -> list[Instance]:
    """Build and check every row; with ``json_tests``, also keep each instance's test
    cells as the reference's scorer reads them (:func:`reference_layout.json_reading`)."""
    instances: list[Instance] = []
    errors: list[str] = []
    seen: dict[str, str] = {}
    cache: dict[str, int] = {}
    for location, index, row in rows:
        if len(errors) >= MAX_ERRORS:
            errors.append("... (stopped after the first problems; fix these and load again)")
            break
        if isinstance(row, Exception):
            errors.append(f"{location}: {row}")
            continue
        try:
            instance = row_to_instance(
                row,
                source=source,
                default_id=f"{id_prefix}{index:04d}",
                cache=cache,
                outputs=outputs,
            )
        except RowError as exc:
            errors.append(f"{location}: {exc}")
            continue
        if instance.id in seen:
            errors.append(
                f"{location}: field 'id': duplicate id {instance.local_id!r} "
                f"(first seen at {seen[instance.id]}); ids must be unique"
            )
            continue
        seen[instance.id] = location
        instances.append(instance)
        if json_tests is not None:
            cells = decode_column(row["test_examples"], "test_examples")
            json_tests[instance.id] = [json_reading(pair[1]) for pair in cells]
    if errors:
        plural = "s" if len(errors) > 1 else ""
        raise DatasetError(
            "\n".join(errors)
            if len(errors) == 1
            else f"{what}: {len(errors)} problem{plural}:\n  " + "\n  ".join(errors)
        )
    return instances

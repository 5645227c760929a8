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

**Outputs.** ``output`` is the ``repr`` text of the return value when it is a string (what our
build script writes); any other JSON value (a number, ``true``, ``null``, a list) is taken as
that value and stored as its Python ``repr``.

**Exceptions (our encoding).** A pair with a third element, ``[input_text, message,
"ValueError"]``, records that the call raised that exception type with that message; it
becomes ``Example(input=..., output=message, raises="ValueError")``.

Every problem is reported as ``<file> line N: field 'x': problem`` (``row N`` for parquet),
and loading stops before any model is called.
"""

from __future__ import annotations

import ast
import gc
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_pau.errors import DatasetError
from pytest_pau.models import Example, Instance

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

_HEADER_RE = re.compile(r"^\s*def\s+test_func\s*\((?P<params>.*)\)\s*(?:->.*)?:?\s*$", re.DOTALL)
_CODE_DEF_RE = re.compile(r"^[ \t]*def\s+test_func\s*\(", re.MULTILINE)
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_EXC_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_BAD_ID_CHARS = re.compile(r"[\s\[\]]")


class RowError(Exception):
    """One problem in one field of one row; :func:`rows_to_instances` adds the location."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"field {field!r}: {problem}")
        self.field = field
        self.problem = problem


def count_params(params: str) -> int:
    """Count the parameters in the text between a ``def``'s parentheses.

    Commas inside brackets or strings (default values) do not split; ``/`` and a bare ``*``
    are markers, not parameters.

    Raises:
        ValueError: for ``*args``/``**kwargs``, whose arity is not fixed.
    """
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, ch in enumerate(params):
        if quote:
            if ch == quote and params[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(params[start:i])
            start = i + 1
    parts.append(params[start:])
    names = [p.strip() for p in parts if p.strip() and p.strip() not in ("/", "*")]
    for name in names:
        if name.startswith("*"):
            raise ValueError(f"variadic parameter {name!r} has no fixed arity")
    return len(names)


def header_arity(header: str) -> int:
    """The number of arguments a ``def test_func(...):`` header declares.

    Raises:
        RowError: when the text is not such a header.
    """
    match = _HEADER_RE.match(header)
    if match is None:
        raise RowError("header", f"expected 'def test_func(arg0, ...):', got {header!r}")
    try:
        return count_params(match.group("params"))
    except ValueError as exc:
        raise RowError("header", f"{exc} in {header!r}; PAU methods take fixed arguments") from None


def code_arity(code: str) -> int:
    """The number of parameters of ``test_func`` in ``code`` (read without parsing it all).

    Raises:
        RowError: when ``code`` has no ``def test_func(``.
    """
    match = _CODE_DEF_RE.search(code)
    if match is None:
        raise RowError("test_func_validated", "no 'def test_func(' found in the source")
    depth = 1
    pos = match.end()
    while pos < len(code) and depth:
        if code[pos] == "(":
            depth += 1
        elif code[pos] == ")":
            depth -= 1
        pos += 1
    try:
        return count_params(code[match.end() : pos - 1])
    except ValueError as exc:
        raise RowError("test_func_validated", str(exc)) from None


_CONTAINERS = (ast.Tuple, ast.List, ast.Set)
_SIGNS = (ast.USub, ast.UAdd)
_NUMBERS = (int, float, complex)


def _plain_literal(node: ast.AST) -> bool:
    """Whether ``node`` is built only of constants, containers and signed numbers.

    A fast, allocation-free subset of :func:`ast.literal_eval` (which also builds the value):
    True means literal; False means "ask literal_eval", which accepts a few more forms.
    """
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is ast.Constant:
            continue
        if kind in _CONTAINERS:
            stack.extend(item.elts)  # type: ignore[attr-defined]
        elif kind is ast.Dict:
            if None in item.keys:  # type: ignore[attr-defined]
                return False
            stack.extend(item.keys)  # type: ignore[attr-defined]
            stack.extend(item.values)  # type: ignore[attr-defined]
        elif (
            kind is ast.UnaryOp
            and type(item.op) in _SIGNS  # type: ignore[attr-defined]
            and type(item.operand) is ast.Constant  # type: ignore[attr-defined]
            and type(item.operand.value) in _NUMBERS  # type: ignore[attr-defined]
        ):
            continue
        else:
            return False
    return True


def parse_input(text: Any, arity: int, cache: dict[str, int]) -> str:
    """Check that ``text`` is a tuple literal with ``arity`` items; return it unchanged.

    ``cache`` maps input texts already checked to their length (``all_examples`` repeats the
    train and test inputs, and a parse is the costly part of loading).

    Raises:
        ValueError: with a message that says what was wrong and how to write it.
    """
    if not isinstance(text, str):
        raise ValueError(f"input must be a str holding a tuple literal, got {text!r}")
    length = cache.get(text)
    if length is None:
        try:
            node = ast.parse(text, mode="eval").body
            if not _plain_literal(node):
                ast.literal_eval(node)  # the rare forms (set(), 1+2j) and the error message
        except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError) as exc:
            raise ValueError(f"input {text!r} is not a Python literal ({exc})") from None
        if not isinstance(node, ast.Tuple):
            raise ValueError(
                f"input {text!r} is not a tuple literal; write one argument as '({text.strip()},)'"
            )
        length = len(node.elts)
        cache[text] = length
    if length != arity:
        raise ValueError(f"input {text!r} has {length} argument(s) but the header declares {arity}")
    return text


def parse_examples(
    value: Any, field: str, arity: int, cache: dict[str, int], *, build: bool = True
) -> list[Example]:
    """Turn one example column (JSON text or a list of pairs) into :class:`Example` objects.

    With ``build=False`` the column is only checked (``all_examples``, which an
    :class:`Instance` does not keep) and an empty list is returned.

    Raises:
        RowError: naming the field and the item.
    """
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise RowError(field, f"not valid JSON ({exc.msg} at char {exc.pos})") from None
    if hasattr(value, "tolist"):  # numpy arrays from parquet/pandas
        value = value.tolist()
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
                f"item {i}: expected [input, output] or [input, message, 'ExcType'], got {pair!r}",
            )
        try:
            text = parse_input(pair[0], arity, cache)
        except ValueError as exc:
            raise RowError(field, f"item {i}: {exc}") from None
        output = pair[1]
        raises = None
        if len(pair) == 3:
            raises = pair[2]
            if raises is not None and not (isinstance(raises, str) and _EXC_RE.match(raises)):
                raise RowError(field, f"item {i}: exception type must be a name, got {raises!r}")
        if not build:
            continue
        if not isinstance(output, str):
            output = repr(output)
        examples.append(Example(input=text, output=output, raises=raises))
    return examples


def parse_tags(value: Any) -> list[str]:
    """Read the optional ``tags`` column: a list, or a JSON list, of marker-safe names."""
    if value is None:
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip().startswith("[") else value.split(",")
        except json.JSONDecodeError as exc:
            raise RowError("tags", f"not valid JSON ({exc.msg})") from None
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
    row: Mapping[str, Any], *, source: str, default_id: str, cache: dict[str, int] | None = None
) -> Instance:
    """Validate one PAU row and build its :class:`Instance`.

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
            row[field], field, arity, cache, build=field != "all_examples"
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
    )


def rows_to_instances(
    rows: Iterable[tuple[str, int, Mapping[str, Any] | Exception]],
    *,
    source: str,
    what: str,
    id_prefix: str = "",
) -> list[Instance]:
    """Validate many rows; raise one :class:`DatasetError` listing up to :data:`MAX_ERRORS`.

    Args:
        rows: ``(location, index, row)`` triples; ``location`` reads ``data.jsonl line 7``;
            ``row`` may be an exception (a line that was not JSON), reported as such.
        source: the source name, the first part of every id.
        what: the dataset as the user named it, for the summary line of the error.
        id_prefix: put before the row index when a row has no ``id`` (``test_``).

    Raises:
        DatasetError: ``<file> line N: field 'x': problem`` for each bad row, or for
            duplicate ids.
    """
    # A load allocates many small objects that all survive; the cyclic collector would rescan
    # them again and again (measured: it doubles the load time of a 5,000-row file).
    paused = gc.isenabled()
    gc.disable()
    try:
        return _rows_to_instances(rows, source=source, what=what, id_prefix=id_prefix)
    finally:
        if paused:
            gc.enable()


def _rows_to_instances(
    rows: Iterable[tuple[str, int, Mapping[str, Any] | Exception]],
    *,
    source: str,
    what: str,
    id_prefix: str,
) -> list[Instance]:
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
                row, source=source, default_id=f"{id_prefix}{index:04d}", cache=cache
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
    if errors:
        plural = "s" if len(errors) > 1 else ""
        raise DatasetError(
            "\n".join(errors)
            if len(errors) == 1
            else f"{what}: {len(errors)} problem{plural}:\n  " + "\n  ".join(errors)
        )
    return instances

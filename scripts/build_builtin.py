"""Build (or check) the builtin dataset from the method sources.

Reads every ``scripts/builtin_methods/part_*.py`` (each defines ``METHODS``, a list of dicts
with ``id``, ``tags``, ``description``, ``code``, ``train_inputs``, ``test_inputs``), checks
each method, runs it on every input to compute the outputs (in the sandbox when it is
available, else in a subprocess: outputs are never typed by hand), and writes
``pytest_pau/dataset/data/builtin.jsonl`` in PAU's column format plus ``tags``, and
``wrong_descriptions`` (known-wrong near misses, ``pau judge-check``'s fourth class) for the
methods listed in ``scripts/builtin_methods/near_misses.py``.

An input on which the method raises is stored as ``[input, message, "ExceptionType"]``.

Usage::

    python scripts/build_builtin.py            # write the shipped file
    python scripts/build_builtin.py --check    # rebuild in memory; exit 1 if the file differs
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "scripts" / "builtin_methods"
TARGET = ROOT / "pytest_pau" / "dataset" / "data" / "builtin.jsonl"
sys.path.insert(0, str(ROOT))

from pytest_pau.dataset.execute import to_pair  # noqa: E402
from pytest_pau.dataset.pau_format import count_params  # noqa: E402
from pytest_pau.sandbox.batch import BACKENDS, run_inputs  # noqa: E402

DIFFICULTIES = ("easy", "medium", "hard")
KEYS = ("id", "tags", "description", "code", "train_inputs", "test_inputs")
_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_TAG_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Results that say the runner, not the method, failed: never acceptable as expected outputs.
_RUNNER_ERRORS = (
    "Timeout",
    "MemoryError",
    "SandboxError",
    "SandboxLimitation",
    "InputError",
    "RecursionError",
)


def load_sources(folder: Path = SOURCES) -> list[tuple[str, dict[str, Any]]]:
    """``(part file name, method dict)`` for every method, in file then list order."""
    methods: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(folder.glob("part_*.py")):
        spec = importlib.util.spec_from_file_location(f"_builtin_{path.stem}", path)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        methods.extend((path.name, m) for m in getattr(module, "METHODS", []))
    return methods


def load_near_misses(folder: Path = SOURCES) -> dict[str, list[str]]:
    """``id -> known-wrong descriptions`` from ``near_misses.py`` (empty without the file)."""
    path = folder / "near_misses.py"
    if not path.is_file():
        return {}
    spec = importlib.util.spec_from_file_location("_builtin_near_misses", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.WRONG_DESCRIPTIONS)


def check_method(method: dict[str, Any]) -> tuple[int, list[str]]:
    """Static checks of one method; return ``(arity, problems)``."""
    problems: list[str] = []
    missing = [k for k in KEYS if k not in method]
    if missing:
        return 0, [f"missing keys {missing}"]
    if not _ID_RE.match(str(method["id"])):
        problems.append(f"id {method['id']!r} is not snake_case")
    tags = method["tags"]
    if not isinstance(tags, list) or not all(
        isinstance(t, str) and _TAG_RE.match(t.replace("-", "_")) for t in tags
    ):
        problems.append(f"tags {tags!r} must be a list of marker-safe names")
    elif sum(t in DIFFICULTIES for t in tags) != 1:
        problems.append(f"tags {tags!r} need exactly one of {DIFFICULTIES}")
    description = method["description"]
    if not isinstance(description, str) or not description.strip():
        problems.append("description is empty")
    try:
        tree = ast.parse(method["code"])
    except SyntaxError as exc:
        return 0, [*problems, f"code does not parse: {exc}"]
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    if "test_func" not in funcs:
        return 0, [*problems, "code defines no top-level test_func"]
    if "validate_input_args" not in funcs:
        problems.append("code defines no validate_input_args guard")
    func = funcs["test_func"]
    arity = len(func.args.args)
    if func.args.vararg or func.args.kwarg or func.args.kwonlyargs or func.args.posonlyargs:
        problems.append("test_func must take plain positional arguments")
    names = [a.arg for a in func.args.args]
    if names != [f"arg{i}" for i in range(arity)]:
        problems.append(f"test_func's arguments must be arg0..arg{arity - 1}, got {names}")
    first = func.body[0] if func.body else None
    if not (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Call)
        and isinstance(first.value.func, ast.Name)
        and first.value.func.id == "validate_input_args"
    ):
        problems.append("test_func must call validate_input_args(...) first")
    for key, least in (("train_inputs", 3), ("test_inputs", 12)):
        inputs = method[key]
        if len(inputs) < least:
            problems.append(f"{key}: {len(inputs)} inputs, need at least {least}")
        for text in inputs:
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError, TypeError) as exc:
                problems.append(f"{key}: {text!r} is not a literal ({exc})")
                continue
            if not isinstance(value, tuple) or len(value) != arity:
                problems.append(f"{key}: {text!r} is not a tuple of {arity} argument(s)")
    everything = list(method["train_inputs"]) + list(method["test_inputs"])
    repeated = [t for t, n in Counter(everything).items() if n > 1]
    if repeated:
        problems.append(f"inputs repeated: {repeated}")
    return arity, problems


def header_of(code: str) -> str:
    """``def test_func(arg0, arg1):`` for the method in ``code``."""
    start = code.index("def test_func(") + len("def test_func(")
    end = code.index(")", start)
    arity = count_params(code[start:end])
    return f"def test_func({', '.join(f'arg{i}' for i in range(arity))}):"


def build_rows(backend: str = "auto") -> tuple[list[dict[str, Any]], list[str], str]:
    """Check every method and compute its outputs; return ``(rows, problems, backend used)``."""
    sources = load_sources()
    near_misses = load_near_misses()
    problems: list[str] = []
    seen: dict[str, str] = {}
    methods: list[dict[str, Any]] = []
    for part, method in sources:
        mid = method.get("id", "?")
        if mid in seen:
            problems.append(f"{part}: {mid}: duplicate id (also in {seen[mid]})")
            continue
        seen[mid] = part
        _, found = check_method(method)
        problems.extend(f"{part}: {mid}: {p}" for p in found)
        if not found:
            methods.append(method)
    jobs = [
        (m["code"].strip() + "\n", list(m["train_inputs"]) + list(m["test_inputs"]))
        for m in methods
    ]
    problems.extend(
        f"near_misses.py: {mid}: no such method" for mid in near_misses if mid not in seen
    )
    results, used = run_inputs(jobs, backend=backend)
    rows: list[dict[str, Any]] = []
    for method, (code, inputs), calls in zip(methods, jobs, results, strict=True):
        pairs = []
        bad = False
        for text, result in zip(inputs, calls, strict=True):
            if not result.ok and result.error_type in _RUNNER_ERRORS:
                problems.append(f"{method['id']}: {text}: {result.error_type}: {result.message}")
                bad = True
            elif result.ok and result.truncated:
                problems.append(f"{method['id']}: {text}: result cut at the sandbox's output cap")
                bad = True
            elif result.ok and not result.literal:
                problems.append(f"{method['id']}: {text}: result {result.value!r} is no literal")
                bad = True
            pairs.append(to_pair(text, result))
        if bad:
            continue
        n_train = len(method["train_inputs"])
        rows.append(
            {
                "id": method["id"],
                "test_func_validated": code,
                "description": " ".join(method["description"].split()),
                "header": header_of(code),
                "train_examples": json.dumps(pairs[:n_train], ensure_ascii=False),
                "test_examples": json.dumps(pairs[n_train:], ensure_ascii=False),
                "all_examples": json.dumps(pairs, ensure_ascii=False),
                # Markers cannot hold '-': normalise so '-m prefix_sums' works.
                "tags": [t.replace("-", "_") for t in method["tags"]],
            }
        )
        if method["id"] in near_misses:
            rows[-1]["wrong_descriptions"] = near_misses[method["id"]]
    return rows, problems, used


def _same_output(a: list[str], b: list[str], *, messages: bool = True) -> bool:
    """Pairs agree: same input and exception, and outputs equal as values (set order aside).

    With ``messages=False`` exception messages are not compared: they change between Python
    versions (the wasm guest runs CPython 3.14, the subprocess backend this interpreter).
    """
    if len(a) != len(b) or a[0] != b[0] or a[2:] != b[2:]:
        return False
    if len(a) == 3:
        return a[1] == b[1] or not messages
    try:
        return bool(ast.literal_eval(a[1]) == ast.literal_eval(b[1])) or a[1] == b[1]
    except (ValueError, SyntaxError, TypeError):
        return a[1] == b[1]


def diff_rows(
    built: list[dict[str, Any]], shipped: list[dict[str, Any]], *, messages: bool = True
) -> list[str]:
    """What differs between a fresh build and the shipped rows."""
    diffs: list[str] = []
    old = {r.get("id"): r for r in shipped}
    new = {r["id"]: r for r in built}
    diffs += [f"{i}: missing from the shipped file" for i in new if i not in old]
    diffs += [f"{i}: in the shipped file but no longer in the sources" for i in old if i not in new]
    if [r["id"] for r in built] != [r.get("id") for r in shipped] and not diffs:
        diffs.append("the order of the methods differs")
    for mid, row in new.items():
        if mid not in old:
            continue
        for key, value in row.items():
            if key.endswith("_examples"):
                a, b = json.loads(value), json.loads(old[mid].get(key, "[]"))
                same = [_same_output(x, y, messages=messages) for x, y in zip(a, b, strict=False)]
                if len(a) != len(b) or not all(same):
                    diffs.append(f"{mid}: {key} differs")
            elif value != old[mid].get(key):
                diffs.append(f"{mid}: {key} differs")
    return diffs


def summary(rows: list[dict[str, Any]]) -> str:
    """Counts by arity, difficulty and smoke, for the build log."""
    arity = Counter(r["header"].count("arg") for r in rows)
    tags = Counter(t for r in rows for t in r["tags"])
    n = max(len(rows), 1)
    shares = ", ".join(f"{k} args {v} ({v / n:.0%})" for k, v in sorted(arity.items()))
    levels = ", ".join(f"{d} {tags[d]}" for d in DIFFICULTIES)
    return f"{len(rows)} methods: {shares}; {levels}; smoke {tags['smoke']}"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="Fail if the shipped file differs.")
    parser.add_argument("--backend", choices=BACKENDS, default="auto", help="Default: auto.")
    parser.add_argument("--output", type=Path, default=TARGET, help=f"Default: {TARGET}.")
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="Write the methods that pass and leave out the others (default: write nothing).",
    )
    args = parser.parse_args(argv)
    rows, problems, used = build_rows(args.backend)
    print(f"{summary(rows)} (outputs from the {used} backend)")
    if problems:
        print(f"{len(problems)} problem(s) in the method sources:", *problems, sep="\n  ")
        if not args.keep_going:
            return 1
    if args.check:
        if not args.output.is_file():
            print(f"{args.output}: missing; run `python scripts/build_builtin.py`")
            return 1
        shipped = [json.loads(line) for line in args.output.read_text().splitlines() if line]
        # The shipped file is built with the wasm sandbox; another backend's interpreter may
        # word exception messages differently.
        diffs = diff_rows(rows, shipped, messages=used == "wasm")
        if diffs:
            print(f"{args.output} is out of date; rerun `python scripts/build_builtin.py`:")
            print(*diffs[:50], sep="\n  ")
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=args.output.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    os.chmod(tmp, 0o644)  # mkstemp makes it private; the shipped file is world-readable
    os.replace(tmp, args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

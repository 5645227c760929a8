"""``pau import-reference PREDICTIONS.jsonl [EVALS.jsonl ...] -o REPORT.json``.

Turns a run of the PAU reference implementation (github.com/DhananjayAshok/PAU-Benchmark)
into a pytest-pau JSON report that `pau show`, `pau compare` and `pau paper` read. The
predictions file (results/predictions/<method>_<model>.jsonl) comes first, then any of its
eval files (results/evals/): the judge's (..._description_prediction_judge-<judge>.jsonl),
the fixed coder's (..._code_prediction_judge-<coder>.jsonl), the model as its own coder
(..._judge-self.jsonl) and the coder on the gold descriptions
(gold_code_prediction_judge-<coder>.jsonl). Each file is recognised by its fields and its
name; all must hold the same rows in the same order.

The report records the reference's counting (``run.protocol`` ``paper``: a missing judge
rating counts 1, a missing code match 0) and its scores as it computed them. The
reference's rows have no id: with ``--dataset`` each row is matched by its code, header
and description to the instance our loader reads from that dataset, and gets its id;
without it, rows are named by position as ``hf:DJ-Research/PAU-Benchmark``'s test split
names them, which is only right for a file of the whole split in order (741 rows).

Exit status: 0 written, 2 bad input (the message names the file, the line and the field).
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_pau.errors import ConfigError, DatasetError
from pytest_pau.settings import DEFAULTS

#: Rows of the published test split (``hf:DJ-Research/PAU-Benchmark``, ``test``).
PUBLISHED_TEST_ROWS = 741
PUBLISHED = "hf:DJ-Research/PAU-Benchmark"
#: The reference's method prefixes (``see.py``'s ``method_orders``), in its lookup order.
METHODS = ("incontext", "ft", "interactive", "rl", "memory", "gold")
KINDS = ("predictions", "description", "code", "self_code", "gold_code")
MAX_PROBLEMS = 10


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``pau import-reference``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "import-reference",
        help="Turn the PAU reference's result files into a JSON report.",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        type=Path,
        help="The predictions file, then its eval files (any order).",
    )
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="REPORT",
        help="Where to write the JSON report (a regular file, not a result file or the --dataset file).",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="Overwrite REPORT if it exists. Default: off (an existing file is kept).",
    )
    p.add_argument(
        "--dataset",
        metavar="SPEC",
        default=None,
        help="The dataset the reference read, as --pau-dataset takes it: rows are "
        "matched by content and get its instances' ids. Default: ids by position "
        f"in {PUBLISHED}'s test split (a file of all {PUBLISHED_TEST_ROWS} rows only).",
    )
    p.add_argument("--split", default="test", help="Split of --dataset. Default: test.")
    p.add_argument(
        "--dataset-outputs",
        default="auto",
        metavar="MODE",
        help="How --dataset stores outputs, as --pau-dataset-outputs. Default: auto.",
    )
    p.add_argument(
        "--model",
        default=None,
        metavar="NAME",
        help="The model under test. Default: read from "
        "the predictions file's name (interactive_<model>.jsonl).",
    )
    p.add_argument(
        "--judge-model",
        default=None,
        metavar="NAME",
        help="Default: read from the judge file's name (..._judge-<judge>.jsonl).",
    )
    p.add_argument(
        "--coder-model",
        default=None,
        metavar="NAME",
        help="Default: read from the coder file's name (..._judge-<coder>.jsonl).",
    )
    p.add_argument(
        "--max-iterations",
        type=int,
        default=None,
        metavar="N",
        help="The run's iteration "
        "limit. Default: the most iterations a row that did not conclude used, or "
        "the reference's 20 when every row concluded.",
    )
    p.add_argument(
        "--judge-threshold",
        type=float,
        metavar="X",
        default=DEFAULTS.judge_threshold,
        help=f"An item passes at this judge score... Default: {DEFAULTS.judge_threshold:g}.",
    )
    p.add_argument(
        "--match-threshold",
        type=float,
        metavar="X",
        default=DEFAULTS.match_threshold,
        help=f"...and this code match. Default: {DEFAULTS.match_threshold:g}.",
    )
    return p


@dataclass
class RefFile:
    """One result file of the reference, read."""

    path: Path
    kind: str
    rows: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """``(location, row)``: ``file line N`` and the decoded object."""

    @property
    def role_name(self) -> str | None:
        """The name after the last ``_judge-`` of the file name: the judge or coder."""
        found = re.search(r"_judge-(.+)\.jsonl$", self.path.name)
        return found.group(1) if found else None


def read_file(path: Path) -> RefFile:
    """Read and classify one result file.

    Raises:
        DatasetError: missing, not JSON lines, or none of the reference's result files.
    """
    from pytest_pau.dataset.files import iter_jsonl
    from pytest_pau.files.guard import check_input_file, real

    if real(path, f"FILE {str(path)!r}").is_dir():
        raise DatasetError(
            f"{path}: is a folder; pass its files, e.g. {path}/predictions/<method>_<model>.jsonl"
        )
    if not path.exists():
        raise DatasetError(f"{path}: no such file (looked for {real(path)})")
    # A regular file, checked before it is opened: a FIFO would block open() for ever.
    check_input_file(path, "pau import-reference: FILE")
    rows: list[tuple[str, dict[str, Any]]] = []
    problems = []
    for location, _, row in iter_jsonl(path, str(path)):
        if isinstance(row, Exception):
            problems.append(f"{location}: {row}")
        else:
            rows.append((location, dict(row)))
    if problems:
        raise DatasetError(_listed(f"{path}: not JSON lines", problems))
    if not rows:
        raise DatasetError(f"{path}: no rows; a result file has one JSON object per line")
    location, first = rows[0]
    if "predicted_outputs_exact_match" in first:
        gold = path.name.startswith("gold_")
        kind = (
            "gold_code"
            if gold
            else "self_code"
            if path.name.endswith("_judge-self.jsonl")
            else "code"
        )
    elif "score" in first or "score_output" in first:
        kind = "description"
    elif "predicted_code" in first:
        raise DatasetError(
            f"{location}: a code predictions file (predicted_code, no "
            "predicted_outputs_exact_match); pass the eval file `eval.py code` writes from it "
            f"(results/evals/{path.name})"
        )
    elif "predicted_description" in first:
        kind = "predictions"
    else:
        raise DatasetError(
            f"{location}: not a PAU reference result file: expected the field "
            "'predicted_description' (predictions), 'score' (judge eval) or "
            f"'predicted_outputs_exact_match' (code eval); found {', '.join(sorted(first)[:8])}"
        )
    return RefFile(path, kind, rows)


def _listed(head: str, problems: list[str]) -> str:
    shown = problems[:MAX_PROBLEMS]
    more = len(problems) - len(shown)
    tail = [f"... and {more} more"] if more else []
    return "\n  ".join([f"{head}:", *shown, *tail])


def method_and_model(path: Path) -> tuple[str | None, str | None]:
    """``(method, model)`` from a file name as ``see.py`` reads them (``interactive_gpt-4o``)."""
    stem = path.name.removesuffix(".jsonl")
    for method in METHODS:
        if stem.startswith(f"{method}_"):
            return method, stem[len(method) + 1 :].split("_")[0] or None
    return None, None


def classify(files: list[RefFile]) -> dict[str, RefFile]:
    """The files by kind; exactly one predictions source.

    Raises:
        ConfigError: two files of one kind, or a file that is not first is a predictions file.
    """
    by_kind: dict[str, RefFile] = {}
    for f in files:
        if f.kind in by_kind:
            raise ConfigError(
                f"{by_kind[f.kind].path} and {f.path} are both {f.kind.replace('_', ' ')} "
                "files; import one run at a time (one file of each kind)"
            )
        by_kind[f.kind] = f
    first = files[0]
    if first.kind not in ("predictions", "description"):
        raise ConfigError(
            f"{first.path}: the first FILE must be the predictions file "
            f"(results/predictions/<method>_<model>.jsonl), got a {first.kind.replace('_', ' ')} file"
        )
    if "predictions" in by_kind and first.kind != "predictions":
        raise ConfigError(f"{by_kind['predictions'].path}: give the predictions file first")
    return by_kind


def match_ids(
    rows: list[tuple[str, dict[str, Any]]], args: argparse.Namespace
) -> list[tuple[str, str, int, list[str]]]:
    """``(id, source, arity, tags)`` per row: by content with ``--dataset``, else by position.

    Raises:
        DatasetError: a row no instance of the dataset has, or a count that positions
            cannot name.
    """
    from pytest_pau.dataset.signature import header_arity

    out: list[tuple[str, str, int, list[str]]] = []
    if args.dataset is None:
        if len(rows) != PUBLISHED_TEST_ROWS:
            raise DatasetError(
                f"{rows[0][0].rsplit(' line ', 1)[0]}: {len(rows)} rows, so they cannot be "
                f"named by position in {PUBLISHED}'s test split ({PUBLISHED_TEST_ROWS} rows: "
                "a debug run or part of it). Pass --dataset SPEC, the dataset the reference "
                "read (--dataset hf:DJ-Research/PAU-Benchmark for the published set), to "
                "match the rows by content"
            )
        for location, row in rows:
            try:
                arity = header_arity(str(row.get("header", "")).strip())
            except Exception as exc:
                raise DatasetError(f"{location}: {exc}") from None
            out.append((f"pau_benchmark/test_{len(out):04d}", "pau_benchmark", arity, []))
        return out
    from pytest_pau import load_dataset

    instances = load_dataset(args.dataset, args.split, outputs=args.dataset_outputs)
    index: dict[tuple[str, str, str], deque[Any]] = defaultdict(deque)
    for inst in instances:
        index[(inst.code, inst.header.strip(), inst.description.strip())].append(inst)
    problems: list[str] = []
    for location, row in rows:
        # Our loader keeps the code as written and strips header and description.
        key = (
            str(row.get("test_func_validated") or ""),
            str(row.get("header") or "").strip(),
            str(row.get("description") or "").strip(),
        )
        found = index.get(key)
        if not found:
            problems.append(
                f"{location}: field 'test_func_validated': no instance of {args.dataset!r} "
                "has this code, header and description (was --dataset the set the reference read?)"
            )
            continue
        inst = found.popleft()
        out.append((inst.id, inst.source, inst.arity, list(inst.tags)))
    if problems:
        raise DatasetError(_listed(f"{len(problems)} row(s) not in {args.dataset}", problems))
    return out


def check_output(args: argparse.Namespace) -> None:
    """The one guard over outputs, for ``-o``: never an input file (a result file, the
    ``--dataset`` file), no folder, FIFO or device, in a folder that takes a file; then an
    existing REPORT only with ``--force``. Before any file is read.

    Raises:
        ConfigError: naming ``-o``, the path and the problem (and the input it would
            overwrite).
    """
    from pytest_pau.files.guard import WRITE_CHECKED, check_outputs, output_arg

    inputs = [output_arg("FILE", f, what="a result file read") for f in args.files]
    if args.dataset is not None and Path(args.dataset).expanduser().is_file():
        inputs.append(output_arg("--dataset", args.dataset, what="the dataset"))
    output = output_arg("-o", args.output)
    check_outputs([output], inputs, checked=WRITE_CHECKED)
    if output.path.exists() and not args.force:
        raise ConfigError(
            f"-o {args.output}: exists; pass --force to overwrite it, or choose another path"
        )


def naming(files: dict[str, RefFile], args: argparse.Namespace, ids_by: str) -> Any:
    """The run block's names: options first, else read from the file names.

    Raises:
        ConfigError: a name that neither an option nor a file name gives.
    """
    from pytest_pau.report.reference_report import Naming

    source = files.get("predictions") or files["description"]
    method, model = method_and_model(source.path)
    judge = files.get("description")
    coder = files.get("code")

    def named(option: str, given: str | None, f: RefFile | None, what: str) -> str:
        if given:
            return given
        if f is None:
            return "(none)"
        if f.role_name:
            return f.role_name
        raise ConfigError(
            f"{f.path}: cannot read the {what} from the file name (expected "
            f"..._judge-<{what}>.jsonl); pass {option} NAME"
        )

    model = args.model or model
    if not model:
        raise ConfigError(
            f"{source.path}: cannot read the model from the file name (expected "
            "<method>_<model>.jsonl, e.g. interactive_gpt-4o.jsonl); pass --model NAME"
        )
    return Naming(
        model=model,
        judge_model=named("--judge-model", args.judge_model, judge, "judge"),
        coder_model=named("--coder-model", args.coder_model, coder, "coder"),
        dataset=args.dataset or PUBLISHED,
        split=args.split,
        method=method or ("interactive" if "steps" in source.rows[0][1] else "incontext"),
        max_iterations=args.max_iterations,
        judge_threshold=args.judge_threshold,
        match_threshold=args.match_threshold,
        ids_by=ids_by,
    )


def run(args: argparse.Namespace) -> int:
    """Run ``pau import-reference``; returns the exit status."""
    from pytest_pau._version import __version__
    from pytest_pau.report.json_report import write_report
    from pytest_pau.report.reference_report import build_report, check_lengths

    check_output(args)
    files = classify([read_file(p) for p in args.files])
    check_lengths(files)
    source = files.get("predictions") or files["description"]
    ids = match_ids(source.rows, args)
    ids_by = (
        f"ids: each row matched by code, header and description to an instance of {args.dataset}"
        if args.dataset
        else f"ids: by position in {PUBLISHED}'s test split (the file has all its rows)"
    )
    report = build_report(files, ids, naming(files, args, ids_by), __version__)
    path = write_report(args.output, report)
    # The rows the reference scored whole (the summary's means count every row, paper-style).
    judged = sum(1 for r in report.instances if r.scored and r.judge_score is not None)
    matched = sum(1 for r in report.instances if r.scored and r.code_match is not None)
    print(
        f"imported {len(report.instances)} instances of {report.run.model} "
        f"({judged} judged, {matched} with code match; protocol paper) -> {path}"
    )
    for note in report.notes:
        print(f"note: {note}")
    return 0

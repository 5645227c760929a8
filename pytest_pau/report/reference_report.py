"""A run of the PAU reference, read from its result files, as a pytest-pau :class:`Report`.

:func:`build_report` joins the rows of the predictions file and its eval files (already
read and matched to instance ids by ``pau import-reference``) into one
:class:`~pytest_pau.models.InstanceResult` per row (:mod:`.reference_rows` reads each
field), then the run block and the summary. Nothing is recomputed that the reference
computed: its judge score and its code match are kept as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pytest_pau.dataset.signature import RowError
from pytest_pau.errors import DatasetError
from pytest_pau.models import (
    FailureMode,
    InstanceResult,
    PassRule,
    Report,
    RunInfo,
    SkipCause,
    Step,
)
from pytest_pau.report import reference_rows as fields
from pytest_pau.report.summary import build_summary

#: The reference's own iteration limit (``baselines.interactive``).
REFERENCE_MAX_ITERATIONS = 20
MAX_PROBLEMS = 10


class ResultFile(Protocol):
    """What a read result file offers (``cli.import_reference.RefFile``)."""

    path: Path
    kind: str
    rows: list[tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Naming:
    """What the run block says that the files cannot: names, dataset, limits."""

    model: str
    judge_model: str
    coder_model: str
    dataset: str
    split: str
    method: str
    max_iterations: int | None
    judge_threshold: float
    match_threshold: float
    ids_by: str
    """How rows got their ids, for the notes."""


SKIPPED_BY_REFERENCE = (
    "the reference skipped this row: it could not load the method's code (its RunTestFunc "
    "failed), so there is no prediction, trajectory or query; its judge rated the text 'None'"
)


def _check_same_row(
    pred: tuple[str, Mapping[str, Any]], other: tuple[str, Mapping[str, Any]], kind: str
) -> None:
    """An eval row must be the predictions row it was computed from."""
    (ploc, prow), (loc, row) = pred, other
    names = ["test_func_validated"]
    if kind in ("description", "code", "self_code"):
        names.append("predicted_description")
    for name in names:
        if row.get(name) != prow.get(name):
            raise DatasetError(
                f"{loc}: field {name!r}: differs from {ploc}; the files are not of one run "
                "(the reference keeps every row, in order, in each file it derives)"
            )


def _one(
    rows: Mapping[str, tuple[str, Mapping[str, Any]]],
    ident: tuple[str, str, int, list[str]],
    naming: Naming,
) -> InstanceResult:
    """One row of every file as one result (``rows`` by file kind)."""
    _loc, pred = rows.get("predictions") or rows["description"]
    iid, source, arity, tags = ident
    r = InstanceResult(
        id=iid, source=source, arity=arity, tags=tags, gold=fields.text(pred, "description") or ""
    )
    r.prediction = fields.text(pred, "predicted_description", optional=True) or ""
    n_train = len(fields.json_list(pred, "train_examples") or [])
    calls = 0
    if naming.method == "incontext":
        r.trajectory = [
            Step(
                kind="incontext",
                iteration=1,
                response=r.prediction,
                prompt=fields.text(pred, "direct_prompt", optional=True) or "",
            )
        ]
    elif pred.get("steps") is None and pred.get("predicted_description") is None:
        r.error = SKIPPED_BY_REFERENCE
    else:
        r.trajectory, queries, last_yes = fields.trajectory(pred, n_train)
        concluded = pred.get("concluded")
        if not isinstance(concluded, bool):
            raise RowError("concluded", f"expected true or false, got {concluded!r}")
        if concluded != last_yes:
            raise RowError(
                "concluded",
                f"is {concluded} but the last reflection reads "
                f"{'YES' if last_yes else 'NO'} by the reference's rule",
            )
        n = fields.number(pred, "n_queries", 0, 10**6, integral=True)
        if n != queries:
            raise RowError("n_queries", f"is {n!r} but the act steps ran {queries} calls")
        r.concluded, r.n_queries = concluded, queries
    calls += len(r.trajectory)
    if "description" in rows:
        row = rows["description"][1]
        score = fields.number(row, "score", 1, 5, integral=True)
        reply = fields.text(row, "score_output", optional=True) or ""
        r.judge_score = score
        r.judge_ratings = [None if score is None else int(score)]
        r.judge_explanation = reply.strip()
        calls += 1
        if score is None:
            r.judge_unparseable = 1
            r.error = r.error or (
                f"the judge ({naming.judge_model}) gave no 'Rating: N' the reference's "
                "parser reads (its first 'rating: 1-5'); the paper protocol counts it as 1"
            )
    else:
        r.skipped = (
            "not judged: no judge eval file (..._description_prediction_judge-*) was imported"
        )
        r.skip_cause = SkipCause.NOT_RUN
    for kind, attr in (
        ("code", "code_match"),
        ("self_code", "self_code_match"),
        ("gold_code", "gold_code_match"),
    ):
        if kind in rows:
            row = rows[kind][1]
            setattr(r, attr, fields.number(row, "predicted_outputs_exact_match", 0, 1))
    if "code" in rows:
        row = rows["code"][1]
        r.code = fields.text(row, "predicted_code", optional=True) or ""
        test = fields.json_list(row, "test_examples") or []
        r.mismatches, _ = fields.mismatches(row, test)
        calls += 1
        if not r.code:
            r.failure_detail = "code match 0: the coder's reply had no code block"
    r.model_calls = calls
    return _verdict(r, naming)


def _verdict(r: InstanceResult, naming: Naming) -> InstanceResult:
    if r.error is not None:
        r.failure_mode = FailureMode.INFRASTRUCTURE
        return r
    if r.skipped is not None:
        return r
    r.passed = PassRule(naming.judge_threshold, naming.match_threshold).passes(
        r.judge_score, r.code_match
    )
    if not r.passed:
        r.overconfident = r.concluded
        why = "not classified: the reference has no failure classifier"
        r.failure_detail = "; ".join(x for x in (why, r.failure_detail) if x)
    return r


def check_lengths(files: Mapping[str, ResultFile]) -> None:
    """Every file of one run has a row for each predictions row.

    Raises:
        DatasetError: naming the file whose count differs.
    """
    source = files.get("predictions") or files["description"]
    for f in files.values():
        if len(f.rows) != len(source.rows):
            raise DatasetError(
                f"{f.path}: {len(f.rows)} rows, but {source.path} has {len(source.rows)}; "
                "the files are not of one run"
            )


def build_results(
    files: Mapping[str, ResultFile], ids: Sequence[tuple[str, str, int, list[str]]], naming: Naming
) -> list[InstanceResult]:
    """One result per predictions row; every problem named by file, line and field.

    Raises:
        DatasetError: files of different lengths or runs, or bad fields (up to
            :data:`MAX_PROBLEMS` listed).
    """
    check_lengths(files)
    out: list[InstanceResult] = []
    problems: list[str] = []
    for i, ident in enumerate(ids):
        at = {kind: f.rows[i] for kind, f in files.items()}
        first = at.get("predictions") or at["description"]
        try:
            for kind, row in at.items():
                if row is not first:
                    _check_same_row(first, row, kind)
            out.append(_one(at, ident, naming))
        except RowError as exc:
            problems.append(f"{_where(at, exc.field)}: {exc}")
        except DatasetError as exc:
            problems.append(str(exc))
        if len(problems) >= MAX_PROBLEMS:
            problems.append("... (stopped after the first problems)")
            break
    if problems:
        raise DatasetError(
            "\n  ".join([f"{len(problems)} problem(s) in the result files:", *problems])
        )
    return out


#: Which file holds each field a row error can name.
_FIELD_KIND = {
    "score": "description",
    "score_output": "description",
    "predicted_outputs_exact_match": "code",
    "predicted_code": "code",
    "predicted_test_outputs": "code",
}


def _where(at: Mapping[str, tuple[str, Any]], name: str) -> str:
    kind = _FIELD_KIND.get(name)
    if kind is not None and kind not in at:
        kind = next((k for k in ("self_code", "gold_code") if k in at), None)
    loc = at.get(kind or "predictions") or at.get("predictions") or at["description"]
    return loc[0]


def max_iterations(results: Sequence[InstanceResult], given: int | None) -> int:
    """The run's iteration limit: ``given``, checked, or the most a non-concluded row used."""
    used = [max((s.iteration for s in r.trajectory), default=0) for r in results]
    open_rows = [u for r, u in zip(results, used, strict=True) if not r.concluded and u]
    if given is not None:
        if used and max(used) > given:
            raise DatasetError(f"--max-iterations {given}: a row used {max(used)} iterations")
        return given
    return max(open_rows) if open_rows else REFERENCE_MAX_ITERATIONS


def build_report(
    files: Mapping[str, ResultFile],
    ids: Sequence[tuple[str, str, int, list[str]]],
    naming: Naming,
    plugin_version: str,
) -> Report:
    """The whole report: results, run block (``protocol`` ``paper``), summary and notes."""
    results = build_results(files, ids, naming)
    run = RunInfo(
        plugin_version=plugin_version,
        model=naming.model,
        judge_model=naming.judge_model,
        coder_model=naming.coder_model,
        dataset=naming.dataset,
        split=naming.split,
        mode="incontext" if naming.method == "incontext" else "interactive",
        seed=0,
        max_iterations=max_iterations(results, naming.max_iterations),
        prompts_version="PAU reference",
        thresholds={
            "judge_threshold": naming.judge_threshold,
            "match_threshold": naming.match_threshold,
        },
        protocol="paper",
    )
    # The reference counts every row it wrote: a missing rating 1, a missing match 0.
    summary = build_summary(results, selected=len(results), protocol="paper")
    return Report(run=run, instances=results, summary=summary, notes=notes(files, results, naming))


def notes(
    files: Mapping[str, ResultFile], results: Sequence[InstanceResult], naming: Naming
) -> list[str]:
    """What a reader of the imported report must know that its numbers do not say."""
    names = ", ".join(f.path.name for f in files.values())
    out = [
        f"imported by `pau import-reference` from the PAU reference's result files ({names}); "
        "judge scores and code match are the reference's own",
        "counting: the reference's (protocol paper): a missing judge rating counts 1 and a "
        "missing code match 0; items whose judge gave no rating are listed as errors",
        "code match is the reference's: JSON-decoded expectations compared with == to the "
        "live results (tuples, int-key dicts and identity rows never match; an expected None "
        "matches a call that raised)",
        naming.ids_by,
        "failure modes: not classified (the reference has none); failed items count as unclassified",
    ]
    if naming.method not in ("interactive", "incontext"):
        out.append(f"method {naming.method!r}: read as an interactive run")
    skipped = sum(r.error == SKIPPED_BY_REFERENCE for r in results)
    if skipped:
        out.append(f"{skipped} row(s) the reference skipped (their code did not load)")
    if "description" not in files:
        out.append("no judge eval file: no item is judged, so none is scored")
    if "code" not in files:
        out.append("no fixed-coder eval file: code match is missing, so no item passes")
    return out

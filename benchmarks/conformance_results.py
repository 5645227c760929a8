"""The last stage of ``reference_conformance.py``: gather both tools' scores and compare.

Reads the imported reference run (``ref.json``), our run (``ours.json``), the cross-scores
(``ref_through_ours.json``, the reference's evals of our descriptions and code), runs each
coder's code input by input in our sandbox, and classifies every pair with the rules of
``conformance_rows.py``. Writes nothing itself: ``reference_conformance.py`` saves the
dict as ``agreement.json`` and :func:`markdown` as ``agreement.md``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import conformance_rows as rows
from conformance_stages import read_jsonl


def _stats(items: list[Any]) -> dict[str, Any]:
    """Both countings of one run: the paper's (missing judge 1, match 0) and ours."""
    n = len(items)
    judges = [r.judge_score for r in items]
    matches = [r.code_match for r in items]
    scored = [r for r in items if r.scored]

    def mean(xs: list[float]) -> float | None:
        return round(sum(xs) / len(xs), 3) if xs else None

    return {
        "items": n,
        "judge_mean_paper": mean([1.0 if j is None else j for j in judges]),
        "match_mean_paper": mean([0.0 if m is None else m for m in matches]),
        "judge_mean_ours": mean([r.judge_score for r in scored if r.judge_score is not None]),
        "match_mean_ours": mean([r.code_match for r in scored if r.code_match is not None]),
        "errors": sum(r.error is not None for r in items),
        "queries_mean": mean([float(r.n_queries) for r in items]),
        "concluded": sum(r.concluded for r in items),
    }


def _ours_per_input(code: str, instance: Any) -> list[tuple[bool, str, bool]]:
    from pytest_pau.sandbox import outputs_equal
    from pytest_pau.scoring.coder import CodeRunner

    with CodeRunner(code) as runner:
        if runner.problem is not None:
            return [(False, f"NoCode: {runner.problem}", False)] * len(instance.test_examples)
        out = []
        for example in instance.test_examples:
            got = runner.call(example.input)
            out.append((got.ok, got.observation(), outputs_equal(example, got)))
        return out


def _same_code(
    label: str, code: str, ref_eval: dict[str, Any], instance: Any, ref_row: dict[str, Any]
) -> dict[str, Any]:
    """One piece of code through both code scorers."""
    tests = json.loads(ref_row["test_examples"])
    ours = _ours_per_input(code, instance)
    our_score = sum(m for _, _, m in ours) / len(ours) if ours else None
    ran = ref_eval.get("predicted_test_outputs") or []
    differences = rows.explain_code_difference(
        [t[0] for t in tests],
        [t[1] for t in tests],
        ran or ["None"] * len(tests),
        ours,
        reference_loaded=bool(ran) or not code.strip(),
    )
    ref_score = ref_eval.get("predicted_outputs_exact_match")
    return {
        "id": instance.id,
        "code_by": label,
        "reference_scorer": ref_score,
        "our_scorer": our_score,
        "agreement": rows.code_agreement(ref_score, our_score),
        "differences": [d.__dict__ | {"expected": repr(d.expected)} for d in differences],
    }


def agreement(
    work: Path,
    ref_rows: dict[str, dict[str, Any]],
    code_run: str,
    ours_run: str,
    ours_code_run: str,
    our_code: str,
) -> dict[str, Any]:
    """Every comparison the benchmark reports, as one JSON-able dict."""
    from pytest_pau.dataset import load_dataset
    from pytest_pau.report.json_report import read_report

    evals = work / "ref" / "results" / "evals"
    ref_items = {r.id: r for r in read_report(work / "ref.json").instances}
    our_items = {r.id: r for r in read_report(work / "ours.json").instances}
    ours_of_ref = json.loads((work / "ref_through_ours.json").read_text(encoding="utf-8"))
    ref_of_ours = read_jsonl(evals / f"{ours_run}_description_prediction_judge-gpt-4o.jsonl")
    ref_code_of_ours = read_jsonl(evals / f"{ours_code_run}.jsonl")
    ref_scorer_on_our_code = read_jsonl(evals / f"{our_code}.jsonl")
    ref_code = read_jsonl(evals / f"{code_run}.jsonl")
    instances = {i.id: i for i in load_dataset(str(work / "conformance.jsonl"), outputs="repr")}
    judge, code, coders = [], [], []
    for k, (local, ref_row) in enumerate(ref_rows.items()):
        iid = f"conformance/{local}"
        inst, theirs, ours = instances[iid], ref_items[iid], our_items[iid]
        judge.append(
            {
                "id": iid,
                "description_by": "reference",
                "prediction": theirs.prediction,
                "reference_judge": theirs.judge_score,
                "our_judge": ours_of_ref[iid]["judge"],
                "reference_reply": theirs.judge_explanation,
                "our_explanation": ours_of_ref[iid]["explanation"],
            }
        )
        judge.append(
            {
                "id": iid,
                "description_by": "pytest-pau",
                "prediction": ours.prediction,
                "reference_judge": ref_of_ours[k]["score"],
                "our_judge": ours.judge_score,
                "reference_reply": ref_of_ours[k]["score_output"],
                "our_explanation": ours.judge_explanation,
            }
        )
        code.append(
            _same_code(
                "reference coder, reference description",
                ref_code[k].get("predicted_code") or "",
                ref_code[k],
                inst,
                ref_row,
            )
        )
        code.append(
            _same_code(
                "reference coder, pytest-pau description",
                ref_code_of_ours[k].get("predicted_code") or "",
                ref_code_of_ours[k],
                inst,
                ref_row,
            )
        )
        code.append(
            _same_code(
                "pytest-pau coder, pytest-pau description",
                ours.code,
                ref_scorer_on_our_code[k],
                inst,
                ref_row,
            )
        )
        coders.append(
            {
                "id": iid,
                "reference description": {
                    "reference coder": theirs.code_match,
                    "pytest-pau coder": ours_of_ref[iid]["code_match"],
                },
                "pytest-pau description": {
                    "reference coder": ref_code_of_ours[k].get("predicted_outputs_exact_match"),
                    "pytest-pau coder": ours.code_match,
                },
            }
        )
    for j in judge:
        j["agreement"] = rows.judge_agreement(j["reference_judge"], j["our_judge"])
    return {
        "headline": {
            "reference": _stats(list(ref_items.values())),
            "pytest-pau": _stats(list(our_items.values())),
        },
        "judge": judge,
        "judge_counts": {
            by: rows.agreement_table(j["agreement"] for j in judge if j["description_by"] == by)
            for by in ("reference", "pytest-pau")
        },
        "code": code,
        "code_counts": rows.agreement_table(c["agreement"] for c in code),
        "coders": coders,
    }


def _g(x: Any, fmt: str = "g") -> str:
    return "-" if x is None else format(float(x), fmt)


def _clip(text: str, n: int = 90) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= n else flat[: n - 3] + "..."


def markdown(results: dict[str, Any]) -> str:
    """The results as the Markdown that benchmarks/README.md records."""
    run = results["run"]
    lines = [
        f"{run['instances']} instances, model {run['model']} for every role, max "
        f"{run['max_iterations']} iterations, pytest-pau protocol {run['ours']['protocol']}; "
        f"wall {run['wall_s']:.0f} s, load average {run['load_average_before']} before, "
        f"{run['load_average_after']} after.",
        "",
        "| run | judge mean (missing = 1) | code match (missing = 0) | errors | queries "
        "| concluded |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, s in results["headline"].items():
        lines.append(
            f"| {name} | {_g(s['judge_mean_paper'], '.2f')} | {_g(s['match_mean_paper'], '.3f')} "
            f"| {s['errors']} | {_g(s['queries_mean'], '.1f')} | {s['concluded']}/{s['items']} |"
        )
    lines += [
        "",
        "| same description, both judges | identical | within 1 | differs | missing |",
        "| --- | --- | --- | --- | --- |",
    ]
    for by, counts in results["judge_counts"].items():
        cells = " | ".join(
            str(counts.get(k, 0)) for k in ("identical", "within 1", "differs", "missing")
        )
        lines.append(f"| {by}'s descriptions | {cells} |")
    lines.append("")
    for j in results["judge"]:
        if j["agreement"] != "identical":
            lines.append(
                f"- judge, {j['id']} ({j['description_by']}'s description "
                f"{_clip(j['prediction'], 60)!r}): reference {_g(j['reference_judge'])} "
                f"({_clip(j['reference_reply'])!r}), ours {_g(j['our_judge'])} "
                f"({_clip(j['our_explanation'])!r})"
            )
    counts = results["code_counts"]
    lines += [
        "",
        f"Code match of the same code through both scorers: {counts.get('identical', 0)} "
        f"identical, {counts.get('differs', 0)} differ (of {len(results['code'])}).",
    ]
    for c in results["code"]:
        if c["agreement"] != "identical":
            lines.append(
                f"- {c['id']} ({c['code_by']}): reference {_g(c['reference_scorer'], '.3f')}, "
                f"ours {_g(c['our_scorer'], '.3f')}"
            )
        for d in c["differences"]:
            lines.append(f"  - input {d['input']}: {d['reason']}")
    lines += [
        "",
        "| item | judge ref / ours, reference's description | on ours | code match, ref "
        "coder / ours, reference's description | on ours |",
        "| --- | --- | --- | --- | --- |",
    ]
    by_id: dict[str, list[Any]] = {}
    for j in results["judge"]:
        by_id.setdefault(j["id"], []).append(j)
    for c in results["coders"]:
        a, b = by_id[c["id"]]
        rd, od = c["reference description"], c["pytest-pau description"]
        lines.append(
            f"| {c['id'].split('/', 1)[1]} | {_g(a['reference_judge'])} / {_g(a['our_judge'])} "
            f"| {_g(b['reference_judge'])} / {_g(b['our_judge'])} "
            f"| {_g(rd['reference coder'], '.2f')} / {_g(rd['pytest-pau coder'], '.2f')} "
            f"| {_g(od['reference coder'], '.2f')} / {_g(od['pytest-pau coder'], '.2f')} |"
        )
    return "\n".join(lines) + "\n"

"""``pau show REPORT.json [INSTANCE]``: one instance's trajectory, readable; or the list."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from pytest_pau.errors import ConfigError
from pytest_pau.models import InstanceResult, Report, Step
from pytest_pau.report.messages import queries_text
from pytest_pau.report.safe_text import safe_text

WIDTH = 100


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "show",
        help="Print one instance's trajectory from a JSON report.",
        description="Print one instance of a --pau-report file: scores, descriptions, every "
        "step the agent took and the code the coder wrote. Without INSTANCE, list the "
        "instances.",
    )
    parser.add_argument("report", help="A JSON report written by pytest --pau-report=PATH.")
    parser.add_argument(
        "instance",
        nargs="?",
        default=None,
        help="An instance id (builtin/vowels_minus_consonants), its local id "
        "(vowels_minus_consonants), or a "
        "unique part of it. Default: list all instances.",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="Show every prompt and full replies. Default: replies cut to a few lines.",
    )
    parser.add_argument(
        "--failed",
        action="store_true",
        help="When listing, show only failed and errored instances. Default: all.",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    from pytest_pau.report.json_report import read_report

    report = read_report(args.report)
    if args.instance is None:
        print(list_instances(report, failed_only=args.failed))
        verdict = verdict_text(report)
        if verdict:
            print(verdict)
        return 0
    print(show_instance(report, find_instance(report, args.instance), full=args.full))
    return 0


def find_instance(report: Report, query: str) -> InstanceResult:
    """The instance whose id is ``query``, ends with ``/query``, or uniquely contains it.

    Raises:
        ConfigError: no instance or several instances match; the message lists them.
    """
    for matcher in (
        lambda i: i.id == query,
        lambda i: i.id.split("/", 1)[-1] == query,
        lambda i: query in i.id,
    ):
        found = [i for i in report.instances if matcher(i)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            names = _listed([i.id for i in found], 8)
            raise ConfigError(
                f"{query!r} matches {len(found)} instances ({names}); give the full id"
            )
    known = _listed([i.id for i in report.instances], 5)
    raise ConfigError(
        f"no instance {query!r} in the report (it has {len(report.instances)}: {known}); "
        "run `pau show REPORT` to list them"
    )


def _listed(names: list[str], limit: int) -> str:
    """``a, b, c +2 more``: the first ``limit`` names and how many were left out."""
    shown = ", ".join(names[:limit])
    return shown + (f" +{len(names) - limit} more" if len(names) > limit else "")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def status(r: InstanceResult) -> str:
    if r.error is not None:
        return "ERROR"
    if r.skipped is not None:
        return "SKIPPED"
    return "PASSED" if r.passed else "FAILED"


def _num(x: float | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def list_instances(report: Report, *, failed_only: bool = False) -> str:
    """One line per instance: status, judge score, code match, failure mode, id."""
    run = report.run
    lines = [
        f"{run.model} on {run.dataset}/{run.split}: {_count(len(report.instances), 'instance')} "
        f"(judge {run.judge_model}, coder {run.coder_model})",
        f"{'status':<8} {'judge':>5} {'match':>5}  {'failure mode':<25} id",
    ]
    for r in report.instances:
        if failed_only and status(r) in ("PASSED", "SKIPPED"):
            continue
        mode = "" if r.failure_mode == "none" else r.failure_mode
        lines.append(
            f"{status(r):<8} {_num(r.judge_score, '.2g'):>5} {_num(r.code_match, '.2f'):>5}  "
            f"{mode:<25} {r.id}"
        )
    return safe_text("\n".join(lines))


def _self_coder(r: InstanceResult) -> str:
    """``, self coder 0.50`` beside the fixed coder's (``--pau-coder=self``), or ''."""
    if r.self_code_error is not None:
        return f", self coder n/a ({r.self_code_error})"
    if r.self_code_match is None and not r.self_code:
        return ""
    return f", self coder {_num(r.self_code_match, '.2f')} (the model's own code)"


def verdict_text(report: Report) -> str:
    """The run's release verdict as its closing line said it, with every reason, each
    gate's with the value and bound that decided it (as the HTML page gives them).

    Read from ``summary.verdict``, what the run's exit status was; a report written
    before the verdict existed says so rather than guessing.
    """
    from pytest_pau.report.gate_lines import verdict_line, with_values

    v = report.summary.verdict
    if v is None:
        return "release verdict: not recorded (a report of an older pytest-pau)"
    lines = [verdict_line(report.summary) or f"release verdict: {v.status}"]
    lines += [f"  - {reason}" for reason in with_values(report.summary, v.reasons)]
    return safe_text("\n".join(lines))


def _wrap(label: str, text: str | None, *, limit: int | None = None) -> str:
    # Escaped before wrapping: a carriage return must show, not split a line.
    text = safe_text((text or "").strip()) or "(empty)"
    out: list[str] = []
    for para in text.splitlines() or [""]:
        out.extend(textwrap.wrap(para, WIDTH - 14, replace_whitespace=False) or [""])
    if limit is not None and len(out) > limit:
        out = [*out[:limit], f"... ({len(out) - limit} more lines; --full shows all)"]
    pad = " " * 14
    return f"  {label:<11} " + ("\n" + pad).join(out)


def _step_lines(step: Step, *, full: bool) -> list[str]:
    limit = None if full else 4
    head = f"[{step.iteration}] {step.kind}"
    lines = [head]
    if full and step.prompt:
        lines.append(_wrap("prompt:", step.prompt))
    if step.kind == "act":
        if step.parsed_input is None:
            lines.append(_wrap("reply:", step.response, limit=limit))
            lines.append(_wrap("format:", step.format_error or "no input found"))
        else:
            if full:
                lines.append(_wrap("reply:", step.response))
            result = step.result.observation() if step.result is not None else "(not run)"
            lines.append(_wrap("call:", f"test_func{step.parsed_input} -> {result}"))
    elif step.kind == "reflect":
        verdict = {True: "YES", False: "NO", None: "unreadable"}[step.concluded]
        lines.append(_wrap("concluded:", verdict))
        lines.append(_wrap("reply:", step.response, limit=limit))
    else:
        lines.append(_wrap("reply:", step.response, limit=limit))
    return lines


def show_instance(report: Report, r: InstanceResult, *, full: bool = False) -> str:
    """The readable view of one instance: verdict, descriptions, scores, steps, code."""
    run = report.run
    mode = "" if r.failure_mode == "none" else f"  failure mode {r.failure_mode}"
    lines = [
        f"{r.id}  {status(r)}  judge {_num(r.judge_score, '.2g')}/5  "
        f"code match {_num(r.code_match, '.2f')}{mode}",
        f"model {run.model}, {run.mode}, max {run.max_iterations} iterations; "
        f"{queries_text(r.n_queries)}, {'concluded YES' if r.concluded else 'did not conclude'}"
        f"{' (overconfident)' if r.overconfident else ''}; tokens {r.tokens.get('prompt', 0)}"
        f"+{r.tokens.get('completion', 0)}, ${r.cost_usd:.4f}, {r.duration_s:.1f} s",
        "",
    ]
    if r.error:
        lines += [_wrap("error:", r.error), ""]
    if r.skipped:
        lines += [_wrap("skipped:", r.skipped), ""]
    if r.failure_detail:
        lines.append(_wrap("why:", r.failure_detail))
    if r.judge_manipulation:  # passed or not: judge and code match side by side
        lines.append(
            _wrap(
                "flagged:",
                f"addressed the grader: judge {_num(r.judge_raw_score, '.2g')} as written, "
                f"{_num(r.judge_defended_score, '.2g')} defended; code match "
                f"{_num(r.code_match, '.2f')}\n" + "\n".join(r.judge_manipulation),
                limit=None if full else 4,
            )
        )
    lines.append(_wrap("gold:", r.gold))
    lines.append(_wrap("predicted:", r.prediction))
    ratings = f" (ratings {r.judge_ratings})" if len(r.judge_ratings) > 1 else ""
    lines.append(_wrap("judge:", (r.judge_explanation or "(no explanation)") + ratings))
    lines.append("")
    lines.append(f"trajectory: {_count(len(r.trajectory), 'step')}")
    for step in r.trajectory:
        # Each entry may hold several lines (a wrapped reply): indent every one of them, so
        # continuation lines stay under the text of their label.
        lines.extend("  " + line for x in _step_lines(step, full=full) for line in x.split("\n"))
    lines.append("")
    lines.append(
        f"code match {_num(r.code_match, '.2f')}"
        + (
            f", gold control {_num(r.gold_code_match, '.2f')}"
            if r.gold_code_match is not None
            else ""
        )
        + _self_coder(r)
    )
    for m in r.mismatches:
        lines.append(f"  test_func{m.input}: expected {m.expected}, got {m.got}")
    for title, code in (
        ("code written by the coder:", r.code),
        ("code written by the model under test (--pau-coder=self):", r.self_code),
    ):
        if code:
            lines.append(title)
            code_lines = code.rstrip().splitlines()
            if not full and len(code_lines) > 30:
                code_lines = [*code_lines[:30], f"... ({len(code_lines) - 30} more lines; --full)"]
            lines.extend("    " + x for x in code_lines)
    # The model's and the provider's text, shown but never obeyed (the report keeps it raw).
    return safe_text("\n".join(lines))

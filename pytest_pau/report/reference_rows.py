"""One line of the PAU reference's result files as an :class:`~pytest_pau.models.InstanceResult`.

The reference (github.com/DhananjayAshok/PAU-Benchmark) writes its results with pandas,
one JSON object per line: ``results/predictions/<method>_<model>.jsonl`` (the dataset's
columns plus ``n_queries``, ``concluded``, ``predicted_description``, ``steps`` and, as
``all_examples``, the trajectory), and ``results/evals/`` files that add ``score`` and
``score_output`` (the judge) or ``predicted_code``, ``predicted_test_outputs`` and
``predicted_outputs_exact_match`` (the coder and its scorer). How each field is read:

- ``steps``: three records per iteration (reason, act, reflect), each
  ``{prompt, output, is_good}``; ``output`` is the reply with ``"\\n[STOP]"`` appended by
  the reference (taken off again). ``is_good`` (its training-data flag) is not kept.
- ``all_examples``: ``[repr(input text), repr(output), repr(error)]`` per call, the train
  examples first; the k-th act step is the k-th call after them. An input the reference
  could not read (``None``, or text ``ast.literal_eval`` refuses) was not run and is a
  format failure here; a list is splatted into arguments and any other value wrapped in a
  1-tuple, as the reference calls the method. The reference keeps only an exception's
  message, so its type shows as ``Exception``.
- A reflection concluded when its lower-cased reply has exactly one ``summary:`` and the
  text before it contains ``yes`` (the reference's rule, checked against ``concluded``).
- ``score`` (1-5, or null when the judge's reply had no rating) and
  ``predicted_outputs_exact_match`` (0-1) are taken as the reference computed them;
  mismatches are recomputed from ``predicted_test_outputs`` against the JSON-decoded
  expectations with ``==``, the reference's comparison.

Every problem is a :class:`~pytest_pau.dataset.signature.RowError` naming the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from pytest_pau.dataset import json_numbers
from pytest_pau.dataset.python_ast import literal_eval
from pytest_pau.dataset.signature import RowError
from pytest_pau.models import CallResult, Mismatch, Step
from pytest_pau.scoring.coder import MAX_MISMATCHES

STEP_SUFFIX = "\n[STOP]"
"""What the reference appends to each step's reply in ``steps``."""
KINDS = ("reason", "act", "reflect")
NO_INPUT = "no input found in the reply (the reference's parser), so nothing was run"


def text(row: Mapping[str, Any], field: str, *, optional: bool = False) -> str | None:
    """A string field; None where ``optional`` and the field is null or absent."""
    value = row.get(field)
    if value is None:
        if optional:
            return None
        raise RowError(field, "required" if field not in row else "is null; expected text")
    if not isinstance(value, str):
        raise RowError(field, f"expected text, got {type(value).__name__} {_short(value)}")
    return value


def number(
    row: Mapping[str, Any], field: str, low: float, high: float, *, integral: bool = False
) -> float | None:
    """A number in ``[low, high]`` (pandas may write an int column as floats), or None."""
    if field not in row:
        raise RowError(field, "required")
    value = row[field]
    if value is None:
        return None
    kind = "a whole number" if integral else "a number"
    if isinstance(value, json_numbers.LongInt):
        raise RowError(
            field,
            f"expected {kind} from {low:g} to {high:g}, got an integer of "
            f"{len(value.digits.lstrip('-')):,} digits",
        )
    # An int is never NaN, and one of 400 digits is too large for math.isnan's float.
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and math.isnan(value))
    ):
        raise RowError(field, f"expected a number, got {_short(value)}")
    if not low <= value <= high or (integral and value != int(value)):
        raise RowError(field, f"expected {kind} from {low:g} to {high:g}, got {_short(value)}")
    return float(value)


def json_list(row: Mapping[str, Any], field: str, *, optional: bool = False) -> list[Any] | None:
    """A list column: the reference writes example columns as JSON text, others as lists."""
    value = row.get(field)
    if isinstance(value, str):
        try:
            value = json_numbers.loads(value)
        except json.JSONDecodeError as exc:
            problem = f"not valid JSON text ({exc.msg} at character {exc.pos})"
            raise RowError(field, problem) from None
        except RecursionError:
            raise RowError(field, "not valid JSON text (nested too deeply to read)") from None
    if value is None and optional:
        return None
    if not isinstance(value, list):
        raise RowError(field, f"expected a list, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _literal(source: str) -> tuple[bool, Any]:
    try:
        return True, literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _call_args(input_text: str | None) -> tuple[str | None, str | None]:
    """``(tuple literal called, None)`` or ``(None, why nothing was run)``, as the reference
    turns an input text into arguments (``RunTestFunc.run_test_str``)."""
    if input_text is None:
        return None, NO_INPUT
    ok, value = _literal(input_text)
    if not ok:
        return None, f"not a Python literal: {input_text!r} (the reference ran nothing)"
    args = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    return repr(args), None


def _call_result(output: str, error: str | None) -> CallResult:
    if error is not None:
        kind = "Timeout" if error.startswith("Timeout:") else "Exception"
        return CallResult(ok=False, error_type=kind, message=error)
    return CallResult(ok=True, value=output, literal=_literal(output)[0])


def _triples(value: list[Any]) -> list[tuple[str | None, str, str | None]]:
    """``all_examples`` decoded: ``(input text or None, output repr, error or None)``.

    The output stays ``repr`` text as the reference wrote it (it may be no literal: an
    object's repr); the input and the error are the ``repr`` of a str or of None.
    """
    out = []
    for i, item in enumerate(value):
        if not (
            isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in item)
        ):
            raise RowError(
                "all_examples",
                f"item {i}: expected [repr(input), repr(output), repr(error)], got {_short(item)}",
            )
        (ok_in, inp), (ok_err, err) = _literal(item[0]), _literal(item[2])
        if not (ok_in and ok_err and all(x is None or isinstance(x, str) for x in (inp, err))):
            raise RowError(
                "all_examples",
                f"item {i}: the input and the error must be the repr of a str or None, "
                f"got {_short(item)}",
            )
        out.append((inp, item[1], err))
    return out


def reflected_yes(reply: str) -> tuple[bool, bool]:
    """``(concluded, readable)`` of a reflection reply by the reference's rule."""
    lower = reply.lower()
    if lower.count("summary:") != 1:
        return False, False
    return "yes" in lower.split("summary:")[0], True


def trajectory(row: Mapping[str, Any], n_train: int) -> tuple[list[Step], int, bool]:
    """``steps`` and ``all_examples`` as our steps; returns them, the queries and the verdict.

    Raises:
        RowError: the steps are not reason/act/reflect triples, the calls do not line up
            with the act steps, or the last reflection disagrees with ``concluded``.
    """
    records = row.get("steps")
    if not isinstance(records, list) or len(records) % 3:
        n = len(records) if isinstance(records, list) else _short(records)
        raise RowError("steps", f"expected reason, act, reflect records, 3 per iteration, got {n}")
    calls = _triples(json_list(row, "all_examples") or [])
    acts = len(records) // 3
    if len(calls) != n_train + acts:
        raise RowError(
            "all_examples",
            f"holds {len(calls)} calls; expected the {n_train} train examples "
            f"and one per act step ({acts})",
        )
    steps: list[Step] = []
    queries = 0
    concluded = False
    for k, record in enumerate(records):
        if not isinstance(record, dict) or not all(
            isinstance(record.get(f), str) for f in ("prompt", "output")
        ):
            raise RowError("steps", f"item {k}: expected {{prompt, output, is_good}}")
        reply = record["output"].removesuffix(STEP_SUFFIX)
        step = Step(
            kind=KINDS[k % 3], iteration=k // 3 + 1, prompt=record["prompt"], response=reply
        )
        if step.kind == "act":
            inp, output, error = calls[n_train + k // 3]
            step.parsed_input, step.format_error = _call_args(inp)
            if step.parsed_input is not None:
                queries += 1
                step.result = _call_result(output, error)
        elif step.kind == "reflect":
            concluded, readable = reflected_yes(reply)
            step.concluded = concluded
            if not readable:
                step.format_error = "no single 'Summary:' (the reference reads it as NO)"
        steps.append(step)
    return steps, queries, concluded


def mismatches(row: Mapping[str, Any], test: list[Any]) -> tuple[list[Mismatch], int]:
    """The first mismatches of the reference's code run, and how many inputs matched.

    ``predicted_test_outputs`` is empty when the reference had no code to run.

    Raises:
        RowError: the outputs do not line up with the test examples.
    """
    got = json_list(row, "predicted_test_outputs", optional=True) or []
    if got and len(got) != len(test):
        raise RowError(
            "predicted_test_outputs", f"{len(got)} outputs for {len(test)} test examples"
        )
    out: list[Mismatch] = []
    matched = 0
    for (inp, expected, *_), shown in zip(test, got, strict=False):
        ok, value = _literal(shown) if isinstance(shown, str) else (False, None)
        if ok and value == expected:
            matched += 1
        elif len(out) < MAX_MISMATCHES:
            out.append(Mismatch(input=str(inp), expected=repr(expected), got=str(shown)))
    return out, matched

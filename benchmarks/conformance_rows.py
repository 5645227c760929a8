"""The pure parts of ``reference_conformance.py``: rows both ways, and per-item agreement.

Nothing here starts a process, opens a socket or calls a model, so ``tests/benchmarks``
checks every function directly:

- :func:`reference_row` writes one of our instances in the PAU reference's dataset layout
  (``creation.py::train_test_split`` then ``robust_serialize``: the first train output as
  a JSON value, the second as ``repr`` text, the test outputs as JSON values, every column
  a JSON string), and :func:`our_row` the same instance in our column format (``repr``
  outputs, the same two starting examples), so both tools see the same method, the same
  starting examples and the same test inputs;
- :func:`predictions_row` turns one of our results into a line of the reference's
  predictions file, so the reference's own judge, coder and code scorer can grade it;
- :func:`judge_agreement`, :func:`code_agreement` and :func:`explain_code_difference`
  classify and explain each per-item difference; :func:`agreement_table` counts them.
"""

from __future__ import annotations

import ast
import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: The instances the benchmark runs by default: builtin methods whose outputs are all
#: JSON values (no tuple, set, bytes or int-key dict) and whose examples never raise,
#: as every row of the published set is (the reference drops inputs that raise and rows
#: that JSON cannot hold). Seven take one argument, three take two.
BENCH_IDS: tuple[str, ...] = (
    "vowels_minus_consonants",
    "capitalize_words_of_four_plus",
    "longest_word_last_on_tie",
    "digits_moved_to_end",
    "nonzero_digit_product",
    "second_highest_distinct",
    "record_high_indices",
    "rotate_words_left",
    "long_words_uppercased",
    "first_prefix_over",
)

#: What the reference appends to every step's output in its ``steps`` records.
STEP_SUFFIX = "\n[STOP]"
#: The reference's message for an input it could not read (``RunTestFunc.run_test_str``).
INVALID_INPUT = "Invalid input args, is not valid python syntax"


def json_clean(value: Any) -> bool:
    """Whether ``value`` survives ``json.dumps`` then ``json.loads`` as an equal value of the
    same types all the way down (a tuple comes back a list, an int key a str: not clean)."""
    try:
        back = json.loads(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return False
    return _same(value, back)


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return False
    return bool(a == b)


def _value(output: str, where: str) -> Any:
    value = ast.literal_eval(output)
    if not json_clean(value):
        raise ValueError(
            f"{where}: output {output} is not a plain JSON value; the reference layout "
            "cannot hold it faithfully (pick an instance whose outputs are JSON values)"
        )
    return value


def split_examples(instance: Any) -> tuple[list[Any], list[Any]]:
    """The two starting examples both tools get, and the held-back examples.

    The reference's rows have exactly two train examples; our builtin instances have three.
    The third goes first among the test examples, where ``train_test_split`` puts every
    example after the second train one.
    """
    train = list(instance.train_examples)
    if len(train) < 2:
        raise ValueError(f"{instance.id}: needs at least 2 starting examples, has {len(train)}")
    for example in [*train, *instance.test_examples]:
        if example.raises is not None:
            raise ValueError(
                f"{instance.id}: example {example.input} raises {example.raises}; the "
                "reference's rows never hold an exception (creation drops such inputs)"
            )
    return train[:2], [*train[2:], *instance.test_examples]


def reference_row(instance: Any) -> dict[str, Any]:
    """``instance`` in the reference's dataset layout (the 8 columns it pushes).

    ``direct_prompt`` and ``interactive_starting_prompt`` are left empty: the interactive
    baseline builds its prompts itself and never reads them (in-context mode would).
    """
    train, test = split_examples(instance)
    first = [train[0].input, _value(train[0].output, f"{instance.id} train 1")]
    _value(train[1].output, f"{instance.id} train 2")  # checked, kept as repr text
    second = [train[1].input, train[1].output]
    tests = [[e.input, _value(e.output, f"{instance.id} test {e.input}")] for e in test]
    dumps = json.dumps
    return {
        "test_func_validated": instance.code,
        "description": instance.description,
        "train_examples": dumps([first, second], ensure_ascii=False),
        "test_examples": dumps(tests, ensure_ascii=False),
        "all_examples": dumps([[*first, "None"], [*second, "None"]], ensure_ascii=False),
        "direct_prompt": "",
        "interactive_starting_prompt": "",
        "header": instance.header,
    }


def our_row(instance: Any) -> dict[str, Any]:
    """``instance`` in our column format (``repr`` outputs) with the same examples."""
    train, test = split_examples(instance)
    return {
        "id": instance.local_id,
        "test_func_validated": instance.code,
        "description": instance.description,
        "header": instance.header,
        "train_examples": [[e.input, e.output] for e in train],
        "test_examples": [[e.input, e.output] for e in test],
        "tags": list(instance.tags),
    }


def _reference_triples(ref_row: dict[str, Any], result: Any) -> list[list[str]]:
    """Our trajectory as the reference's ``all_examples``: ``repr`` of input, output, error."""
    triples = [[repr(inp), repr(out), "None"] for inp, out in json.loads(ref_row["train_examples"])]
    for step in result.trajectory:
        if step.kind != "act":
            continue
        if step.parsed_input is None or step.result is None:
            triples.append(["None", "None", repr(INVALID_INPUT)])
        elif step.result.ok:
            triples.append([repr(step.parsed_input), step.result.value or "None", "None"])
        else:
            message = f"{step.result.error_type}: {step.result.message}"
            triples.append([repr(step.parsed_input), "None", repr(message)])
    return triples


def predictions_row(ref_row: dict[str, Any], result: Any) -> dict[str, Any]:
    """One of our results as a line of the reference's interactive predictions file.

    The dataset columns are the reference row's; ``steps`` carry our prompts and replies
    (with the suffix the reference appends), ``all_examples`` our calls as the reference
    records its own (train examples first), so its coder sees what our agent saw.
    """
    row = dict(ref_row)
    row.update(
        n_queries=result.n_queries,
        concluded=bool(result.concluded),
        predicted_description=result.prediction,
        steps=[
            {"prompt": s.prompt, "output": s.response + STEP_SUFFIX, "is_good": True}
            for s in result.trajectory
        ],
        all_examples=json.dumps(_reference_triples(ref_row, result), ensure_ascii=False),
    )
    return row


def code_row(ref_row: dict[str, Any], code: str | None, name: str) -> dict[str, Any]:
    """A line of a reference code-predictions file holding ``code`` as ``predicted_code``
    (for its ``eval.py code`` to run the code another coder wrote); ``name`` says whose."""
    row = dict(ref_row)
    row.update(
        predicted_description=None,
        code_prediction_prompt=f"(code written by {name})",
        predicted_code_output=code or "",
        predicted_code=code or None,
    )
    return row


# -- agreement ---------------------------------------------------------------------------


def judge_agreement(reference: float | None, ours: float | None) -> str:
    """``identical``, ``within 1``, ``differs`` (by 2 or more) or ``missing`` (no rating)."""
    if reference is None or ours is None:
        return "missing"
    gap = abs(reference - ours)
    if gap < 1e-9:
        return "identical"
    return "within 1" if gap <= 1 + 1e-9 else "differs"


def code_agreement(reference: float | None, ours: float | None) -> str:
    """``identical`` or ``differs`` for two code-match scores of the same code."""
    if reference is None or ours is None:
        return "missing"
    return "identical" if abs(reference - ours) < 1e-9 else "differs"


@dataclass(frozen=True)
class InputVerdict:
    """One test input of one piece of code, as both scorers saw it."""

    input: str
    expected: Any
    reference_got: str
    """The reference's ``repr`` of what the code returned (``'None'`` after an error)."""
    reference_match: bool
    ours_got: str
    ours_match: bool
    reason: str


def _literal(text: str) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def explain_code_difference(
    inputs: Sequence[str],
    expected: Sequence[Any],
    reference_outputs: Sequence[str],
    ours: Sequence[tuple[bool, str, bool]],
    *,
    reference_loaded: bool = True,
) -> list[InputVerdict]:
    """Per test input, why the two code scorers agree or not on the same code.

    Args:
        inputs: The test inputs (tuple literal text).
        expected: The expected values as the reference holds them (JSON-decoded).
        reference_outputs: The reference's ``predicted_test_outputs`` (``repr`` text; its
            scorer stores ``None`` for a call that raised or timed out).
        ours: Per input ``(ok, shown, matched)`` from our sandbox: whether the call returned,
            its value or ``Type: message``, and whether our comparison counted a match.
        reference_loaded: False when the reference had code but ran none of it (its
            ``predicted_test_outputs`` is empty: loading the code in its forked check
            failed or passed the 0.5 s it allows).

    Returns:
        One verdict per input whose two outcomes differ, with the reason; inputs where
        both agree are left out.
    """
    out = []
    for inp, exp, ref_text, (ok, shown, our_match) in zip(
        inputs, expected, reference_outputs, ours, strict=True
    ):
        readable, ref_value = _literal(ref_text)
        ref_match = readable and ref_value == exp
        if ref_match == our_match:
            continue
        if not reference_loaded:
            reason = (
                "the reference ran none of the code: its forked load check failed or "
                "passed its 0.5 s (it scores such code 0)"
            )
        elif ref_text == "None" and ok and shown != "None":
            reason = (
                "the reference got no value (its call raised, or passed its 0.5 s "
                "per-call timeout) where the sandbox returned one"
            )
        elif ref_text == "None" and exp is None and not ok:
            reason = "the reference stores an error as None, which equals an expected None"
        elif not ok and shown.startswith("SandboxLimitation"):
            reason = "the Wasm sandbox lacks a module the code imports"
        elif not ok:
            reason = f"the sandbox call failed ({shown}) where the reference's returned"
        elif readable and repr(ref_value) == shown:
            reason = "same value, compared differently (the reference: JSON-decoded ==)"
        else:
            reason = f"different values: reference {ref_text}, sandbox {shown}"
        out.append(InputVerdict(inp, exp, ref_text, ref_match, shown, our_match, reason))
    return out


def agreement_table(verdicts: Iterable[str]) -> dict[str, int]:
    """How many items fell in each agreement class, in a fixed order."""
    counts = Counter(verdicts)
    order = ("identical", "within 1", "differs", "missing")
    return {k: counts[k] for k in order if counts[k]} | {
        k: v for k, v in counts.items() if k not in order
    }

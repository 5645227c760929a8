"""A dataset whose outputs hold integers longer than Python reads from text (4,300 digits):
read as their digits under every ``--pau-dataset-outputs``, never an INTERNALERROR."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from pytest_pau import load_dataset
from pytest_pau.models import CallResult
from pytest_pau.sandbox.match_rule import outputs_equal


def _digits(n: int) -> str:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(old)


FACTORIAL_2000 = _digits(math.factorial(2000))  # 5,736 digits


def write_factorial(folder: Path, *, as_text: bool) -> Path:
    """One row of a factorial method; its held-back output a JSON number of 5,736 digits,
    in a column that is JSON text (``as_text``, PAU's own files) or a JSON list."""
    test = f'[["(2000,)", {FACTORIAL_2000}]]'
    row = {
        "id": "factorial",
        "header": "def test_func(arg0):",
        "description": "Returns the factorial of arg0.",
        "test_func_validated": "def test_func(arg0):\n    import math\n    return math.factorial(arg0)\n",
        "train_examples": json.dumps([["(5,)", 120]]),
        "test_examples": "@TEST@",
    }
    text = json.dumps(row).replace('"@TEST@"', json.dumps(test) if as_text else test)
    path = folder / "fact.jsonl"
    path.write_text(text + "\n")
    return path


@pytest.mark.parametrize("outputs", ["auto", "repr", "json", "reference", "recompute"])
def test_a_long_integer_output_is_read_under_every_outputs_mode(
    run_pau, pau_pytester: pytest.Pytester, outputs: str
) -> None:
    write_factorial(pau_pytester.path, as_text=outputs in ("auto", "json"))
    # Was: INTERNALERROR, exit 3 (ValueError: Exceeds the limit (4300 digits) for integer
    # string conversion).
    result = run_pau(
        "--collect-only", "-q", f"--pau-dataset-outputs={outputs}", dataset="fact.jsonl"
    )
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == 0, text
    assert "INTERNALERROR" not in text
    result.stdout.fnmatch_lines(["*test_pau[[]fact/factorial[]]*"])


@pytest.mark.parametrize("as_text", [True, False])
def test_the_long_output_is_kept_as_its_digits_and_matches_the_method(
    tmp_path: Path, as_text: bool
) -> None:
    [instance] = load_dataset(str(write_factorial(tmp_path, as_text=as_text)))
    [example] = instance.test_examples
    assert example.output == FACTORIAL_2000
    # What the sandbox answers for factorial(2000) is that text: a match.
    assert outputs_equal(example, CallResult(ok=True, value=FACTORIAL_2000, literal=True))
    assert not outputs_equal(example, CallResult(ok=True, value="1", literal=True))

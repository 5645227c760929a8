"""Whether a sandbox result matches an expected example (the code-match rule)."""

from __future__ import annotations

from pytest_pau.models import CallResult, Example
from pytest_pau.sandbox.literals import LiteralError, literal_equal, parse_literal

#: ``error_type`` values that are not exceptions of the method: they never match.
#: ``SandboxLimitation``: the call looked up a standard-library module the Wasm guest lacks,
#: so it did not run as in CPython. (A class of the method's with one of these names is
#: reported as ``__pau_method__.<name>``: it cannot pass for one of them.)
NOT_METHOD_ERRORS = frozenset({"Timeout", "InputError", "SandboxError", "SandboxLimitation"})


def outputs_equal(expected: Example, got: CallResult) -> bool:
    """Whether ``got`` reproduces ``expected``.

    Values are compared with ``==`` after reading both sides as literals (nan equals
    nan, also inside containers); values that are not literals are compared as text.
    An expected exception matches any exception of the method, whatever its type, as
    PAU's training reward counts it; a timeout, a refused input, a sandbox failure or a
    sandbox limitation never matches.
    """
    if expected.raises is not None:
        return not got.ok and got.error_type not in NOT_METHOD_ERRORS
    if not got.ok or got.value is None or got.truncated:
        return False
    try:
        want = parse_literal(expected.output)
        have = parse_literal(got.value)
    except LiteralError:
        return expected.output.strip() == got.value.strip()
    return bool(literal_equal(want, have))

"""Can the sandbox run a dataset as written? Checked at load, before any model is called.

A row the sandbox cannot run would not fail loudly later: a held-back input the sandbox
refuses (nested deeper than :data:`~pytest_pau.sandbox.literals.MAX_INPUT_DEPTH`, an integer
of more than :data:`~pytest_pau.sandbox.literals.MAX_INPUT_INT_DIGITS` digits) made every
coder's code "mismatch" on it (the oracle scored 0.5 code match instead of 1.0), and code
that does not compile, or no held-back example at all, made an item that fails or scores
for reasons that are not the model's. So each instance is checked here, with the rules the
sandbox itself applies (:meth:`~pytest_pau.sandbox.Sandbox.check_input`), and a problem is a
:class:`~pytest_pau.errors.DatasetError` naming the instance, the field and the example.

Code is compiled by the host first (no code runs; ~0.5 ms a method). The Wasm guest is a
newer CPython (3.14) than the host may be, so code the host refuses is compiled again by
the guest, and only the guest's refusal counts: f-strings with nested quotes or ``type``
statements are valid PAU methods.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_pau.errors import DatasetError

if TYPE_CHECKING:
    from pytest_pau.models import Instance
    from pytest_pau.sandbox.sandbox import Sandbox

#: How many problems one error lists (as the file loaders do).
MAX_PROBLEMS = 10

# Compiles its argument inside the guest: the method's code is compiled, never run.
_COMPILER = 'def test_func(src):\n    compile(src, "<test_func_validated>", "exec")\n'


def instance_problems(
    instance: Instance, *, backend: str = "wasm", compiler: Sandbox | None = None
) -> list[str]:
    """What keeps the sandbox from running ``instance`` as written (empty when nothing).

    Args:
        instance: The instance.
        backend: ``wasm`` (the guest decides what compiles) or ``process`` (the host does).
        compiler: A sandbox running the guest's compiler, reused across instances.
    """
    from pytest_pau.sandbox.sandbox import Sandbox

    problems = []
    syntax = _host_compile(instance.code)
    if syntax is not None and backend == "wasm":
        syntax = _guest_compile(instance.code, compiler)
    if syntax is not None:
        problems.append(f"field 'test_func_validated': the code does not compile ({syntax})")
    if not instance.test_examples:
        problems.append(
            "field 'test_examples': is empty; code match needs held-back examples (give at "
            "least one [input, output] pair)"
        )
    for field in ("train_examples", "test_examples"):
        for i, example in enumerate(getattr(instance, field)):
            refused = Sandbox.check_input(example.input)
            if refused is not None:
                problems.append(
                    f"field {field!r}: item {i}: the sandbox refuses this input: {refused.message}"
                )
    return problems


def check_instances(instances: Sequence[Instance], *, what: str, backend: str = "wasm") -> None:
    """Refuse a dataset with any instance the sandbox cannot run as written.

    Raises:
        DatasetError: ``<what>: instance 'src/id': field 'x': problem`` for each problem (up
            to :data:`MAX_PROBLEMS`).
    """
    errors: list[str] = []
    compiler: list[Sandbox] = []
    try:
        for instance in instances:
            if _host_compile(instance.code) is not None and backend == "wasm" and not compiler:
                compiler.append(_compiler_sandbox())
            for problem in instance_problems(
                instance, backend=backend, compiler=compiler[0] if compiler else None
            ):
                errors.append(f"instance {instance.id!r}: {problem}")
            if len(errors) >= MAX_PROBLEMS:
                errors.append("... (stopped after the first problems; fix these and load again)")
                break
    finally:
        for box in compiler:
            box.close()
    if errors:
        plural = "s" if len(errors) > 1 else ""
        raise DatasetError(
            f"{what}: {len(errors)} problem{plural} the sandbox would meet at run time, found "
            "at load (no model was called):\n  " + "\n  ".join(errors)
        )


def _host_compile(code: str) -> str | None:
    """``None`` when the host compiles ``code``, else the problem (no code runs)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning: invalid escape sequences...
            compile(code, "<test_func_validated>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return f"{type(exc).__name__}: {exc.msg} (line {exc.lineno})"
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, deep nesting
        return f"{type(exc).__name__}: {exc}"
    return None


def _compiler_sandbox() -> Sandbox:
    from pytest_pau.sandbox.sandbox import Sandbox

    return Sandbox(_COMPILER, backend="wasm")


def _guest_compile(code: str, compiler: Sandbox | None) -> str | None:
    """``None`` when the Wasm guest's CPython compiles ``code``, else its error."""
    box = compiler if compiler is not None else _compiler_sandbox()
    try:
        result = box.call(code)
    finally:
        if compiler is None:
            box.close()
    if result.ok:
        return None
    return f"{result.error_type}: {result.message}"

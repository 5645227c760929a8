"""Code match: a fixed coder model writes ``test_func`` from the description; the code runs
in the sandbox on the instance's test inputs and is compared with the true outputs."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pytest_pau.dataset.python_ast import check_compiles, parse_expression, parse_module
from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.models import CallResult, CodeMatchResult, Example, Mismatch, Usage
from pytest_pau.prompting import render, strip_think
from pytest_pau.prompting.evidence import clip, example_observation
from pytest_pau.scoring.integrity import defend, fence, neutralize

if TYPE_CHECKING:
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import Instance

Observed = Sequence[Example | tuple[str, CallResult]]
"""Examples the agent saw: dataset :class:`Example` objects or ``(input, CallResult)`` pairs."""

# Possessive runs (*+): the runs are of disjoint kinds, so the matches are the same, and a
# long run of blanks is not split between the two [ \t]* every way (quadratic).
_FENCE = re.compile(r"```[ \t]*+[A-Za-z0-9_+-]*+[ \t]*+\n(.*?)(?:```|\Z)", re.DOTALL)
_DEFINES = re.compile(r"^\s*def\s+test_func\s*\(", re.MULTILINE)
_CODE_START = re.compile(r"^(?:def|import|from|class|@)\b", re.MULTILINE)
#: Mismatches kept per result: enough to show the pattern, small enough for the report.
MAX_MISMATCHES = 5
#: Examples shown to the coder: the local model's context and speed are scarce.
MAX_PROMPT_EXAMPLES = 25
# Errors that say nothing about the method (the call never ran it, or not as in CPython),
# skipped when converting observations into examples: sandbox.match_rule.NOT_METHOD_ERRORS.
_NOT_BEHAVIOUR = {"InputError", "Timeout", "SandboxError", "SandboxLimitation"}


def as_example(item: Example | tuple[str, CallResult]) -> Example | None:
    """An observed call as an :class:`Example`; None when the call did not run the method."""
    if isinstance(item, Example):
        return item
    literal, result = item
    if result.ok:
        return Example(input=literal, output=result.value or "")
    if result.error_type in _NOT_BEHAVIOUR:
        return None
    return Example(input=literal, output=result.message or "", raises=result.error_type or "Error")


def as_examples(observed: Observed) -> list[Example]:
    """Convert and de-duplicate by input, first occurrence kept."""
    out: list[Example] = []
    seen: set[str] = set()
    for item in observed:
        example = as_example(item)
        if example is not None and example.input not in seen:
            seen.add(example.input)
            out.append(example)
    return out


def extract_code(reply: str) -> str:
    """The code in a coder reply.

    Prefers the last fenced block that defines ``test_func`` (later blocks are usually
    corrections), then any fenced block (an unclosed fence cut by the token cap counts),
    then the reply from its first ``def``/``import`` line.
    """
    text = strip_think(reply)
    blocks = [m.group(1).strip() for m in _FENCE.finditer(text)]
    defining = [b for b in blocks if _DEFINES.search(b)]
    if defining:
        return defining[-1]
    if blocks:
        return blocks[0]
    start = _CODE_START.search(text)
    return text[start.start() :].strip() if start else text.strip()


def check_code(code: str, entry: str = "test_func") -> str | None:
    """Why ``code`` cannot score (it does not compile, or defines no ``entry``), else None.

    Only compiles on the host; nothing is executed outside the sandbox.
    """
    if not code.strip():
        return "the coder's reply held no code"
    try:
        tree = parse_module(code)
        check_compiles(tree, "<coder>")
    except (SyntaxError, ValueError) as exc:
        return f"the code does not compile: {type(exc).__name__}: {exc}"
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == entry:
            return None
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == entry for t in node.targets
        ):
            return None
    return f"the code does not define {entry}() at top level"


def expected_text(example: Example) -> str:
    """An example's output as shown in mismatches (``ValueError: msg`` for exceptions)."""
    return example_observation(example)


class CodeRunner:
    """One live sandbox for one piece of code, with calls memoized by input.

    Code match and the self-contradiction check run the same code: sharing the runner
    saves a sandbox start and any input both use. Calls are deterministic (fresh
    globals and a seeded ``random`` per call), so memoizing them changes nothing.
    """

    _PROBE = "__pau_load_probe__"

    def __init__(self, code: str, *, backend: str = "wasm") -> None:
        self.code = code
        self.backend = backend
        self.problem = check_code(code)
        """Why the code cannot run at all (see :func:`check_code`), or None."""
        self._box: Any = None
        self._memo: dict[str, CallResult] = {}
        self._load_error: str | bool | None = False  # False: not computed yet

    def call(self, literal: str) -> CallResult:
        """The code's result on ``literal`` (memoized)."""
        if literal not in self._memo:
            if self._box is None:
                from pytest_pau.sandbox import Sandbox

                self._box = Sandbox(self.code, backend=self.backend)
            self._memo[literal] = self._box.call_literal(literal)
        return self._memo[literal]

    def load_error(self) -> str | None:
        """Why the module body fails as it loads (a missing module...), or None."""
        if self._load_error is False:
            from pytest_pau.sandbox import Sandbox

            probe = f"{self.code}\n\n\ndef {self._PROBE}():\n    return None\n"
            with Sandbox(probe, entry=self._PROBE, backend=self.backend) as box:
                got = box.call_literal("()")
            self._load_error = (
                None if got.ok else f"the code fails when loaded: {got.observation()}"
            )
        return self._load_error  # type: ignore[return-value]

    @property
    def bound_refusals(self) -> int:
        """Calls the run's sandbox memory bound refused (``Sandbox.bound_refusals``)."""
        return 0 if self._box is None else int(self._box.bound_refusals)

    def close(self) -> None:
        """Close the sandbox, if one was started."""
        if self._box is not None:
            self._box.close()
            self._box = None

    def __enter__(self) -> CodeRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_code(
    code: str,
    examples: Sequence[Example],
    *,
    backend: str = "wasm",
    runner: CodeRunner | None = None,
) -> CodeMatchResult:
    """Run ``code`` on every example input in one sandbox and compare outputs.

    Args:
        code: The code, defining ``test_func``.
        examples: Inputs and the outputs they must give.
        backend: Sandbox backend.
        runner: A live :class:`CodeRunner` of ``code`` to reuse (it stays open).

    Returns:
        A result with the score (matching fraction), the counts and the first
        :data:`MAX_MISMATCHES` mismatches; score 0 with ``error`` when the code cannot
        run at all; score None when there are no examples.
    """
    from pytest_pau.sandbox import outputs_equal

    own = runner is None
    runner = runner or CodeRunner(code, backend=backend)
    n = len(examples)
    try:
        if runner.problem is not None:
            return CodeMatchResult(
                score=0.0 if n else None, code=code, n_inputs=n, error=runner.problem
            )
        if not n:
            return CodeMatchResult(score=None, code=code, error="there are no examples to run")
        matched = 0
        both_raised = False
        mismatches: list[Mismatch] = []
        for example in examples:
            got = runner.call(example.input)
            if outputs_equal(example, got):
                matched += 1
                both_raised = both_raised or not got.ok
            elif len(mismatches) < MAX_MISMATCHES:
                mismatches.append(
                    Mismatch(
                        input=example.input, expected=expected_text(example), got=got.observation()
                    )
                )
        # "An exception on both sides" must not reward code that fails as it loads (a
        # missing module, a top-level error): it would "match" every raising example.
        if both_raised and (load_error := runner.load_error()) is not None:
            return CodeMatchResult(
                score=0.0, code=code, n_inputs=n, mismatches=mismatches, error=load_error
            )
        return CodeMatchResult(
            score=matched / n, code=code, n_inputs=n, n_matched=matched, mismatches=mismatches
        )
    finally:
        if own:
            runner.close()


_ENTRY = re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(", re.MULTILINE)


def call_text(entry: str, literal: str) -> str:
    """The call an input literal stands for: ``([5, -3],)`` -> ``test_func([5, -3])``.

    Inputs are argument tuples (a non-tuple literal is one argument, as the sandbox reads
    it). Shown as a call, a single list argument cannot be mistaken for the argument tuple.
    Text that does not parse is shown inside the parentheses unchanged.
    """
    text = literal.strip()
    try:
        node = parse_expression(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"{entry}({text})"
    if not isinstance(node, ast.Tuple):
        return f"{entry}({text})"
    parts = [ast.get_source_segment(text, element) for element in node.elts]
    if any(part is None for part in parts):
        return f"{entry}({text})"
    return f"{entry}({', '.join(p for p in parts if p is not None)})"


def example_line(entry: str, example: Example) -> str:
    """One line of the coder's examples: ``- test_func([5, -3, -2, 1]) -> False``."""
    return f"- {clip(call_text(entry, example.input))} -> {clip(example_observation(example))}"


def entry_of(header: str) -> str:
    """The function name the header defines (``test_func`` when none is found)."""
    found = _ENTRY.search(header)
    return found.group(1) if found else "test_func"


def coder_messages(
    instance: Instance, description: str, examples: Sequence[Example], *, seed: int = 0
) -> list[dict[str, str]]:
    """The coder's prompt: header, observed examples (as calls), description.

    The description is untrusted (the model under test wrote it): what it says to a
    grader is removed (:func:`~pytest_pau.scoring.integrity.analysis.defend`), the rest is fenced
    between per-call delimiters and declared data to implement.
    """
    entry = entry_of(instance.header)
    lines = [example_line(entry, e) for e in examples[-MAX_PROMPT_EXAMPLES:]]
    fenced = fence(
        neutralize(defend(description).text or "(empty)"), seed=seed, label="DESCRIPTION"
    )
    return [
        {"role": "system", "content": render("coder_system")},
        {
            "role": "user",
            "content": render(
                "coder",
                header=instance.header,
                examples="\n".join(lines) or "(none)",
                description=fenced.block,
                open=fenced.open,
                close=fenced.close,
            ),
        },
    ]


class Coder:
    """Writes code from a description and scores it by code match.

    Args:
        client: The coder model's client.
        seed: Seed of the coder calls.
        max_tokens: Cap on the coder's answer.
    """

    def __init__(
        self, client: SupportsComplete, *, seed: int = 0, max_tokens: int = DEFAULT_CAPS.coder
    ) -> None:
        self.client = client
        self.seed = seed
        self.max_tokens = max_tokens

    def write(self, instance: Instance, description: str, observed: Observed) -> tuple[str, Usage]:
        """Ask the coder for ``test_func``; returns the extracted code and the usage."""
        messages = coder_messages(instance, description, as_examples(observed), seed=self.seed)
        completion = self.client.complete(
            messages, temperature=0.0, max_tokens=self.max_tokens, seed=self.seed
        )
        return extract_code(completion.text), completion.usage()

    def code_match(
        self,
        instance: Instance,
        prediction: str,
        observed: Observed,
        *,
        backend: str = "wasm",
    ) -> CodeMatchResult:
        """Code match of ``prediction`` on ``instance.test_examples``.

        Args:
            instance: The instance (header and test examples are used).
            prediction: The description to write code from (the gold one for the control).
            observed: The examples the agent saw (starting examples and its own calls).
            backend: Sandbox backend for running the code (``--pau-sandbox``).
        """
        code, usage = self.write(instance, prediction, observed)
        result = run_code(code, instance.test_examples, backend=backend)
        result.usage = usage
        return result

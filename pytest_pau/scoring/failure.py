"""Why a failed item failed: the deterministic checks and the classifier model.

:func:`pytest_pau.scoring.attribution.attribute` decides, in its order (a coder limitation
and an agent that said nothing come first); the pieces here:

- ``self_contradiction``: the coder's code for the final description, re-run on the
  inputs the agent itself queried, disagrees with outputs the agent saw. The final
  hypothesis contradicts evidence that was in the agent's own context (reported only
  where the gold control shows the coder faithful to descriptions).
- ``format_following``: most act replies had no readable input.
- The classifier (the judge model) picks one of :data:`CLASSIFIER_LABELS`; an
  unreadable answer defaults to ``insufficient_exploration``, and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.models import FailureMode, Mismatch, Observation, Usage
from pytest_pau.prompting import render, strip_think
from pytest_pau.prompting.evidence import observation_line
from pytest_pau.scoring.coder import CodeRunner, as_examples, check_code, run_code
from pytest_pau.scoring.integrity import fence, neutralize

if TYPE_CHECKING:
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import Instance, Trajectory

#: What the classifier model may answer: the failure modes no deterministic check decides.
CLASSIFIER_LABELS: tuple[str, ...] = tuple(
    str(m)
    for m in (
        FailureMode.INSUFFICIENT_EXPLORATION,
        FailureMode.REASONING_ERROR,
        FailureMode.FORMAT_FOLLOWING,
        FailureMode.HALLUCINATION,
    )
)
DEFAULT_LABEL = str(FailureMode.INSUFFICIENT_EXPLORATION)
#: Calls shown to the classifier: the most recent ones, as the agent itself saw them.
MAX_CLASSIFIER_CALLS = 20
# Possessive runs (*+) before the colon: the same matches, and a long run of blanks after
# "label" is not split between the two \s* every way (quadratic: 1.3 s for 20,000 characters).
_LABEL_LINE = re.compile(r"label\s*+[*_`]*+\s*+:\s*[*_`]*\s*([a-z_ -]+)", re.IGNORECASE)


@dataclass
class SelfContradiction:
    """The outcome of the self-contradiction check."""

    fired: bool
    checked: int = 0
    """Observed inputs the code was run on."""
    count: int = 0
    """How many observed calls the code disagrees with."""
    disagreements: list[Mismatch] = field(default_factory=list)
    """The first few of them."""

    def detail(self) -> str:
        """One line for the report: the first disagreement."""
        if not self.disagreements:
            return f"consistent with all {self.checked} observed calls"
        d = self.disagreements[0]
        return (
            f"disagrees with {self.count} of {self.checked} observed calls; "
            f"first: input {d.input}: the agent saw {d.expected}, the code written from its description gives {d.got}"
        )


def self_contradiction(
    code: str,
    trajectory: Trajectory,
    *,
    backend: str = "wasm",
    runner: CodeRunner | None = None,
) -> SelfContradiction:
    """Run the coder's ``code`` on the agent's own queried inputs and compare.

    Only the agent's own calls count (not the starting examples), and calls that never ran
    the method (refused input, timeout) are skipped, on either side. Code that cannot run (no
    ``test_func``, syntax error, an error as it loads) never fires: that is the coder's
    failure, not evidence about the agent.

    Args:
        code: The coder's code for the final description.
        trajectory: The agent's episode.
        backend: Sandbox backend.
        runner: A live :class:`CodeRunner` of ``code`` to reuse (code match's).
    """
    from pytest_pau.sandbox.match_rule import NOT_METHOD_ERRORS

    examples = as_examples(trajectory.observed())
    if not examples or check_code(code) is not None:
        return SelfContradiction(fired=False, checked=0)
    own = runner is None
    runner = runner or CodeRunner(code, backend=backend)
    try:
        # The coder's code timing out (or the sandbox failing) on an input says nothing
        # about the agent's evidence: only inputs where the code really answered count.
        # Calls are memoized, so filtering costs no second run.
        usable = [
            ex for ex in examples if runner.call(ex.input).error_type not in NOT_METHOD_ERRORS
        ]
        result = run_code(code, usable, runner=runner)
        fired = result.n_matched < result.n_inputs and runner.load_error() is None
    finally:
        if own:
            runner.close()
    return SelfContradiction(
        fired=fired,
        checked=result.n_inputs,
        count=result.n_inputs - result.n_matched if fired else 0,
        disagreements=result.mismatches if fired else [],
    )


def mostly_format_failures(trajectory: Trajectory) -> bool:
    """Whether more than half of the act replies had no readable input.

    A reply the token cap cut short is the cap's failure, not the model's: it never counts.
    """
    acts = [s for s in trajectory.steps if s.kind == "act"]
    failures = sum(1 for s in acts if s.format_error is not None and not s.truncated)
    return bool(acts) and failures * 2 > len(acts)


def parse_label(reply: str) -> str | None:
    """The label in a classifier reply: a ``Label:`` line, else the last label named."""
    text = strip_think(reply)
    for match in reversed(_LABEL_LINE.findall(text)):
        word = re.sub(r"[\s-]+", "_", match.strip().lower())
        for label in CLASSIFIER_LABELS:
            if word.startswith(label):
                return label
    lower = re.sub(r"[\s-]+", "_", text.lower())
    found = [(lower.rfind(label), label) for label in CLASSIFIER_LABELS if label in lower]
    return max(found)[1] if found else None


def classifier_messages(
    instance: Instance, trajectory: Trajectory, prediction: str
) -> list[dict[str, str]]:
    """The classifier's prompt: gold description, the agent's calls, its prediction."""
    lines: list[str] = []
    for step in trajectory.steps:
        if step.kind != "act":
            continue
        if step.parsed_input is None:
            lines.append(f"- (reply with no readable input: {step.format_error})")
        elif step.result is not None:
            lines.append(
                observation_line(Observation(step.parsed_input, step.result.observation()))
            )
    calls = "\n".join(lines[-MAX_CLASSIFIER_CALLS:]) or "(no calls)"
    # The prediction is untrusted: fenced, with what imitates a label or a role made inert.
    fenced = fence(neutralize(prediction or "(empty)", hazards=(_LABEL_LINE,)), label="DESCRIPTION")
    return [
        {
            "role": "user",
            "content": render(
                "classify",
                gold=instance.description,
                calls=calls,
                prediction=fenced.block,
                open=fenced.open,
                close=fenced.close,
            ),
        }
    ]


def classify_failure(
    client: SupportsComplete,
    instance: Instance,
    trajectory: Trajectory,
    prediction: str,
    *,
    seed: int = 0,
    max_tokens: int = DEFAULT_CAPS.classify,
) -> tuple[str, bool, Usage]:
    """Ask the classifier model why the item failed.

    Returns:
        ``(label, parsed, usage)``: ``parsed`` is False when the answer named no label
        and :data:`DEFAULT_LABEL` was used.
    """
    completion = client.complete(
        classifier_messages(instance, trajectory, prediction),
        temperature=0.0,
        max_tokens=max_tokens,
        seed=seed,
    )
    label = parse_label(completion.text)
    return (label or DEFAULT_LABEL), label is not None, completion.usage()

"""Your own agent, run and scored by pytest-pau like the builtin one.

``pytest --pau-model=table-agent`` uses the agent below; any other model name falls
back to the builtin reason-act-reflect agent. The agent gets the instance (only its
``header`` and ``train_examples`` are fair to use: the rest is the answer) and a sandbox
that runs the hidden method; it returns a Trajectory whose ``prediction`` is the
description the judge and the coder see.
"""

from __future__ import annotations

from pytest_pau.models import Step, Trajectory, Usage


class TableAgent:
    """Calls the method on each starting input plus a few probes; describes what it saw.

    Replace ``describe`` with a call to your own model: ``client.complete(messages)``
    (the client of --pau-model, cached and budgeted by pytest-pau) or anything else.
    """

    probes = ("()", "(0,)", "('',)", "([],)")

    def __init__(self, client=None, max_iterations=20):
        self.client = client
        self.max_iterations = max_iterations

    def run(self, instance, sandbox):
        inputs = [ex.input for ex in instance.train_examples] + list(self.probes)
        steps = []
        for i, text in enumerate(inputs[: self.max_iterations], start=1):
            result = sandbox.call_literal(text)  # never raises for the method's own errors
            steps.append(
                Step(
                    kind="act",
                    iteration=i,
                    prompt="(table agent)",
                    response=text,
                    parsed_input=text,
                    result=result,
                )
            )
        prediction = self.describe(instance.header, steps)
        return Trajectory(
            steps=steps, prediction=prediction, concluded=True, n_queries=len(steps), usage=Usage()
        )

    def describe(self, header, steps):
        seen = "; ".join(f"{s.parsed_input} -> {s.result.observation()}" for s in steps)
        return f"For {header.strip()} these calls were observed: {seen}."


def pytest_pau_make_agent(config, settings, client):
    if settings.model == "table-agent":
        return TableAgent(client, max_iterations=settings.max_iterations)
    return None  # the builtin agent for every other --pau-model

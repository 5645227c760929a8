"""Harness overhead: one full 20-iteration episode plus scoring, with models that cost nothing.

What it measures (one run, one machine, figures printed as ratios against a baseline
measured in the same run):

1. In-process zero-latency model (a fake client whose ``complete`` returns at once):
   the wall time of ``Evaluator.evaluate`` on the worst path (20 iterations, never
   concluding, judged failing, then self-contradiction check and classifier call) is
   all harness: prompts, parsing, sandbox calls, code match, bookkeeping.
   Target: under 100 ms. Baseline: the bare sandbox work of the same item (a fresh
   sandbox and the same 20 calls, then a fresh sandbox and the test inputs), i.e. what
   no harness can avoid.
2. The same item through the real client path: ScriptedLLM over HTTP with litellm,
   with 0 ms and 50 ms of model latency; the share of wall time spent outside
   ``client.complete`` (the harness) is reported.

Run: ``.venv/bin/python benchmarks/harness_bench.py [--repeats 10]``.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from pytest_pau.dataset import load_dataset
from pytest_pau.models import Completion, Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.sandbox import Sandbox
from pytest_pau.scoring import Evaluator
from pytest_pau.settings import PauSettings

ITERATIONS = 20
# CPU time of each run_once: on a shared 2-core machine wall time also counts other
# processes' load; the process's CPU time (wasmtime runs in-process) does not.
CPU_S: list[float] = []


def policy(instance: Instance) -> Any:
    """A scripted model: explores 20 inputs, never concludes, is judged 2, codes the truth."""
    inputs = [e.input for e in [*instance.train_examples, *instance.test_examples]]
    state = {"act": 0}

    def reply(messages: list[dict[str, Any]]) -> str:
        last = messages[-1]["content"]
        if re.search(MARKERS["reason"], last):
            return "Try another input of a different size; expect a similar pattern."
        if re.search(MARKERS["act"], last):
            state["act"] += 1
            return f"INPUT: {inputs[state['act'] % len(inputs)]}"
        if re.search(MARKERS["reflect"], last):
            return f"CONCLUDE: NO\nSUMMARY: hypothesis number {state['act']}; test more."
        if re.search(MARKERS["judge"], last):
            return "Partly right.\nRating: 2"
        if re.search(MARKERS["coder"], last):
            return f"```python\n{instance.code}\n```"
        if re.search(MARKERS["classify"], last):
            return "Label: reasoning_error"
        raise AssertionError(last[:200])

    return reply


class FakeClient:
    """An in-process client with zero latency; counts the time spent inside ``complete``."""

    def __init__(self, reply: Any) -> None:
        self.reply = reply
        self.model_s = 0.0

    def complete(self, messages: list[dict[str, str]], **_: Any) -> Completion:
        start = time.perf_counter()
        text = self.reply(messages)
        completion = Completion(
            text=text,
            model="fake",
            prompt_tokens=sum(len(m["content"].split()) for m in messages),
            completion_tokens=len(text.split()),
        )
        self.model_s += time.perf_counter() - start
        return completion


class TimedClient:
    """Wraps a real client and adds up the wall time spent in ``complete``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.model_s = 0.0

    def complete(self, messages: list[dict[str, str]], **kwargs: Any) -> Completion:
        start = time.perf_counter()
        try:
            return self.inner.complete(messages, **kwargs)
        finally:
            self.model_s += time.perf_counter() - start


def run_once(instance: Instance, make_client: Any) -> tuple[float, float, Any]:
    clients: list[Any] = []

    def factory(model: str, api_base: str | None) -> Any:
        clients.append(make_client())
        return clients[-1]

    config = PauSettings(
        model="bench", judge_model="bench", coder_model="bench", max_iterations=ITERATIONS
    )
    evaluator = Evaluator(config, client_factory=factory)
    cpu = time.process_time()
    start = time.perf_counter()
    result = evaluator.evaluate(instance)
    wall = time.perf_counter() - start
    CPU_S.append(time.process_time() - cpu)
    return wall, sum(c.model_s for c in clients), result


def baseline_once(instance: Instance, result: Any) -> float:
    """The sandbox work the item needs at minimum: its 20 calls and the test inputs."""
    queried = [s.parsed_input for s in result.trajectory if s.kind == "act" and s.parsed_input]
    start = time.perf_counter()
    with Sandbox(instance.code) as box:
        for literal in queried:
            box.call_literal(literal)
    with Sandbox(instance.code) as box:
        for example in instance.test_examples:
            box.call_literal(example.input)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    args = parser.parse_args()

    instance = next(i for i in load_dataset("builtin") if "smoke" in i.tags)
    print(
        f"instance {instance.id}: {len(instance.test_examples)} test inputs, {ITERATIONS} iterations"
    )

    # Warm-up: builds/loads the wasm component, imports, first-call caches.
    run_once(instance, lambda: FakeClient(policy(instance)))
    harness, model, base = [], [], []
    CPU_S.clear()
    for _ in range(args.repeats):
        wall, model_s, result = run_once(instance, lambda: FakeClient(policy(instance)))
        harness.append(wall - model_s)
        model.append(model_s)
        base.append(baseline_once(instance, result))
    assert result.model_calls == 3 * ITERATIONS + 3, result.model_calls
    assert result.failure_mode == "reasoning_error", result.failure_mode
    h, b = statistics.median(harness), statistics.median(base)
    print("\n1. zero-latency in-process model, worst path (63 model calls):")
    print(
        f"   harness time per item   median {h * 1e3:7.1f} ms   (p max {max(harness) * 1e3:.1f} ms)   target < 100 ms: {'OK' if h < 0.1 else 'MISSED'}"
    )
    print(f"   harness CPU time        median {statistics.median(CPU_S) * 1e3:7.1f} ms")
    print(f"   baseline (bare sandbox) median {b * 1e3:7.1f} ms")
    print(f"   harness / baseline      {h / b:7.2f}x")
    print(f"   time inside the fake model: {statistics.median(model) * 1e3:.2f} ms")

    from pytest_pau.llm import LLMClient
    from pytest_pau.testing import ScriptedLLM

    print("\n2. real client path (litellm -> HTTP -> ScriptedLLM), no cache:")
    for delay in (0.0, args.latency_ms / 1e3):
        with ScriptedLLM(policy(instance), delay_s=delay) as llm:

            def make(llm: ScriptedLLM = llm) -> TimedClient:
                return TimedClient(LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key))

            run_once(instance, make)  # warm-up (litellm import, connection pool)
            wall, model_s, _ = run_once(instance, make)
        outside = wall - model_s
        print(
            f"   model latency {delay * 1e3:4.0f} ms: wall {wall:6.2f} s, inside complete() {model_s:6.2f} s, "
            f"outside the model {outside * 1e3:6.1f} ms = {outside / wall:6.1%} of wall time"
        )
    return 0 if h < 0.1 else 1


if __name__ == "__main__":
    sys.exit(main())

"""How many concurrent litellm calls reach one base URL at once (see litellm-reasoning.md).

    cd <worktree> && PYTHONPATH=$PWD /work/main/.venv/bin/python notes/concurrency_probe.py
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from pytest_pau.llm import LLMClient, get_litellm
from pytest_pau.testing import ScriptedLLM


def threads(n: int, via: str, delay: float = 1.0) -> None:
    litellm = get_litellm()
    with ScriptedLLM(default="ok", delay_s=delay) as llm:
        client = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)
        client.complete([{"role": "user", "content": "warm up"}])  # import, client cache
        gate = threading.Barrier(n + 1)

        def ask(i: int) -> str:
            gate.wait()
            msgs = [{"role": "user", "content": f"n{i}"}]
            if via == "LLMClient":
                return client.complete(msgs).text
            r = litellm.completion(
                model=llm.model, api_base=llm.api_base, api_key=llm.api_key,
                messages=msgs, max_retries=0, timeout=600,
            )
            return str(r.choices[0].message.content)

        with ThreadPoolExecutor(max_workers=n) as pool:
            futures = [pool.submit(ask, i) for i in range(n)]
            gate.wait()
            t0 = time.monotonic()
            texts = [f.result() for f in futures]
            wall = time.monotonic() - t0
        assert texts == ["ok"] * n
        burst = llm.exchanges[1:]
        print(
            f"{via:>18} threads={n:3d} delay={delay}s: wall={wall:.2f}s "
            f"max_in_flight={llm.max_in_flight} overlap={sum(e.duration or 0 for e in burst) / wall:.1f} "
            f"first->last arrival={max(e.start for e in burst) - min(e.start for e in burst):.2f}s"
        )


def coroutines(n: int, delay: float = 1.0) -> None:
    litellm = get_litellm()
    with ScriptedLLM(default="ok", delay_s=delay) as llm:

        async def main() -> float:
            t0 = time.monotonic()
            await asyncio.gather(*[
                litellm.acompletion(
                    model=llm.model, api_base=llm.api_base, api_key=llm.api_key,
                    messages=[{"role": "user", "content": f"n{i}"}], max_retries=0,
                )
                for i in range(n)
            ])
            return time.monotonic() - t0

        wall = asyncio.run(main())
        print(f"{'acompletion':>18} tasks={n:5d} delay={delay}s: wall={wall:.2f}s max_in_flight={llm.max_in_flight}")


if __name__ == "__main__":
    sizes = [int(a) for a in sys.argv[1:]] or [64, 128]
    for n in sizes:
        threads(n, "LLMClient")
        threads(n, "litellm.completion")
        coroutines(n)

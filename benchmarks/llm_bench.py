"""Model-layer speed: client overhead, cache hits, embedded-model throughput.

Every figure is measured beside its baseline in the same run:

- client overhead: ``LLMClient.complete`` (litellm, retries, cost, no cache) against a raw
  ``httpx`` POST of the same request to the same ScriptedLLM server (target: < 2 ms more),
  split into the time inside ``litellm.completion`` and our own (measured per call);
- cache hit: ``complete`` served from the SQLite cache (target: < 1 ms), against the raw
  HTTP round trip;
- embedded models: tokens per second through ``LLMClient`` against calling
  llama-cpp-python directly on the same loaded model.

Run: ``python benchmarks/llm_bench.py [--calls 200] [--tokens 64] [--skip-local]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_pau.llm import LLMClient, ResponseCache, get_litellm, make_client
from pytest_pau.testing import ScriptedLLM

MESSAGES = [
    {"role": "system", "content": "You explore a hidden Python method."},
    {"role": "user", "content": "Which input should we try next? Answer with a tuple."},
]


def timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs) * 1e3:7.3f} ms   p90 {sorted(xs)[int(len(xs) * 0.9)] * 1e3:7.3f} ms"


def bench_http(calls: int) -> None:
    get_litellm()  # import cost is paid once per process; not part of a call
    with ScriptedLLM(default="(1, 2)") as llm, tempfile.TemporaryDirectory() as tmp:
        url = f"{llm.api_base}/chat/completions"
        body = {
            "model": "scripted",
            "messages": MESSAGES,
            "temperature": 0.0,
            "max_tokens": 512,
            "seed": 0,
        }
        headers = {"Authorization": f"Bearer {llm.api_key}"}
        with httpx.Client() as http:

            def raw() -> object:
                return http.post(url, json=body, headers=headers).json()

            client = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)
            cached = LLMClient(
                llm.model, api_base=llm.api_base, api_key=llm.api_key, cache=ResponseCache(tmp)
            )

            litellm = get_litellm()
            real_completion = litellm.completion
            in_litellm: list[float] = []

            def timed_completion(*args: object, **kwargs: object) -> object:
                start = time.perf_counter()
                try:
                    return real_completion(*args, **kwargs)
                finally:
                    in_litellm.append(time.perf_counter() - start)

            def full() -> object:
                # Time spent inside litellm.completion is recorded per call, so our own
                # share is measured, not inferred from the bare call (which, unlike
                # LLMClient, still builds litellm's success log).
                litellm.completion = timed_completion
                try:
                    return client.complete(MESSAGES)
                finally:
                    litellm.completion = real_completion

            def bare() -> object:
                return litellm.completion(
                    model=llm.model,
                    messages=MESSAGES,
                    api_base=llm.api_base,
                    api_key=llm.api_key,
                    temperature=0.0,
                    max_tokens=512,
                    seed=0,
                    max_retries=0,
                )

            for fn in (raw, bare, full):  # warm connections, litellm's client cache
                timed(fn, 10)
            raw_t, bare_t, full_t, ours_t = [], [], [], []
            for _ in range(calls // 20):  # interleave so all see the same machine load
                raw_t += timed(raw, 20)
                bare_t += timed(bare, 20)
                in_litellm.clear()
                block = timed(full, 20)
                full_t += block
                ours_t += [t - inner for t, inner in zip(block, in_litellm, strict=True)]
            cached.complete(MESSAGES)
            hit_t = timed(lambda: cached.complete(MESSAGES), calls)
        overhead = statistics.median(full_t) - statistics.median(raw_t)
        print(f"raw httpx POST            {ms(raw_t)}   (baseline)")
        print(
            f"litellm.completion        {ms(bare_t)}   x{statistics.median(bare_t) / statistics.median(raw_t):.2f}"
        )
        print(
            f"LLMClient, no cache       {ms(full_t)}   x{statistics.median(full_t) / statistics.median(raw_t):.2f}"
        )
        print(
            f"  client overhead         {overhead * 1e3:7.3f} ms per call over raw httpx (target < 2 ms)"
        )
        ours = statistics.median(ours_t)
        print(
            f"    of which litellm      {(overhead - ours) * 1e3:7.3f} ms; ours (key, retries, cost) {ours * 1e3:6.3f} ms"
        )
        print(
            f"LLMClient, cache hit      {ms(hit_t)}   x{statistics.median(hit_t) / statistics.median(raw_t):.3f} "
            "of a raw round trip (target < 1 ms)"
        )


def bench_local(name: str, tokens: int) -> None:
    from pytest_pau.llm.local.provider import generate, get_llama

    start = time.perf_counter()
    llm = get_llama(name)
    load = time.perf_counter() - start
    prompt = [
        {
            "role": "user",
            "content": "Write a Python function that reverses the words of a sentence.",
        }
    ]
    client = make_client(name, no_cache=True)
    client.complete(prompt, max_tokens=4)  # warm: first-call setup is not throughput

    def direct() -> tuple[int, float]:
        t = time.perf_counter()
        out = llm.create_chat_completion(
            messages=prompt, temperature=0.0, max_tokens=tokens, seed=0
        )  # type: ignore[arg-type]
        return int(out["usage"]["completion_tokens"]), time.perf_counter() - t  # type: ignore[index]

    def through_client(logprobs: int | None = None) -> tuple[int, float]:
        t = time.perf_counter()
        answer = client.complete(prompt, max_tokens=tokens, logprobs=logprobs)
        return answer.completion_tokens, time.perf_counter() - t

    base_n, base_s = direct()
    n, s = through_client()
    lp_n, lp_s = through_client(5)
    _ = generate  # same path the provider uses
    print(f"{name:12s} load {load:5.2f} s (weights verified, then mmap)")
    print(
        f"  llama-cpp direct        {base_n / base_s:6.1f} tokens/s   (baseline, {base_n} tokens)"
    )
    print(f"  LLMClient               {n / s:6.1f} tokens/s   x{(n / s) / (base_n / base_s):.2f}")
    print(
        f"  LLMClient, logprobs=5   {lp_n / lp_s:6.1f} tokens/s   x{(lp_n / lp_s) / (base_n / base_s):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--skip-local", action="store_true")
    args = parser.parse_args()
    bench_http(args.calls)
    if not args.skip_local:
        from pytest_pau.errors import LocalModelError

        for name in ("local-small", "local"):
            try:
                bench_local(name, args.tokens)
            except LocalModelError as exc:
                print(f"{name}: skipped ({exc})")


if __name__ == "__main__":
    main()

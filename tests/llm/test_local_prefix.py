"""The embedded model keeps each conversation's evaluated prefix (llm/local/prefix.py).

The fast tests check the cache's bookkeeping on made-up states; the slow one runs a
5-turn episode on the real ``local-small`` model, with a judge-like call after every turn,
once without the cache and once with it.
"""

from __future__ import annotations

import importlib.util
import itertools
from typing import Any

import numpy as np
import pytest

from pytest_pau.llm.local import prefix
from pytest_pau.llm.local.prefix import PrefixCache, SeqState


def state(tokens: list[int], size: int = 100) -> SeqState:
    return SeqState(np.array(tokens, dtype=np.intc), len(tokens), b"x" * size)


def test_the_longest_shared_prefix_wins_and_an_extended_entry_goes() -> None:
    cache = PrefixCache(capacity=10_000)
    cache[[1, 2, 3, 9]] = state([1, 2, 3])  # the key holds the last sampled token too
    cache[[7, 8, 9]] = state([7, 8, 9])
    assert cache[[1, 2, 3, 4, 5]].n_tokens == 3
    assert cache[[7, 8, 1]].n_tokens == 3
    with pytest.raises(KeyError):
        cache[[5, 5, 5]]
    cache[[1, 2, 3, 4, 5, 6]] = state([1, 2, 3, 4, 5])  # the episode's next turn
    assert [len(k) for k in cache.entries] == [3, 5], "the turn it extends is dropped"
    assert cache.cache_size == 2 * (100 + 3 * 4) + 2 * 4


def test_the_capacity_holds_least_recently_used_out() -> None:
    one = state([1, 2], size=400).nbytes
    cache = PrefixCache(capacity=2 * one)
    cache[[1, 2]] = state([1, 2], size=400)
    cache[[3, 4]] = state([3, 4], size=400)
    cache[[1, 2, 0]]
    cache[[5, 6]] = state([5, 6], size=400)
    assert set(cache.entries) == {(1, 2), (5, 6)}
    assert cache.cache_size == 2 * one
    cache[[9]] = state([9], size=10 * one)  # larger than the whole cache: not kept
    assert (9,) not in cache.entries


def test_the_capacity_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAU_LOCAL_PREFIX_CACHE_MB", "0")
    assert prefix.capacity_bytes() == 0
    monkeypatch.setenv("PAU_LOCAL_PREFIX_CACHE_MB", "lots")
    with pytest.raises(ValueError, match=r"PAU_LOCAL_PREFIX_CACHE_MB='lots'.*megabytes"):
        prefix.capacity_bytes()


def test_llama_cpp_still_has_what_the_cache_relies_on() -> None:
    # The cache uses attributes of llama_cpp.Llama that are not public: fail here, loudly,
    # when an upgrade renames them (install() would fall back to no cache, with a warning).
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed")
    import inspect

    import llama_cpp
    from llama_cpp import Llama

    source = inspect.getsource(Llama)
    for name in ("self._ctx", "self.input_ids", "self.n_tokens", "self._requires_eval"):
        assert name in source, name
    for name in ("eval", "set_cache", "save_state", "load_state"):
        assert callable(getattr(Llama, name)), name
    for name in (
        "llama_state_seq_get_size",
        "llama_state_seq_get_data",
        "llama_state_seq_set_data",
    ):
        assert hasattr(llama_cpp, name), name


CODE = "def test_func(xs, k):\n    return sorted(x * k for x in xs)[: len(xs) // 2]\n"


def judge(turn: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": "You rate how well a description matches code, 1 to 5."},
        {
            "role": "user",
            "content": f"Code:\n{CODE}\nDescription {turn}: sorts the scaled items. One digit.",
        },
    ]


def episode(run: Any) -> list[tuple[str, int, int, str]]:
    """Five turns, each followed by a judge call: ``(label, sent, evaluated, reply)``."""
    messages = [
        {"role": "system", "content": "You probe an unknown Python function with inputs."},
        {
            "role": "user",
            "content": "Header: def test_func(xs, k):\nExamples:\n"
            + "\n".join(f"test_func({list(range(i, i + 4))}, {i % 3 + 1})" for i in range(3))
            + "\nPropose the next input as a tuple.",
        },
    ]
    rows = []
    for turn in range(1, 6):
        reply, sent, evaluated = run(messages, 8)
        rows.append((f"turn{turn}", sent, evaluated, reply))
        messages = [
            *messages,
            {"role": "assistant", "content": reply},
            {"role": "user", "content": f"Observed: test_func([{turn}, 2], 2) == [2]. Next?"},
        ]
        reply, sent, evaluated = run(judge(turn), 2)
        rows.append((f"judge{turn}", sent, evaluated, reply))
    return rows


@pytest.mark.local_model
@pytest.mark.slow
def test_a_turn_evaluates_only_its_new_tokens_whatever_ran_between() -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip('needs the local-small extra: pip install "pytest-pau[local-small]"')
    from pytest_pau.llm.local.provider import generate, get_llama

    llm = get_llama("local-small")
    installed: object = llm.cache
    assert isinstance(installed, PrefixCache), "installed with the model"

    def run(messages: list[dict[str, str]], max_tokens: int) -> tuple[str, int, int]:
        out = generate("local-small", messages, max_tokens=max_tokens)
        reply = out["choices"][0]["message"]["content"]
        return reply, out["usage"]["prompt_tokens"], out["pau_prompt_evaluated"]

    kept = llm.cache
    try:
        llm.set_cache(None)
        uncached = episode(run)
        llm.set_cache(PrefixCache(256 << 20))  # type: ignore[arg-type]
        cached = episode(run)
    finally:
        llm.set_cache(kept)
    assert [r[3] for r in cached] == [r[3] for r in uncached], "the same replies"
    assert [r[1] for r in cached] == [r[1] for r in uncached], "the same prompts"
    turns = [r for r in cached if r[0].startswith("turn")]
    for (_, before, _, _), (label, sent, evaluated, _) in itertools.pairwise(turns):
        # Only what the turn added: the last reply and the new user message (<= 40 tokens).
        assert evaluated <= sent - before, label
        assert evaluated <= 40, (label, evaluated, sent)
    old_turns = [r for r in uncached if r[0].startswith("turn")][1:]
    assert all(r[2] >= r[1] - 10 for r in old_turns), "uncached: every turn evaluated whole"
    total_cached = sum(r[2] for r in cached)
    total_uncached = sum(r[2] for r in uncached)
    assert total_cached < 0.5 * total_uncached, (total_cached, total_uncached)

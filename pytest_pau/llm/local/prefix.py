"""Keeping each conversation's evaluated prefix for the embedded model (llama.cpp).

An episode sends every turn as a whole prompt: the system prompt, the examples, and every
turn so far. llama.cpp reuses only the prefix the new prompt shares with the tokens its
context holds now, so a judge or coder call in between (or another episode, under
``--pau-concurrency``) makes the next turn evaluate the whole history again: measured on
the 0.5B model, 7,041 of 7,080 prompt tokens evaluated over a 5-turn episode with a judge
call after each turn.

:class:`PrefixCache` keeps the state of the sequence after each call (its KV cache, read
with ``llama_state_seq_get_data``: ~12 KB per token for the 0.5B model, ~29 KB for the
1.5B), keyed by the tokens it holds, and hands llama-cpp-python the entry that shares the
longest prefix with the next prompt (its ``Llama.cache`` protocol). Only the new tokens are
then evaluated: 1,580 of 7,080 in the same episode, with identical replies. llama-cpp-python's
own ``LlamaRAMCache`` would do the same, but its saved states copy the context's whole
logits buffer (311 MB per entry for Qwen's 152k vocabulary), which its capacity does not
count: 3.3 GB after ten calls.

The cache holds at most ``PAU_LOCAL_PREFIX_CACHE_MB`` megabytes (default
:data:`DEFAULT_CAPACITY_MB`; 0 turns it off), least recently used first out; an entry that
a newer one extends is dropped at once (one entry per conversation).

This relies on attributes of ``llama_cpp.Llama`` 0.3.x that are not public (``_ctx``,
``input_ids``, ``n_tokens``, ``_requires_eval``); :func:`install` checks them and leaves
the model uncached, with a warning, where they changed.
"""

from __future__ import annotations

import collections
import ctypes
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from llama_cpp import Llama

DEFAULT_CAPACITY_MB = 512
_NEEDED = ("_ctx", "input_ids", "n_tokens", "_requires_eval", "eval", "cache")


def capacity_bytes() -> int:
    """``PAU_LOCAL_PREFIX_CACHE_MB`` in bytes (default :data:`DEFAULT_CAPACITY_MB`)."""
    raw = os.environ.get("PAU_LOCAL_PREFIX_CACHE_MB", "").strip()
    if not raw:
        return DEFAULT_CAPACITY_MB << 20
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if value < 0:
        raise ValueError(
            f"PAU_LOCAL_PREFIX_CACHE_MB={raw!r}: expected a number of megabytes >= 0 "
            f"(0 turns the embedded model's prefix cache off; default {DEFAULT_CAPACITY_MB})."
        )
    return int(value * (1 << 20))


@dataclass
class SeqState:
    """One saved sequence: the tokens it holds and its KV cache (what ``load_state`` takes)."""

    input_ids: np.ndarray[Any, np.dtype[np.intc]]
    n_tokens: int
    llama_state: bytes

    @property
    def llama_state_size(self) -> int:
        return len(self.llama_state)

    @property
    def nbytes(self) -> int:
        return len(self.llama_state) + int(self.input_ids.nbytes)


def _common_prefix(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> int:
    n = min(len(a), len(b))
    if n == 0:
        return 0
    differs = np.flatnonzero(a[:n] != b[:n])
    return int(differs[0]) if differs.size else n


class PrefixCache:
    """Saved sequences by their tokens, least recently used out (llama-cpp-python's cache protocol).

    Args:
        capacity: The most bytes of saved state kept.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.entries: collections.OrderedDict[tuple[int, ...], SeqState] = collections.OrderedDict()
        self.cache_size = 0
        """Bytes held (llama-cpp-python reads this name)."""

    def _best(self, key: Sequence[int]) -> tuple[tuple[int, ...], int] | None:
        tokens = np.asarray(key, dtype=np.intc)
        best: tuple[tuple[int, ...], int] | None = None
        for stored, state in self.entries.items():
            shared = _common_prefix(state.input_ids, tokens)
            if shared and (best is None or shared > best[1]):
                best = (stored, shared)
        return best

    def __getitem__(self, key: Sequence[int]) -> SeqState:
        found = self._best(key)
        if found is None:
            raise KeyError("no saved sequence shares a prefix with the prompt")
        self.entries.move_to_end(found[0])
        return self.entries[found[0]]

    def __contains__(self, key: Sequence[int]) -> bool:
        return self._best(key) is not None

    def __setitem__(self, key: Sequence[int], state: SeqState) -> None:
        stored = tuple(state.input_ids.tolist())  # what the context holds (not the last token)
        # An entry this one extends is of no use any more: any prompt shares at least as
        # much with the new one.
        for old in [k for k in self.entries if stored[: len(k)] == k]:
            self.cache_size -= self.entries.pop(old).nbytes
        if state.nbytes > self.capacity:
            return
        self.entries[stored] = state
        self.cache_size += state.nbytes
        while self.cache_size > self.capacity and self.entries:
            _, dropped = self.entries.popitem(last=False)
            self.cache_size -= dropped.nbytes


def _save(llm: Llama) -> SeqState:
    """The context's sequence 0: its KV cache and its tokens (no logits: ~12 KB a token)."""
    import llama_cpp

    ctx = llm._ctx.ctx
    size = llama_cpp.llama_state_seq_get_size(ctx, 0)
    buffer = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0)
    n = int(llm.n_tokens)
    return SeqState(
        np.array(llm.input_ids[:n], dtype=np.intc), n, ctypes.string_at(buffer, written)
    )


def _load(llm: Llama, state: SeqState) -> None:
    """Put ``state`` back as the context's sequence; the next prompt evaluates from there."""
    import llama_cpp

    llm._ctx.kv_cache_seq_rm(-1, 0, -1)
    size = state.llama_state_size
    buffer = (ctypes.c_uint8 * size).from_buffer_copy(state.llama_state)
    if llama_cpp.llama_state_seq_set_data(llm._ctx.ctx, buffer, size, 0) != size:
        # The context kept nothing usable: let the prompt be evaluated from the start.
        llm._ctx.kv_cache_seq_rm(-1, 0, -1)
        llm.n_tokens = 0
        return
    llm.input_ids[: state.n_tokens] = state.input_ids
    llm.n_tokens = state.n_tokens
    # The restored state has no logits: the next generate() evaluates at least one token.
    llm._requires_eval = True


class EvalCounter:
    """Counts the prompt tokens llama.cpp evaluates per completion (its first ``eval`` call)."""

    def __init__(self, llm: Llama) -> None:
        self._eval = llm.eval
        self.first: int | None = None

    def reset(self) -> None:
        self.first = None

    def __call__(self, tokens: Sequence[int]) -> None:
        if self.first is None:
            self.first = len(tokens)
        self._eval(tokens)


def install(llm: Llama, capacity: int | None = None) -> EvalCounter | None:
    """Give ``llm`` a :class:`PrefixCache` and count what it evaluates.

    Returns:
        The counter of evaluated prompt tokens (None where this llama-cpp-python lacks what
        the cache needs: then neither is installed, and a warning says so).
    """
    import llama_cpp

    missing = [name for name in _NEEDED if not hasattr(llm, name)] + [
        name
        for name in (
            "llama_state_seq_get_size",
            "llama_state_seq_get_data",
            "llama_state_seq_set_data",
        )
        if not hasattr(llama_cpp, name)
    ]
    if missing:
        warnings.warn(
            f"llama-cpp-python {getattr(llama_cpp, '__version__', '?')} lacks {missing}: the "
            "embedded model evaluates every prompt whole (no prefix cache). pytest-pau was "
            "tested with 0.3.36.",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    counter = EvalCounter(llm)
    llm.eval = counter  # type: ignore[method-assign]
    size = capacity_bytes() if capacity is None else capacity
    if size > 0:
        llm.save_state = lambda: _save(llm)  # type: ignore[method-assign,assignment,return-value]
        llm.load_state = lambda state: _load(llm, state)  # type: ignore[method-assign,arg-type]
        llm.set_cache(PrefixCache(size))  # type: ignore[arg-type]
    return counter

"""The embedded models as a litellm custom provider, backed by llama-cpp-python.

``local`` and ``local-small`` reach litellm as ``pau/local`` and ``pau/local-small``
through ``litellm.custom_provider_map``, so the client treats them like any other model.
One ``Llama`` per model is loaded once per process and shared by every role (agent,
judge, coder, critic); calls are serialised by one lock, since a llama.cpp context is
not thread-safe and two generations on two cores would only slow each other down.

Logprobs: llama-cpp-python computes them only for ``logits_all=True`` contexts, which
keep ``n_ctx x n_vocab`` floats (2.5 GB at 4k context for Qwen's 152k vocabulary).
Instead a logits processor reads each step's logits as they pass, which costs nothing
when logprobs are not asked for.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import LocalModelError
from pytest_pau.llm.local import prefix
from pytest_pau.llm.local.weights import SPECS, get_spec, resolve_weights
from pytest_pau.settings.env_vars import env_int

if TYPE_CHECKING:
    from llama_cpp import Llama

PROVIDER = "pau"
"""litellm provider prefix of the embedded models: ``pau/local``."""

_load_lock = threading.Lock()
_call_lock = threading.Lock()


def default_threads() -> int:
    """llama.cpp threads for this process: ``PAU_LOCAL_THREADS``, else a fair share of the cores.

    llama.cpp's threads spin while they wait for each other, so two processes that each
    take every core (xdist workers, ``-n 2`` on 2 cores) do not share the machine: they
    collapse. Measured on 2 cores: the same 3 items took 27 s alone and over 12 minutes
    beside another process doing the same. Each xdist worker takes cores / workers.
    """
    explicit = env_int("PAU_LOCAL_THREADS")
    if explicit > 0:
        return explicit
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    return max(1, (os.cpu_count() or 1) // max(1, workers))


def extra_buffers_allowed() -> bool:
    """Whether llama.cpp may repack weights into its extra buffer types (AMX among them).

    On CPUs with AMX tiles (Intel Sapphire Rapids and later) a llama.cpp built for the
    host repacks weights for AMX, and in the virtual machines we run on the first decode
    then dies with a segmentation fault, taking the whole pytest process with it
    (measured on 2026-12-01: Xeon with ``amx_tile``, llama-cpp-python 0.3.36 built by
    pip). Without repacking the 0.5B model writes about 24 tokens/s there. Elsewhere the
    repacked kernels are kept. ``PAU_LOCAL_EXTRA_BUFFERS=1`` (or ``0``) overrides.
    """
    explicit = os.environ.get("PAU_LOCAL_EXTRA_BUFFERS", "").strip()
    if explicit:
        return explicit not in ("0", "false", "no", "off")
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            flags = next((line for line in fh if line.startswith("flags")), "")
    except OSError:
        return True
    return "amx_tile" not in flags.split()


@contextlib.contextmanager
def _weight_repacking(*, allowed: bool) -> Iterator[None]:
    """Load a model with llama.cpp's extra buffer types on or off.

    ``Llama()`` takes its model parameters from ``llama_model_default_params()`` and does
    not expose ``use_extra_bufts``; while the model loads, the defaults it reads have it
    switched off.
    """
    if allowed:
        yield
        return
    import llama_cpp
    import llama_cpp.llama as llama_module

    original = llama_cpp.llama_model_default_params

    def defaults() -> Any:
        params = original()
        params.use_extra_bufts = False
        return params

    llama_module.llama_cpp.llama_model_default_params = defaults  # type: ignore[attr-defined]
    try:
        yield
    finally:
        llama_module.llama_cpp.llama_model_default_params = original  # type: ignore[attr-defined]


_models: dict[str, Llama] = {}
_counters: dict[str, prefix.EvalCounter | None] = {}


@atexit.register
def _close_models() -> None:
    # Freed by the garbage collector at interpreter teardown, a Llama's __del__ finds
    # llama_cpp's module globals already gone and prints "Exception ignored in
    # Llama.__del__" at the end of every run that used a local model.
    with _load_lock:
        models = list(_models.values())
        _models.clear()
    for llm in models:
        with contextlib.suppress(Exception):
            llm.cache = None  # the saved sequences go before the context they belong to
            llm.close()


def is_local(model: str) -> bool:
    """Whether ``model`` names an embedded model (``local``, ``pau/local-small``...)."""
    return model.removeprefix(f"{PROVIDER}/") in SPECS


def require_llama_cpp(name: str = "local") -> None:
    """Raise :class:`LocalModelError` with the pip command when llama-cpp-python is missing."""
    import importlib.util

    if importlib.util.find_spec("llama_cpp") is None:
        spec = get_spec(name)
        raise LocalModelError(
            f"The embedded model {name!r} needs llama-cpp-python, which is not installed. "
            f"Install it with: {spec.pip_command()}  (it compiles llama.cpp: about 5 minutes "
            "the first time), or choose a hosted model with --pau-model/--pau-judge-model."
        )


def get_llama(name: str) -> Llama:
    """The process-wide ``Llama`` of ``name``, loaded on first use."""
    with _load_lock:
        if name in _models:
            return _models[name]
        require_llama_cpp(name)
        path = resolve_weights(name)
        try:
            capacity = prefix.capacity_bytes()
        except ValueError as exc:
            raise LocalModelError(str(exc)) from None
        from llama_cpp import Llama

        try:
            with _weight_repacking(allowed=extra_buffers_allowed()):
                llm = Llama(
                    model_path=str(path),
                    n_ctx=env_int("PAU_LOCAL_N_CTX"),
                    n_threads=default_threads(),
                    seed=0,
                    verbose=False,
                )
        except Exception as exc:
            raise LocalModelError(f"llama.cpp could not load {path}: {exc}") from exc
        # Each conversation's evaluated prefix is kept between calls (llm/local/prefix.py).
        _counters[name] = prefix.install(llm, capacity)
        _models[name] = llm
        return llm


def _top_logprobs(scores: Any, k: int) -> tuple[int, dict[int, float]]:
    """Argmax id and the ``k`` best (id, logprob) of one step's logits."""
    import numpy as np

    s = np.asarray(scores, dtype=np.float64)
    peak = s.max()
    lse = peak + np.log(np.exp(s - peak).sum())
    k = max(1, min(k, s.size - 1))
    top = np.argpartition(-s, k)[:k]
    return int(s.argmax()), {int(i): float(s[i] - lse) for i in top}


def generate(
    name: str,
    messages: list[dict[str, Any]],
    *,
    temperature: float = 0.0,
    max_tokens: int = 512,
    seed: int = 0,
    stop: list[str] | None = None,
    top_logprobs: int | None = None,
) -> dict[str, Any]:
    """One chat completion from an embedded model, as an OpenAI-shaped dict.

    Greedy when ``temperature`` is 0; seeded otherwise. The chat template is the one in
    the GGUF (llama-cpp-python reads ``tokenizer.chat_template``).
    """
    llm = get_llama(name)
    steps: list[tuple[int, int, dict[int, float]]] = []
    processors = None
    if top_logprobs is not None:
        from llama_cpp import LogitsProcessorList

        def record(input_ids: Any, scores: Any) -> Any:
            steps.append((len(input_ids), *_top_logprobs(scores, max(top_logprobs, 1))))
            return scores

        processors = LogitsProcessorList([record])
    counter = _counters.get(name)
    with _call_lock:
        # create_chat_completion resets the context from the prompt; the lock keeps two
        # threads from interleaving tokens in one llama.cpp context.
        if counter is not None:
            counter.reset()
        result: dict[str, Any] = llm.create_chat_completion(  # type: ignore[assignment]
            messages=messages,  # type: ignore[arg-type]
            temperature=temperature,
            max_tokens=max_tokens,
            seed=seed,
            stop=stop or None,
            logits_processor=processors,
        )
        if processors is not None:
            ids = list(llm._input_ids)
            choice = result["choices"][0]
            choice["logprobs"] = {"content": _logprob_entries(llm, steps, ids, choice)}
        if counter is not None:
            # What llama.cpp evaluated of the prompt; usage says what was sent.
            result["pau_prompt_evaluated"] = counter.first or 0
    return result


def _logprob_entries(
    llm: Llama,
    steps: list[tuple[int, int, dict[int, float]]],
    ids: list[int],
    choice: dict[str, Any],
) -> list[dict[str, Any]]:
    """OpenAI ``logprobs.content`` for the generated tokens that made it into the text."""
    text = choice["message"]["content"] or ""

    def piece(token: int) -> str:
        return llm.detokenize([token]).decode("utf-8", errors="replace")

    out: list[dict[str, Any]] = []
    produced = 0
    for n_seen, argmax, top in steps:
        if produced >= len(text):
            break  # the rest was cut by a stop string, or is the end-of-turn token
        token = ids[n_seen] if n_seen < len(ids) else argmax
        tok_text = piece(token)
        lp = top.get(token)
        out.append(
            {
                "token": tok_text,
                "logprob": lp if lp is not None else min(top.values()),
                "bytes": list(tok_text.encode()),
                "top_logprobs": [
                    {"token": piece(t), "logprob": v, "bytes": list(piece(t).encode())}
                    for t, v in sorted(top.items(), key=lambda kv: -kv[1])
                ],
            }
        )
        produced += len(tok_text)
    return out


def _make_handler_class() -> type:
    """Build the ``CustomLLM`` subclass (litellm is imported only when this runs)."""
    import litellm
    from litellm.llms.custom_llm import CustomLLM

    class LocalLLM(CustomLLM):
        """litellm handler for ``pau/local`` and ``pau/local-small``."""

        def completion(
            self, model: str, messages: list[dict[str, Any]], *args: Any, **kwargs: Any
        ) -> Any:
            params = dict(kwargs.get("optional_params") or {})
            name = model.removeprefix(f"{PROVIDER}/")
            lp = params.get("top_logprobs")
            if lp is None and params.get("logprobs"):
                lp = 1
            start = time.perf_counter()
            raw = generate(
                name,
                messages,
                temperature=float(params.get("temperature") or 0.0),
                max_tokens=int(params.get("max_tokens") or 512),
                seed=int(params.get("seed") or 0),
                stop=params.get("stop"),
                top_logprobs=int(lp) if lp is not None else None,
            )
            choice = raw["choices"][0]
            response = litellm.ModelResponse(
                id=raw.get("id"),
                model=f"{PROVIDER}/{name}",
                choices=[
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": choice["message"]["content"]},
                        "finish_reason": choice.get("finish_reason") or "stop",
                        "logprobs": choice.get("logprobs"),
                    }
                ],
                usage=raw.get("usage"),
            )
            response._hidden_params["local_generate_s"] = time.perf_counter() - start
            if "pau_prompt_evaluated" in raw:
                response._hidden_params["local_prompt_evaluated"] = raw["pau_prompt_evaluated"]
            return response

    return LocalLLM


_registered = False


def register(litellm: Any) -> None:
    """Add the ``pau`` provider to ``litellm.custom_provider_map`` (idempotent)."""
    global _registered
    if _registered:
        return
    handler = _make_handler_class()()
    litellm.custom_provider_map = [
        *[p for p in (litellm.custom_provider_map or []) if p.get("provider") != PROVIDER],
        {"provider": PROVIDER, "custom_handler": handler},
    ]
    # custom_provider_map is read into the provider list on registration.
    from litellm.utils import custom_llm_setup

    custom_llm_setup()  # type: ignore[no-untyped-call]
    _registered = True


def check_available(name: str) -> None:
    """Fail early (before any litellm call) when ``name`` cannot run here."""
    require_llama_cpp(name)
    resolve_weights(name)


__all__ = [
    "PROVIDER",
    "LocalModelError",
    "check_available",
    "generate",
    "get_llama",
    "is_local",
    "register",
]

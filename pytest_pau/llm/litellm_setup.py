"""Importing litellm once, offline and quiet, and the switches that make its calls cheap."""

from __future__ import annotations

import gc
import os
import threading
from typing import Any

_litellm: Any = None
_import_lock = threading.Lock()
# litellm's context variable that skips its per-call success logging (see
# success_logging_unused).
internal_call: Any = None


def get_litellm() -> Any:
    """Import litellm once, offline and quiet, with the embedded-model provider registered.

    The cost map is read from the copy inside the package (litellm would otherwise fetch
    it from GitHub at import), and the import (several seconds) happens only on the first
    model call, so ``pytest --help`` and runs without ``--pau-model`` stay fast.
    """
    global _litellm
    if _litellm is not None:
        return _litellm
    with _import_lock:
        if _litellm is None:
            gc.collect()  # cheap before the import; what is garbage now is not frozen below
            was_enabled = gc.isenabled()
            gc.disable()  # the import makes ~380,000 lasting objects: no collection walks them
            try:
                litellm = _import_litellm()
            finally:
                if was_enabled:
                    gc.enable()
            _litellm = litellm
            _out_of_the_collectors_reach()
    return _litellm


def _import_litellm() -> Any:
    global internal_call
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")
    import litellm

    litellm.suppress_debug_info = True  # no "Give Feedback" banner on every error
    litellm.telemetry = False
    import pytest_pau.llm.http_pool as http_pool
    from pytest_pau.llm.local.provider import register

    register(litellm)
    http_pool.install(litellm)  # one connection pool per thread (see http_pool.py)
    try:
        from litellm._internal_context import is_internal_call

        internal_call = is_internal_call
    except ImportError:  # a litellm without it: keep its logging, pay its cost
        internal_call = None
    return litellm


def _out_of_the_collectors_reach() -> None:
    """Move every object alive now into the collector's permanent generation.

    litellm's import leaves ~380,000 objects (pydantic models of every provider's types)
    that live as long as the process. Left in the collector's oldest generation, each full
    collection walks all of them while holding the GIL (1 s of CPU each here): six during
    the import itself (kept out by disabling the collector for it), more while 64 episodes
    run, every episode stalled meanwhile, and one for each of pytest's two collections at
    exit.
    Frozen, a full collection costs milliseconds. What is frozen is never freed, which is
    what these objects (and the session's items, collected before the first model call) are
    anyway; the garbage of before the import was collected first, while that was cheap.
    """
    gc.freeze()


def success_logging_unused(litellm: Any) -> bool:
    """True when nothing would read litellm's success log of a call.

    After every completion litellm builds a logging payload in a background thread
    (0.3 ms of CPU a call, competing for the GIL with the caller) even when no callback
    is registered. Callbacks, litellm's budget and its cache all read that payload, so
    the skip applies only while none of them is set.
    """
    return not (
        getattr(litellm, "callbacks", None)
        or getattr(litellm, "success_callback", None)
        or getattr(litellm, "_async_success_callback", None)
        or getattr(litellm, "max_budget", None)
        or getattr(litellm, "cache", None) is not None
    )

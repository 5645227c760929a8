"""EpisodePool: episodes run ahead in threads; what they warn reaches the item that asks."""

from __future__ import annotations

import threading
import warnings
from types import SimpleNamespace
from typing import Any

from pytest_pau.errors import CacheWarning, warn
from pytest_pau.plugin.episodes import EpisodePool


def test_a_warning_of_an_episode_run_ahead_is_issued_when_its_item_asks() -> None:
    first, second = SimpleNamespace(id="a"), SimpleNamespace(id="b")
    ran: dict[str, threading.Event] = {"a": threading.Event(), "b": threading.Event()}

    def evaluate(instance: Any, progress: Any) -> Any:
        warn(f"cache trouble in {instance.id}", CacheWarning)
        ran[instance.id].set()
        return SimpleNamespace(id=instance.id)

    pool = EpisodePool(
        evaluate, concurrency=2, source=lambda: [first, second], cancel=threading.Event()
    )
    try:
        # Both episodes run ahead of pytest: while item "a" is the one pytest runs, "b"'s
        # warning must not land in it (nor anywhere else before "b" is reached).
        with warnings.catch_warnings(record=True) as in_a:
            warnings.simplefilter("always")
            assert ran["b"].wait(10)
            pool.result(first, None)  # type: ignore[arg-type]
        with warnings.catch_warnings(record=True) as in_b:
            warnings.simplefilter("always")
            pool.result(second, None)  # type: ignore[arg-type]
    finally:
        pool.close()
    assert [str(w.message) for w in in_a] == ["cache trouble in a"]
    assert [str(w.message) for w in in_b] == ["cache trouble in b"]
    assert all(w.category is CacheWarning for w in [*in_a, *in_b])


def test_outside_an_episode_a_warning_is_issued_at_once() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn("now", CacheWarning)
    assert [str(w.message) for w in caught] == ["now"]

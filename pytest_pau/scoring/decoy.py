"""The judge check's decoy: a plausible wrong description for an item, and the sample checked.

A decoy is the gold description of *another* instance of the dataset, chosen to be hard to
tell from the right one: same arity and argument types where one exists (else same arity,
else any), and among those the one sharing the most words with the item's description;
ties go by a hash of the seed and the two ids, so the choice is deterministic for a seed
and independent of the dataset's order. An instance whose description is the item's own
(the same text, whitespace, case and Unicode form aside:
:func:`~pytest_pau.models.instance.text_key`) is never chosen: a decoy must be wrong.

The content-free description (:data:`CONTENT_FREE`) is what ``pau judge-check`` also rates:
a floor, easy to rate 1, unlike the decoy.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_pau.dataset.python_ast import literal_eval
from pytest_pau.errors import BudgetExceeded, ConfigError, PauError
from pytest_pau.models import Instance, Usage
from pytest_pau.models.instance import text_key
from pytest_pau.models.judge_check import JudgeCheckItem

if TYPE_CHECKING:
    from pytest_pau.scoring.coder import Coder, Observed
    from pytest_pau.scoring.judge import Judge
    from pytest_pau.settings import PauSettings

#: A description that fits every method and says nothing (``pau judge-check``'s third class).
CONTENT_FREE = "The method takes its arguments and returns a value computed from them."

_WORD = re.compile(r"[a-z0-9_]+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _same_text(a: str, b: str) -> bool:
    return text_key(a) == text_key(b)


def argument_types(instance: Instance) -> tuple[str, ...] | None:
    """The type names of the first example's arguments (``("int", "list")``); None if unknown."""
    for example in (*instance.train_examples, *instance.test_examples):
        try:
            value = literal_eval(example.input)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        args = value if isinstance(value, tuple) else (value,)
        return tuple(type(a).__name__ for a in args)
    return None


def _tie_break(seed: int, item: str, other: str) -> str:
    return hashlib.blake2b(f"{seed}\0{item}\0{other}".encode(), digest_size=8).hexdigest()


def choose_decoy(instance: Instance, pool: Sequence[Instance], *, seed: int = 0) -> Instance | None:
    """The decoy for ``instance`` among ``pool`` (see the module docstring); None when no
    other instance has a different description."""
    own = instance.description
    candidates = [p for p in pool if p.id != instance.id and not _same_text(p.description, own)]
    if not candidates:
        return None
    types = argument_types(instance)
    tiers = (
        [p for p in candidates if p.arity == instance.arity and argument_types(p) == types],
        [p for p in candidates if p.arity == instance.arity],
        candidates,
    )
    tier = next(t for t in tiers if t)
    words = _words(own)
    return min(
        tier,
        key=lambda p: (-len(words & _words(p.description)), _tie_break(seed, instance.id, p.id)),
    )


def check_sample(selected: Sequence[str], size: int | None, *, seed: int = 0) -> list[str]:
    """The ids the judge check rates: ``size`` of ``selected`` in a seeded order (all when
    ``size`` is None or at least their number; none when 0). Depends on the set of ids and
    the seed only, so every xdist worker picks the same ones."""
    if size == 0 or not selected:
        return []
    ranked = sorted(dict.fromkeys(selected), key=lambda i: _tie_break(seed, "judge-check", i))
    return ranked if size is None else ranked[:size]


def decoys_for(
    ids: Sequence[str], pool: Sequence[Instance], *, seed: int = 0
) -> dict[str, Instance]:
    """``id -> decoy instance`` for each of ``ids`` found in ``pool`` that has a decoy."""
    by_id = {p.id: p for p in pool}
    out: dict[str, Instance] = {}
    for i in ids:
        item = by_id.get(i)
        if item is None:
            continue
        decoy = choose_decoy(item, pool, seed=seed)
        if decoy is not None:
            out[i] = decoy
    return out


def sample_decoys(
    selected: Sequence[str], pool: Sequence[Instance], settings: PauSettings
) -> dict[str, Instance | None]:
    """A run's checked items and their decoys (``--pau-judge-check``, ``--pau-seed``): the
    sample of ``selected``, each with its decoy from the whole dataset ``pool``, or None
    where it has none (the item's result then says so: :func:`no_decoy`).

    Under ``--pau-early-stop`` the sample is the first items of the run's seeded random
    order (as random a sample, and the one that runs before the stop), so a run that stops
    early has still checked its judge."""
    size = settings.judge_check_size()
    if settings.early_stop and size:
        from pytest_pau.stats.anytime import early_stop_order

        unique = list(dict.fromkeys(selected))
        ids = [unique[i] for i in early_stop_order(unique, settings.seed)][:size]
    else:
        ids = check_sample(selected, size, seed=settings.seed)
    found = decoys_for(ids, pool, seed=settings.seed)
    return {i: found.get(i) for i in ids}


#: Why a sampled item has no decoy (its :class:`JudgeCheckItem`'s ``error``).
NO_DECOY = "no decoy: no other instance of the dataset has a different description"


def no_decoy() -> JudgeCheckItem:
    """The check's record of a sampled item without a decoy: counted, never told apart."""
    return JudgeCheckItem(decoy_id=None, error=NO_DECOY)


def rate_check(
    judge: Judge,
    instance: Instance,
    decoy: Instance,
    *,
    gold_score: float | None = None,
    content_free: bool = False,
    known_wrong: Sequence[str] = (),
) -> tuple[JudgeCheckItem, Usage]:
    """The judge's ratings of ``instance``'s gold and of ``decoy``'s description against it.

    ``gold_score``: the gold's rating when already known (the model under test answered the
    gold description: its own judge call), so no call is repeated. ``content_free``: also
    rate :data:`CONTENT_FREE` (``pau judge-check``). A judge call that fails, or answers
    without a rating even after its retry, leaves that rating missing and says why in
    ``error``; a spent budget or a bad setting propagates.
    ``known_wrong``: also rate these known-wrong descriptions (``pau judge-check``, from
    ``Instance.wrong_descriptions``; a run passes none), in order, as ``known_wrong``.
    """
    usage = Usage()
    ratings: dict[str, float | None] = {"gold": gold_score, "decoy": None, "content_free": None}
    texts = {"decoy": decoy.description}
    if gold_score is None:
        texts = {"gold": instance.description, **texts}
    if content_free:
        texts["content_free"] = CONTENT_FREE
    for k, text in enumerate(known_wrong):
        texts[f"known_wrong[{k}]"] = text
    errors: list[str] = []
    for name, text in texts.items():
        try:
            rated = judge.score(instance, text)
        except (BudgetExceeded, ConfigError):
            raise
        except PauError as exc:
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        usage.add(rated.usage)
        ratings[name] = rated.score
        if rated.score is None:
            errors.append(
                f"{name}: no rating ({rated.unparseable} of {len(rated.ratings)} answers "
                "without 'Rating: N', after a retry)"
            )
    item = JudgeCheckItem(
        decoy_id=decoy.id,
        gold=ratings["gold"],
        decoy=ratings["decoy"],
        content_free=ratings["content_free"],
        error="; ".join(errors) or None,
        known_wrong=[ratings.get(f"known_wrong[{k}]") for k in range(len(known_wrong))],
    )
    return item, usage


def decoy_code_match(
    coder: Coder,
    instance: Instance,
    decoy: Instance,
    observed: Observed,
    *,
    backend: str = "wasm",
) -> tuple[float | None, str | None, Usage]:
    """The code match of the code ``coder`` writes from ``decoy``'s description for
    ``instance`` (the same examples shown as for the item's own code), on its held-back
    inputs: the floor of code match, as the gold control is its ceiling.

    Returns:
        ``(score, error, usage)``: the score, or None with why when the coder's call
        failed; a spent budget or a bad setting propagates.
    """
    try:
        matched = coder.code_match(instance, decoy.description, observed, backend=backend)
    except (BudgetExceeded, ConfigError):
        raise
    except PauError as exc:
        return None, f"decoy code: {type(exc).__name__}: {exc}", Usage()
    return matched.score, None, matched.usage

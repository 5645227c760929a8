"""The values a setting can take: the vocabularies and the parsers that read them.

Each parser is an argparse ``type=`` that :mod:`pytest_pau.settings.options` names in an option's
row; the same functions read ini values and the ``pau`` tools' arguments, so a value is
refused with the same words wherever it is written. The vocabularies (modes, backends,
roles, metrics and their aliases) are defined here once and imported by the stages that
act on them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pytest_pau.models import metrics, paper

MODES = ("interactive", "incontext")
SANDBOX_BACKENDS = ("wasm", "process")
LOCAL_MODELS = ("local", "local-small")
#: How a dataset file stores example outputs (``dataset/output_format.py`` reads them), or
#: ``recompute`` (the gold code's outputs, ``dataset/recompute.py``).
DATASET_OUTPUTS = ("auto", "repr", "json", "reference", "recompute")
#: ``--pau-protocol`` and ``--pau-coder`` (:mod:`pytest_pau.models.paper`).
PROTOCOLS = paper.PROTOCOLS
CODERS = paper.CODERS
#: What decides the exit status when a release gate is set (``--pau-exit``).
EXIT_POLICIES = ("gates", "items")
SERVICE_TIERS = ("default", "flex")
"""``--pau-service-tier``'s values (:mod:`pytest_pau.llm.tiers`)."""


# --------------------------------------------------------------------------- parsers
# Each parser is an argparse ``type=``: it raises ArgumentTypeError, which argparse turns
# into "argument --pau-x: <message>"; ini values go through the same functions.


def parse_positive_int(text: str) -> int:
    """An integer >= 1 (``--pau-limit``, ``--pau-max-iterations``...)."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def parse_judge_check(text: str) -> str:
    """``--pau-judge-check``: a sample size N >= 1, ``all`` or ``off`` (0 reads as off)."""
    value = str(text).strip().lower()
    if value in ("all", "off"):
        return value
    try:
        size = int(value)
    except ValueError:
        size = -1
    if size < 0:
        raise argparse.ArgumentTypeError(
            f"expected a number of items N, all or off, got {text!r} (e.g. 20)"
        )
    return "off" if size == 0 else str(size)


def judge_check_size(value: str) -> int | None:
    """The items ``--pau-judge-check`` rates: None for all, 0 for off."""
    if value == "all":
        return None
    return 0 if value == "off" else int(value)


def parse_int(text: str) -> int:
    """Any integer (``--pau-seed``)."""
    try:
        return int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _parse_float(text: str, low: float, high: float | None, what: str) -> float:
    try:
        value = float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if value != value or value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def parse_fraction(text: str) -> float:
    """A number in [0, 1] (``--pau-match-threshold=0.8``, ``--pau-min-pass-rate=0.5``)."""
    return _parse_float(text, 0.0, 1.0, "a number between 0 and 1 such as 0.8")


def parse_confidence(text: str) -> float:
    """A confidence level in [0.5, 1) (``--pau-gate-confidence=0.95``)."""
    value = _parse_float(text, 0.5, 1.0, "a confidence between 0.5 and 1 such as 0.95")
    if value >= 1.0:
        raise argparse.ArgumentTypeError(
            f"expected a confidence between 0.5 and 1 such as 0.95, got {text!r}: "
            "a confidence of 1 can never be reached"
        )
    return value


def metric_key(text: str) -> str:
    """The canonical metric key (``judge``, ``match``, ``pass``) for ``text`` or an alias."""
    try:
        return metrics.metric_key(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_margin(text: str) -> tuple[str, float]:
    """One ``METRIC:DELTA`` (``judge:0.2``): an allowed regression on the metric's scale."""
    try:
        return metrics.parse_margin(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def margins_of(text: str) -> dict[str, float]:
    """``judge:0.2,match:0.05`` as ``{metric: margin}``; a metric named twice is refused."""
    try:
        return metrics.margins_of(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_margins(text: str) -> str:
    """``METRIC:DELTA,...`` (``--pau-max-regression=judge:0.2,pass:0.05``), canonical text."""
    return ",".join(f"{k}:{v:g}" for k, v in margins_of(text).items())


def parse_judge_score(text: str) -> float:
    """A judge score in [1, 5] (``--pau-judge-threshold=3``, ``--pau-min-mean-judge=2.5``)."""
    return _parse_float(text, 1.0, 5.0, "a judge score between 1 and 5 such as 3")


def parse_usd(text: str) -> float:
    """A non-negative amount of US dollars (``--pau-max-cost-usd=2.50``)."""
    return _parse_float(text, 0.0, None, "an amount of US dollars >= 0 such as 2.50")


def parse_model(text: str) -> str:
    """A litellm model string, ``local``/``local-small``, or ``oracle``/``null``."""
    value = str(text).strip()
    if not value:
        raise argparse.ArgumentTypeError(
            "expected a model such as 'gpt-5-mini', 'openai/NAME', 'local' or 'oracle', got ''"
        )
    return value


def parse_text(text: str) -> str:
    """A non-empty string."""
    value = str(text).strip()
    if not value:
        raise argparse.ArgumentTypeError("expected a non-empty value, got ''")
    return value


def parse_shard(text: str) -> str:
    """``K/N`` (``--pau-shard=2/3``): the K-th of N parts of the selection, canonical text."""
    raw = str(text).strip()
    k_text, sep, n_text = raw.partition("/")
    try:
        k, n = int(k_text), int(n_text)
    except ValueError:
        k = n = 0
    if not sep or not 1 <= k <= n:
        raise argparse.ArgumentTypeError(
            f"expected K/N with 1 <= K <= N, such as 2/3 (the second of three shards), got {text!r}"
        )
    return f"{k}/{n}"


def shard_of(text: str | None) -> tuple[int, int] | None:
    """``(K, N)`` of a canonical ``--pau-shard`` value, or None without one."""
    if text is None:
        return None
    k, _, n = text.partition("/")
    return int(k), int(n)


def parse_url(text: str) -> str:
    """An ``http://`` or ``https://`` base URL with a host (``--pau-api-base``).

    Checked before any call: a value litellm cannot reach would make every item an
    infrastructure error instead of one usage error.
    """
    from urllib.parse import urlsplit

    value = parse_text(text)
    try:
        parts = urlsplit(value)
        port = parts.port  # raises ValueError on a port that is no number or out of range
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"expected an http(s) URL such as http://localhost:8000/v1, got {value!r} ({exc})"
        ) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(
            f"expected an http(s) URL such as http://localhost:8000/v1, got {value!r}"
        )
    del port
    return value


def parse_path(text: str) -> Path:
    """A file or folder path (``~`` expanded)."""
    return Path(parse_text(text)).expanduser()


#: The roles a per-role option can name: the model under test, the judge (and failure
#: classifier), the coder, and the training critic.
ROLES = ("model", "judge", "coder", "critic")
ReasoningMode = Literal["auto", "on", "off"]
REASONING_MODES: tuple[ReasoningMode, ...] = ("auto", "on", "off")
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high")


def parse_per_role(value: Callable[[str], str], what: str) -> Callable[[str], str]:
    """A parser of ``VALUE`` (every role) or ``ROLE:VALUE,...`` (``model:high,judge:low``).

    Returns the canonical text (roles in :data:`ROLES` order, ``*`` for every role), which
    :func:`role_value` reads back.
    """

    def parse(text: str) -> str:
        raw = str(text).strip()
        if not raw:
            raise argparse.ArgumentTypeError(f"expected {what}, got ''")
        if ":" not in raw:
            return value(raw)
        found: dict[str, str] = {}
        for part in raw.split(","):
            role, sep, item = part.strip().partition(":")
            role = role.strip()
            if not sep or role not in ROLES:
                raise argparse.ArgumentTypeError(
                    f"expected {what} or ROLE:VALUE pairs with ROLE one of {', '.join(ROLES)}, "
                    f"got {part.strip()!r} in {text!r}"
                )
            found[role] = value(item.strip())
        return ",".join(f"{r}:{found[r]}" for r in ROLES if r in found)

    parse.__name__ = "per_role"
    return parse


def role_value(text: str | None, role: str) -> str | None:
    """The value a per-role setting gives ``role`` (None: not set for it)."""
    if text is None or ":" not in text:
        return text
    for part in text.split(","):
        name, _, item = part.partition(":")
        if name == role:
            return item
    return None


def parse_choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A parser accepting exactly one of ``choices``."""

    def parse(text: str) -> str:
        value = str(text).strip()
        if value not in choices:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(choices)}, got {text!r}")
        return value

    parse.__name__ = "choice"
    return parse


def paper_role_model(hf_id: str) -> str:
    """The litellm model string of a paper scorer served at an OpenAI-compatible endpoint.

    vLLM (``vllm serve ID``) and llama.cpp's server answer to the Hugging Face id, and
    litellm reaches any such server as ``openai/<id>`` with the role's ``--pau-*-api-base``.
    """
    return f"openai/{hf_id}"


#: ``--pau-protocol=paper``'s default judge and coder model strings.
PAPER_JUDGE_MODEL = paper_role_model(paper.PAPER_JUDGE)
PAPER_CODER_MODEL = paper_role_model(paper.PAPER_CODER)

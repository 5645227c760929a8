"""The numeric environment variables pytest-pau reads, and their one reader.

Each variable is a row of :data:`ENV_NUMBERS` (its kind, default, lowest value and what it
is); :func:`env_number` reads one and :func:`check_env` all of them, which the plugin calls
at start-up so that ``PAU_LLM_TIMEOUT_S=abc`` is one usage error naming the variable,
before any model call, instead of a traceback inside the first item.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from pytest_pau.errors import ConfigError


@dataclass(frozen=True)
class EnvNumber:
    """One numeric environment variable.

    Args:
        name: The variable (``PAU_LLM_TIMEOUT_S``).
        default: Its value when unset or empty.
        what: What the number is, for messages (``seconds a model request may take``).
        integer: Whether it must be a whole number.
        low: Its lowest allowed value.
        strict: Whether ``low`` itself is refused (``> 0`` rather than ``>= 0``).
        high: Its highest allowed value (none by default).
    """

    name: str
    default: float
    what: str
    integer: bool = False
    low: float = 0.0
    strict: bool = False
    high: float = math.inf

    def expected(self) -> str:
        kind = "a whole number" if self.integer else "a number"
        bound = f"{'>' if self.strict else '>='} {self.low:g}"
        if self.high != math.inf:
            bound += f" and <= {self.high:g}"
        return f"{kind} {bound} ({self.what})"


#: The longest any of the seconds variables may say: a day. A wait or a timeout longer than
#: that is a typo, and one past what the clock functions take (``1e26``) made every request
#: fail with "timestamp out of range for platform time_t", reported as the provider's HTTP 500.
DAY_S = 86400.0


ENV_NUMBERS: dict[str, EnvNumber] = {
    row.name: row
    for row in (
        EnvNumber(
            "PAU_LLM_TIMEOUT_S", 600, "seconds one model request may take", strict=True, high=DAY_S
        ),
        EnvNumber("PAU_RETRY_ATTEMPTS", 6, "calls of one request at most", integer=True, low=1),
        EnvNumber("PAU_RETRY_BASE_S", 1.0, "seconds of the first retry's wait", high=DAY_S),
        EnvNumber(
            "PAU_RETRY_MAX_TOTAL_S", 300.0, "seconds of waiting between retries in all", high=DAY_S
        ),
        EnvNumber(
            "PAU_MAX_PAUSE_S",
            60.0,
            "seconds a pause a provider asks for is waited at most",
            strict=True,
            high=DAY_S,
        ),
        EnvNumber(
            "PAU_FLEX_TIMEOUT_S",
            900.0,
            "seconds a flex-tier request may take before it goes to the default tier",
            strict=True,
            high=DAY_S,
        ),
        EnvNumber(
            "PAU_LOCAL_THREADS", 0, "CPU threads of an embedded model; 0: auto", integer=True
        ),
        EnvNumber(
            "PAU_LOCAL_N_CTX", 8192, "context tokens of an embedded model", integer=True, low=512
        ),
        EnvNumber(
            "PAU_SANDBOX_MEMORY_MB",
            0,
            "MiB the memory limits of live sandboxes may sum to per process; 0: 40% of memory",
            integer=True,
        ),
    )
}


def env_number(name: str) -> float:
    """The value of the numeric variable ``name`` (a row of :data:`ENV_NUMBERS`).

    Raises:
        ConfigError: The value is not a number of the right kind, naming the variable, its
            value, what was expected and the default.
    """
    row = ENV_NUMBERS[name]
    raw = os.environ.get(name, "")
    if not raw.strip():
        return row.default
    try:
        value = float(raw.strip())
    except ValueError:
        value = math.nan
    bad = (
        math.isnan(value)
        or math.isinf(value)
        or (row.integer and value != int(value))
        or value < row.low
        or (row.strict and value == row.low)
        or value > row.high
    )
    if bad:
        raise ConfigError(
            f"environment variable {name}={raw!r}: expected {row.expected()}; fix it, or "
            f"unset it for the default {row.default:g}"
        )
    return int(value) if row.integer else value


def env_int(name: str) -> int:
    """:func:`env_number` of a whole-number variable, typed as ``int``."""
    return int(env_number(name))


def check_env() -> None:
    """Read every variable of :data:`ENV_NUMBERS` once, naming every bad one.

    Raises:
        ConfigError: naming the variable (see :func:`env_number`).
    """
    problems = []
    for name in ENV_NUMBERS:
        try:
            env_number(name)
        except ConfigError as exc:
            problems.append(str(exc))
    if problems:
        raise ConfigError("\n".join(problems))

"""What a dataset holds: instances and their examples, and what one sandbox call returns."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from pydantic import BaseModel, ConfigDict, Field, field_validator

_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    r"""``text`` with each lone surrogate written as its escape (``'\ud800'``), as ``repr``
    writes it.

    A lone surrogate is no character: it cannot be written as UTF-8, so it broke the model
    cache, the HTTP request that shows it to a model and the JSON report (an item with one
    never reached the report). Instances, examples and sandbox results hold none: in a
    literal's string the escape is the same value; a message or description reads the same.

    >>> escape_surrogates("bad \ud800 value")
    'bad \\ud800 value'
    """
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def text_key(text: str) -> str:
    """What two descriptions are compared by: the text in Unicode's NFKC form, case folded,
    without format characters (zero-width spaces, soft hyphens, byte-order marks) and with
    its whitespace collapsed. Texts with one key read the same: a known-wrong description
    or a decoy with the gold's key is the gold, not a wrong description.

    >>> text_key("  Returns\u200b the SUM. ") == text_key("returns the sum.")
    True
    """
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(text.casefold().split())


def _escaped(value: object) -> object:
    if isinstance(value, str):
        return escape_surrogates(value)
    if isinstance(value, (list, tuple)):
        return [escape_surrogates(v) if isinstance(v, str) else v for v in value]
    return value


class Example(BaseModel):
    """One input/output pair of a method."""

    model_config = ConfigDict(frozen=True)

    input: str
    """The arguments as a Python tuple literal, e.g. ``"([1, 2], 3)"``."""
    output: str
    """``repr`` of the return value; the exception message when ``raises`` is set."""
    raises: str | None = None
    """Exception type name (``"ValueError"``) when the call raised, else ``None``."""

    _no_surrogates = field_validator("input", "output", mode="before")(_escaped)


class Instance(BaseModel):
    """One PAU benchmark instance: a hidden method and what is known about it."""

    model_config = ConfigDict(frozen=True)

    id: str
    """Stable id, ``<source>/<local id>`` (``builtin/vowels_minus_consonants``); the pytest item id."""
    source: str
    """Where it comes from: ``builtin``, ``humaneval``, a file stem, ``hf``..."""
    code: str
    """Full source: ``test_func`` plus its ``validate_input_args`` guard and helpers."""
    header: str
    """What the model sees of the method: ``def test_func(arg0, arg1):``."""
    description: str
    """The gold description."""
    train_examples: list[Example] = Field(default_factory=list)
    """Starting examples shown to the model."""
    test_examples: list[Example] = Field(default_factory=list)
    """Held-back examples that code match runs."""
    arity: int
    """Number of arguments of ``test_func``."""
    tags: list[str] = Field(default_factory=list)
    """Free tags (``easy``, ``smoke``, ``strings``...); each becomes a pytest marker."""
    wrong_descriptions: tuple[str, ...] = ()
    """Known-wrong descriptions written for this instance (near misses of the gold: one
    detail changed), which ``pau judge-check`` rates as its ``known wrong`` class; none when
    the dataset has no ``wrong_descriptions`` column. Not part of :meth:`task_digest`: they
    test the judge, not the task."""

    _no_surrogates = field_validator(
        "id",
        "source",
        "code",
        "header",
        "description",
        "tags",
        "wrong_descriptions",
        mode="before",
    )(_escaped)

    @property
    def local_id(self) -> str:
        """The id without its ``<source>/`` prefix."""
        return self.id.split("/", 1)[1] if "/" in self.id else self.id

    def task_digest(self) -> str:
        """16 hex digits of SHA-256 over what makes this task this task: the id, the gold
        code, header and description, and every example. A report keeps one per instance
        (``RunInfo.instance_digests``) so that a baseline of another dataset version, with
        the same ids, is refused rather than paired across different tasks."""
        payload = self.model_dump_json(
            include={"id", "code", "header", "description", "train_examples", "test_examples"}
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


class CallResult(BaseModel):
    """The outcome of one call of a method in a sandbox."""

    ok: bool
    """True when the method returned; False when it raised or a limit stopped it."""
    value: str | None = None
    """``repr`` of the return value when ``ok``."""
    literal: bool = False
    """Whether ``value`` is a Python literal (``ast.literal_eval`` reads it back)."""
    error_type: str | None = None
    """Exception type name, or ``Timeout``/``MemoryError``/``InputError``/``SandboxError``/
    ``SandboxLimitation`` (a standard-library module the Wasm guest lacks)."""
    message: str | None = None
    """Exception message or the limit that was hit."""
    traceback: str | None = None
    """A short traceback of the method's own frames, when it raised."""
    truncated: bool = False
    """Whether ``value`` was cut at the output cap."""
    fuel: int | None = None
    """Wasm fuel the call consumed (wasm backend only)."""
    duration_s: float = 0.0
    """Wall time of the call."""

    # What a method returns or raises may hold a lone surrogate (a ``__repr__``, a message):
    # it is escaped as it crosses into the host, the same way as the expected outputs.
    _no_surrogates = field_validator("value", "message", "traceback", mode="before")(_escaped)

    def observation(self) -> str:
        """The text the agent sees for this call."""
        if self.ok:
            return str(self.value)
        return f"{self.error_type}: {self.message}"


class OutputDisagreement(BaseModel):
    """A stored example output that the gold code, run in the sandbox, does not give."""

    id: str
    """The instance."""
    field: str
    """``train_examples`` or ``test_examples``."""
    index: int
    input: str
    stored: str
    """The stored output as the file's layout reads it (repr text)."""
    recomputed: str
    """What the gold code gives (repr text, or ``Type: message`` when it raised)."""
    reason: str
    """Why they differ: ``tuple stored as a list``, ``int keys stored as strings``..."""

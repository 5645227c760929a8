"""What a dataset holds: instances and their examples, and what one sandbox call returns."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Example(BaseModel):
    """One input/output pair of a method."""

    model_config = ConfigDict(frozen=True)

    input: str
    """The arguments as a Python tuple literal, e.g. ``"([1, 2], 3)"``."""
    output: str
    """``repr`` of the return value; the exception message when ``raises`` is set."""
    raises: str | None = None
    """Exception type name (``"ValueError"``) when the call raised, else ``None``."""


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

    @property
    def local_id(self) -> str:
        """The id without its ``<source>/`` prefix."""
        return self.id.split("/", 1)[1] if "/" in self.id else self.id


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

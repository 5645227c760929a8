"""Python literal text on the host side: the same rules as inside the sandbox.

The implementation is the guest's own ``pau_literals.py`` (``sandbox_wasm/``), loaded from
its file, so host and guest can never disagree on what a literal is.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from pytest_pau.sandbox.build import guest_dir

_NAME = "pytest_pau.sandbox._pau_literals"


def _load() -> Any:
    if _NAME in sys.modules:
        return sys.modules[_NAME]
    spec = importlib.util.spec_from_file_location(_NAME, guest_dir() / "pau_literals.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[_NAME] = module
    spec.loader.exec_module(module)
    return module


_module = _load()
LiteralError: type[ValueError] = _module.LiteralError
NestingError: type[ValueError] = _module.NestingError
DigitsError: type[ValueError] = _module.DigitsError
#: Deepest nesting of a call's input (containers and signs, the argument tuple included).
MAX_INPUT_DEPTH: int = _module.MAX_INPUT_DEPTH
#: Most decimal digits of one integer in a call's input.
MAX_INPUT_INT_DIGITS: int = _module.MAX_INPUT_INT_DIGITS
parse_literal = _module.parse_literal
is_literal = _module.is_literal
literal_equal = _module.literal_equal

__all__ = [
    "MAX_INPUT_DEPTH",
    "MAX_INPUT_INT_DIGITS",
    "DigitsError",
    "LiteralError",
    "NestingError",
    "is_literal",
    "literal_equal",
    "parse_literal",
]

"""One ``--pau-*`` option's row: how a setting is typed and explained.

The rows themselves are in :mod:`pytest_pau.settings.options` (what runs) and
:mod:`pytest_pau.settings.gates_and_outputs` (what decides and what is written).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class OptionSpec:
    """How one setting is typed and explained (its default is the PauSettings field's)."""

    name: str
    """Setting name with dashes: ``model`` -> ``--pau-model``, ini ``pau_model``."""
    text: str
    """What the option does, starting with a capital; the "Default: ..." sentence is added."""
    parse: Callable[[str], Any] | None = None
    """Value parser (an argparse ``type=``); None for an on/off flag."""
    metavar: str | None = None
    default_text: str | None = None
    """How the default reads when it is None ("no gate", "all"); required then."""
    default_note: str | None = None
    """A remark after the default value, e.g. "(low fidelity; ...)"."""

    @property
    def field(self) -> str:
        """The :class:`PauSettings` field and argparse ``dest`` suffix: ``judge_model``."""
        return self.name.replace("-", "_")

    @property
    def flag(self) -> bool:
        return self.parse is None

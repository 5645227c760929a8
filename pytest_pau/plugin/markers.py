"""Instance tags and source names as pytest markers, in a namespace nothing can shadow.

Every item carries ``pau``, ``arity<N>``, its source (``builtin``) and each tag (``smoke``),
so that ``-m smoke`` and ``-k`` select as users expect. A marker is more than a label,
though: pytest acts on ``skip``, ``skipif``, ``xfail``, ``usefixtures``, ``parametrize``,
``filterwarnings``; other plugins on theirs (``timeout``, ``asyncio``, ``flaky``...). A
dataset whose tag or file stem were such a name would change outcomes (a tag ``xfail``
turned every failure into an xfail and passed a gate at 0%). So one rule decides every
name: a label that is a mark with a meaning elsewhere (:data:`PYTEST_MARKS`, a marker
registered by any plugin or conftest, our own ``arity<N>``, a word of ``-m``'s
grammar) becomes ``pau_<label>``; every other label keeps its name. Markers the user's own
ini file declares are the user's labels and are kept. The renames are listed in the
report header.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

    from pytest_pau.models import Instance

_UNSAFE = re.compile(r"[^0-9A-Za-z_]")

#: pytest's own marks: each one changes how an item runs or what its outcome is.
PYTEST_MARKS = frozenset(
    {
        "skip",
        "skipif",
        "xfail",
        "usefixtures",
        "parametrize",
        "filterwarnings",
        "tryfirst",
        "trylast",
    }
)
#: Words of ``-m``'s grammar: a marker of that name could not be selected.
EXPRESSION_WORDS = frozenset({"and", "or", "not", "True", "False", "None"})
#: The prefix of a renamed label.
PREFIX = "pau_"


def marker_name(text: str) -> str:
    """A marker name usable with ``-m`` and ``--strict-markers`` (``my-data`` -> ``my_data``)."""
    name = _UNSAFE.sub("_", text.strip()) or "_"
    if name[0].isdigit():
        name = "_" + name
    return name


def declared(lines: Iterable[str]) -> set[str]:
    """Marker names of ``markers`` ini lines (``slow(reason): ...`` -> ``slow``)."""
    return {re.split(r"[(:]", line, maxsplit=1)[0].strip() for line in lines if line.strip()}


def _own(name: str) -> bool:
    """Our ``arity<N>``: a tag ``arity2`` on a one-argument method would lie to ``-m``."""
    return re.fullmatch(r"arity\d+", name) is not None


@dataclass
class MarkerNames:
    """Which marker each label (a tag or a source name) becomes in this run.

    Args:
        taken: Names that must not be used for a label: pytest's marks, markers registered
            by plugins and conftest files, the ``-m`` grammar's words.
    """

    taken: frozenset[str] = PYTEST_MARKS | EXPRESSION_WORDS
    renamed: dict[str, str] = field(default_factory=dict)
    """Label -> marker for every label that was renamed (for the header)."""

    @classmethod
    def for_config(cls, config: pytest.Config, user_declared: set[str]) -> MarkerNames:
        """The names taken in ``config``: every registered marker the user's ini file did not
        declare itself (``user_declared``), and pytest's marks whatever the ini says."""
        registered = declared(config.getini("markers")) - user_declared - {"pau"}
        return cls(PYTEST_MARKS | EXPRESSION_WORDS | frozenset(registered))

    def name(self, label: str) -> str:
        """The marker of ``label``: its safe name, or ``pau_<name>`` when that is taken."""
        name = marker_name(label)
        if name in self.taken or _own(name):
            self.renamed[label] = PREFIX + name
            return PREFIX + name
        return name

    def of(self, instance: Instance) -> list[str]:
        """Marker names of one instance: ``pau``, ``arity<N>``, its source and its tags."""
        names = ["pau", f"arity{instance.arity}", self.name(instance.source)]
        names += [self.name(t) for t in instance.tags]
        return list(dict.fromkeys(names))

    def lines(self, instances: Iterable[Instance]) -> list[str]:
        """``markers`` ini lines registering every marker the instances use."""
        seen: dict[str, str] = {}  # `pau` itself is registered by the plugin in every run
        # arity1..4 always exist, so `-m arity3 --strict-markers` is valid on any dataset.
        for n in range(1, 5):
            seen[f"arity{n}"] = f"PAU items whose method takes {n} argument(s)"
        for inst in instances:
            seen.setdefault(
                f"arity{inst.arity}", f"PAU items whose method takes {inst.arity} argument(s)"
            )
            seen.setdefault(self.name(inst.source), f"PAU items from the {inst.source!r} dataset")
            for tag in inst.tags:
                seen.setdefault(self.name(tag), f"PAU items tagged {tag!r}")
        return [f"{name}: {text}" for name, text in seen.items()]

    def header(self) -> str | None:
        """The header line listing the renamed labels, or None when none was."""
        if not self.renamed:
            return None
        pairs = ", ".join(f"{label!r} -> {name}" for label, name in sorted(self.renamed.items()))
        return (
            f"pau: dataset labels that are marks with a meaning in pytest or a plugin are "
            f"markers under {PREFIX}*, so they change no outcome: {pairs} (select them with "
            "-m or -k by the new name)"
        )


def instance_markers(instance: Instance) -> list[str]:
    """Marker names of one instance with nothing registered but pytest's marks."""
    return MarkerNames().of(instance)

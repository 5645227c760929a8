"""The format of a stored answer's JSON, and how an entry of another format is read.

An entry is a :class:`~pytest_pau.models.Completion`'s fields plus ``"format"``
(:data:`VALUE_FORMAT`). The key holds what determines the answer, not the plugin version,
so a cache outlives upgrades and is shared by versions: an entry written by another
version must be read (migrated, :data:`MIGRATIONS`), or, when it cannot be, set aside as a
miss with a warning (counted in :attr:`~pytest_pau.llm.cache.ResponseCache.unreadable`): it
is asked again and replaced by this version's entry. It never fails an item (a
``ValidationError`` in every item that met such an entry before).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: The format this version writes. Entries without ``"format"`` are format 0: written before
#: the field existed, with the same fields as format 1.
VALUE_FORMAT = 1

#: ``MIGRATIONS[n]`` turns a format-``n`` value into format ``n + 1``.
MIGRATIONS: tuple[Callable[[dict[str, Any]], dict[str, Any]], ...] = (
    lambda value: value,  # 0 -> 1: the fields are the same; only "format" was added
)


def stored(fields: dict[str, Any]) -> dict[str, Any]:
    """The value to store for a completion's ``fields``: tagged with :data:`VALUE_FORMAT`."""
    return {**fields, "format": VALUE_FORMAT}


def current(value: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """``value`` migrated to :data:`VALUE_FORMAT` (without the tag), or ``(None, why)``."""
    fields = dict(value)
    found = fields.pop("format", 0)
    if isinstance(found, bool) or not isinstance(found, int) or found < 0:
        return None, f"an unknown value format {found!r}"
    if found > VALUE_FORMAT:
        return None, f"value format {found}, newer than this version's {VALUE_FORMAT}"
    for step in MIGRATIONS[found:]:
        fields = step(fields)
    return fields, None

"""What a run checks before its first item, so that a mistake costs no model call.

Each check either raises :class:`~pytest_pau.errors.ConfigError` (the plugin turns it into a
usage error naming the option) or returns notes for the summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_pau.options import LOCAL_MODELS

if TYPE_CHECKING:
    from pytest_pau.settings import PauSettings

PSEUDO = ("oracle", "null")


def remote_roles(settings: PauSettings) -> list[tuple[str, str, str | None]]:
    """``(role, model, api_base)`` of every role a remote model plays (one row per model)."""
    rows = [
        ("model", settings.model or "", settings.api_base),
        ("judge", settings.judge_model, settings.judge_api_base),
        ("coder", settings.coder_model, settings.coder_api_base),
    ]
    seen: set[tuple[str, str | None]] = set()
    out = []
    for role, model, base in rows:
        if not model or model in PSEUDO or model in LOCAL_MODELS or (model, base) in seen:
            continue
        seen.add((model, base))
        out.append((role, model, base))
    return out


def endpoint_notes(settings: PauSettings) -> list[str]:
    """Notes for models behind an ``api_base`` whose server does not identify them.

    Their answers are cached by alias and address only (see :mod:`pytest_pau.llm.endpoint`).
    """
    if settings.no_cache:
        return []
    from pytest_pau.llm.endpoint import identity

    notes = []
    for _role, model, base in remote_roles(settings):
        if base:
            note = identity(base, model).warning(model)
            if note is not None:
                notes.append(note)
    return notes

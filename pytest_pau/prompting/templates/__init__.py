"""The prompt templates of every stage, and the version string that covers them all.

Prompts are plain Markdown files, one folder per stage (``agent/``, ``scoring/``,
``train/``), with ``$name`` placeholders (:class:`string.Template`), so they can be read,
reviewed and versioned like code. ``$`` was chosen over ``{}`` because prompts quote Python
code and literals full of braces. Every file name is unique across the folders, so a
template is named by its stem alone: ``render("judge", gold=..., prediction=...)``.

:data:`PROMPTS_VERSION` is a human version plus a short hash of every template's text,
recorded in each report so two runs can tell whether they used the same prompts.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from string import Template

#: Bump by hand when the prompts change meaning; the hash catches every other edit.
PROMPTS_HUMAN_VERSION = "1.2"

TEMPLATES_DIR = Path(__file__).parent
STAGES = ("agent", "scoring", "train")


def _index() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for stage in STAGES:
        for path in sorted((TEMPLATES_DIR / stage).glob("*.md")):
            if path.stem in found:
                raise RuntimeError(
                    f"prompt template name {path.stem!r} is used twice ({found[path.stem]} and "
                    f"{path}); template names must be unique across {STAGES}"
                )
            found[path.stem] = path
    return found


_PATHS = _index()
#: Every template name, e.g. ``reason``, ``judge``, ``critic_reflect``.
TEMPLATE_NAMES: tuple[str, ...] = tuple(sorted(_PATHS))


@cache
def _template(name: str) -> Template:
    path = _PATHS.get(name)
    if path is None:
        raise FileNotFoundError(
            f"prompt template {name!r} does not exist; expected one of {list(TEMPLATE_NAMES)}"
            " (a broken installation: reinstall pytest-pau)"
        )
    return Template(path.read_text(encoding="utf-8").strip())


def render(name: str, **values: object) -> str:
    """Fill the template ``name`` with ``values``.

    Args:
        name: Template file stem (``reason``, ``judge``, ``critic_system``...).
        **values: One value per ``$placeholder``; a missing one raises ``KeyError``.

    Returns:
        The prompt text.
    """
    return _template(name).substitute({k: str(v) for k, v in values.items()})


def _compute_version() -> str:
    digest = hashlib.sha256()
    for name in TEMPLATE_NAMES:
        path = _PATHS[name]
        digest.update(f"{path.parent.name}/{path.name}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return f"{PROMPTS_HUMAN_VERSION}+{digest.hexdigest()[:8]}"


PROMPTS_VERSION: str = _compute_version()
"""``"<human version>+<sha256 prefix of all templates>"``, e.g. ``"1.1+3fa2c1d9"``."""

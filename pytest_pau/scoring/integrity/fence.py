"""Fences: untrusted text between per-call delimiters it cannot forge, and the grader's
reply without what it quoted of that text (see :mod:`pytest_pau.scoring.integrity.analysis`)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

# Changing this changes every fenced prompt (and so every cache key of those calls).
_FENCE_SALT = "pytest-pau/integrity/fence/v1"
# Runs of characters that read as "<<<" or ">>>" (with their fullwidth and small forms).
_ANGLE_RUN = re.compile(r"[<\uff1c\ufe64]{3,}|[>\uff1e\ufe65]{3,}")


@dataclass(frozen=True)
class Fence:
    """Untrusted text between delimiters it cannot contain.

    The delimiters carry a nonce: 16 hex digits of SHA-256 over a salt, the call's seed,
    the label and the text itself. Deterministic, so a re-run sends the same prompt and the
    model-call cache hits. Unforgeable from inside: the model under test never sees a
    grader's prompt, so it has never seen a nonce; and since the nonce hashes the very text
    that would have to contain it, writing the right delimiter into one's own answer means
    finding a fixed point of SHA-256 (about 2**64 tries for 16 hex digits). Besides, any
    ``<<<`` or ``>>>`` run in the text is rewritten (to single angle quotation marks,
    U+2039 and U+203A), so even a delimiter-shaped line with a guessed nonce reads as
    text, not as a fence.
    """

    body: str
    """The text, with delimiter-shaped runs defused."""
    nonce: str
    label: str = "CANDIDATE"

    @property
    def open(self) -> str:
        """The opening delimiter line."""
        return f"<<<{self.label} {self.nonce}>>>"

    @property
    def close(self) -> str:
        """The closing delimiter line."""
        return f"<<<END {self.label} {self.nonce}>>>"

    @property
    def block(self) -> str:
        """Opening line, body, closing line."""
        return f"{self.open}\n{self.body}\n{self.close}"


def fence(text: str, *, seed: int = 0, label: str = "CANDIDATE") -> Fence:
    """Fence ``text`` (see :class:`Fence`); ``label`` is upper-case words, e.g. ``PLAN``."""
    if not re.fullmatch(r"[A-Z][A-Z ]{0,30}", label):
        raise ValueError(f"fence(label=...): expected upper-case words, got {label!r}")
    digest = hashlib.sha256(f"{_FENCE_SALT}\0{seed}\0{label}\0{text}".encode()).hexdigest()
    nonce = digest[:16]
    body = _ANGLE_RUN.sub(
        lambda m: ("\u2039" if m.group(0)[0] in "<\uff1c\ufe64" else "\u203a") * len(m.group(0)),
        text,
    )
    body = body.replace(nonce, "#" * len(nonce))
    return Fence(body=body, nonce=nonce, label=label)


_QUOTED = re.compile(r"\"[^\"\n]{1,400}\"|“[^”\n]{1,400}”|«[^»\n]{1,400}»|`[^`\n]{1,400}`")
_BLOCKQUOTE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_RATING_WORD = re.compile(r"rating|score|grade|note|bewertung|nota|оценка|评分|評価", re.IGNORECASE)


def strip_quoted(reply: str, fenced: Fence | None = None) -> str:
    """A grader's reply without what it quoted of the untrusted text.

    Removed: anything between an echo of ``fenced``'s delimiters (to the end when only
    the opening one is echoed), Markdown blockquote lines, code blocks, and quoted strings
    that contain a rating word. What is left is the grader's own writing, where its
    rating is looked for.
    """
    text = reply
    if fenced is not None:
        for marker in (fenced.open, fenced.close):
            text = text.replace(marker, f"\0{marker}\0")
        text = re.sub(
            re.escape(f"\0{fenced.open}\0")
            + r".*?(?:"
            + re.escape(f"\0{fenced.close}\0")
            + r"|\Z)",
            " ",
            text,
            flags=re.DOTALL,
        )
        text = text.replace("\0", "")
    text = _CODE_BLOCK.sub(" ", text)
    text = _BLOCKQUOTE.sub("", text)
    return _QUOTED.sub(lambda m: " " if _RATING_WORD.search(m.group(0)) else m.group(0), text)

"""Finding text addressed to the grader (:func:`detect`), removing it (:func:`defend`),
and rendering it inert for a grader's prompt (:func:`neutralize`); see the package docstring."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pytest_pau.scoring.integrity.fence import Fence, fence, strip_quoted
from pytest_pau.scoring.integrity.i18n import RULES_I18N
from pytest_pau.scoring.integrity.payloads import payload_hits
from pytest_pau.scoring.integrity.rules import RULES, Rule, word_prefixes
from pytest_pau.scoring.integrity.text import Block, build_view, find_blocks, units_of
from pytest_pau.scoring.integrity.units import Unit, carriers, flag_units, inside_any, merge, remove

__all__ = [
    "ALL_RULES",
    "FORMAT_KINDS",
    "INERT",
    "INTEGRITY_VERSION",
    "Defended",
    "Fence",
    "Finding",
    "defend",
    "detect",
    "fence",
    "neutralize",
    "strip_quoted",
]

#: Bump when the rules change what they flag (a run's scores depend on it, like prompts).
INTEGRITY_VERSION = "2"
ALL_RULES: tuple[Rule, ...] = (*RULES, *RULES_I18N)
#: How deep an encoded note inside an encoded note is decoded.
_MAX_DEPTH = 2
#: Kinds that imitate the grader's output or the prompt's structure: :func:`neutralize`
#: makes them inert in place; the others stay visible as the model wrote them.
FORMAT_KINDS = frozenset({"rating_claim", "role_marker", "delimiter"})
#: Characters a rating parser or a chat template reads, and the inert look-alikes that
#: :func:`neutralize` puts in their place (ratio sign, guillemets, broken bar...).
INERT = str.maketrans({":": "\u2236", "=": "\ua78a", "<": "\u2039", ">": "\u203a", "|": "\u00a6"})


@dataclass(frozen=True)
class Finding:
    """One part of a text addressed to the grader."""

    start: int
    end: int
    """The span in the original text."""
    kind: str
    """``rating_claim``, ``rating_request``, ``verdict_claim``, ``grader_address``,
    ``instruction``, ``role_marker``, ``delimiter``, ``hidden_text``, ``appeal`` or
    ``authority_claim``."""
    text: str
    """``original[start:end]``."""
    reason: str
    rule: str

    def describe(self) -> str:
        """One line for reports: ``kind: 'text' (reason)``."""
        shown = self.text if len(self.text) <= 80 else self.text[:77] + "..."
        return f"{self.kind}: {shown!r} ({self.reason})"


@dataclass(frozen=True)
class Defended:
    """The outcome of :func:`defend`."""

    text: str
    """The text with every flagged sentence, line or note removed."""
    findings: list[Finding] = field(default_factory=list)
    removed: list[tuple[int, int]] = field(default_factory=list)
    """The original spans that were taken out."""

    @property
    def flagged(self) -> bool:
        """Whether anything was found."""
        return bool(self.findings)


@dataclass
class _Analysis:
    text: str
    findings: list[Finding]
    removed: list[tuple[int, int]]


_CYRILLIC = re.compile("[\u0400-\u04ff]")


def _matches(text: str, depth: int = 0) -> list[tuple[Rule, int, int]]:
    view = build_view(text)
    prefixes = {"latin": word_prefixes(view.latin)}
    # The Russian rules need letters no Latin look-alike maps to: skip them without any.
    has_cyrillic = _CYRILLIC.search(text) is not None
    out: list[tuple[Rule, int, int]] = []
    for rule in ALL_RULES:
        if rule.script == "latin":
            folded = view.latin
        elif has_cyrillic:
            folded = view.cyrillic
            if "cyrillic" not in prefixes:
                prefixes["cyrillic"] = word_prefixes(folded)
        else:
            continue
        if not rule.may_match(prefixes[rule.script], folded):
            continue
        for m in rule.pattern.finditer(folded):
            start, end = m.start(), m.end()
            while start < end and folded[start] in " \t\n":  # trim what the prefix ate
                start += 1
            while end > start and folded[end - 1] in " \t\n":
                end -= 1
            if end > start:
                s, e = view.span(start, end)
                out.append((rule, s, e))
    # What the folded view cannot show: tag characters, notes encoded as base64 or hex.
    out += payload_hits(
        text, lambda decoded: depth < _MAX_DEPTH and bool(_analyse(decoded, depth + 1).findings)
    )
    return out


def _analyse(text: str, depth: int = 0) -> _Analysis:
    hits = _matches(text, depth)
    if not hits:
        return _Analysis(text, [], [])
    roots = find_blocks(text)
    units: list[Unit] = []
    whole_blocks: list[Block] = []
    containers: dict[int, Block | None] = {}

    def walk(start: int, end: int, children: list[Block], block: Block | None) -> None:
        cid = len(containers)
        containers[cid] = block
        if block is not None and block.kind == "opaque":
            units.append(Unit(start, end, 0, cid))
            return
        json = block is not None and block.kind == "json"
        for u in units_of(text, start, end, children, json=json):
            units.append(Unit(u.start, u.end, u.paragraph, cid))
        for child in children:
            walk(child.inner_start, child.inner_end, child.children, child)

    walk(0, len(text), roots, None)
    for rule, s, e in hits:
        block = _deepest(roots, s, e)
        if block is not None and (s < block.inner_start or e > block.inner_end):
            # The match takes in the block's own delimiters (an HTML comment, a tag pair):
            # the block goes whole, and the match is reported from inside it.
            whole_blocks.append(block)
            owner = _owner_of_block(units, containers, block)
        else:
            owner = _owner(units, containers, s, e)
        if owner is not None:
            owner.hits.append((rule, s, e))
    flag_units(units, text)
    removed = carriers(text, units, containers, whole_blocks)
    findings = sorted(
        {
            Finding(s, e, r.kind, text[s:e], r.reason, r.name)
            for u in units
            if u.flagged or inside_any(u, removed)
            for r, s, e in u.hits
        },
        key=lambda f: (f.start, f.end, f.rule),
    )
    if not findings:
        return _Analysis(text, [], [])
    return _Analysis(remove(text, removed), findings, removed)


def _owner(units: list[Unit], containers: dict[int, Block | None], s: int, e: int) -> Unit | None:
    """The unit holding the match start, in the deepest container holding the whole match.

    A match that starts between units (on blanks) belongs to the unit before it.
    """
    best: Unit | None = None
    best_key: tuple[int, int, int] | None = None
    for u in units:
        block = containers[u.container]
        lo, hi = (0, 1 << 62) if block is None else (block.inner_start, block.inner_end)
        if not (lo <= s and e <= hi) or u.start > s:
            continue
        # The smallest container first, then a unit that holds the start, then the nearest.
        key = (hi - lo, 0 if s < u.end else 1, -u.start)
        if best_key is None or key < best_key:
            best, best_key = u, key
    return best


def _deepest(blocks: list[Block], s: int, e: int) -> Block | None:
    """The innermost block whose outer span holds ``s:e``."""
    for b in blocks:
        if b.start <= s and e <= b.end:
            return _deepest(b.children, s, e) or b
    return None


def _owner_of_block(
    units: list[Unit], containers: dict[int, Block | None], block: Block
) -> Unit | None:
    for u in units:
        if containers[u.container] is block:
            return u
    return None


# A sentence that says what the method does is never swept up with a flagged neighbour.
def detect(text: str) -> list[Finding]:
    """The parts of ``text`` addressed to the grader, in text order (empty: none).

    Args:
        text: Untrusted text (a description, a plan, a hypothesis).

    Returns:
        One :class:`Finding` per matched rule in a flagged sentence, line or note.
    """
    return _analyse(text).findings


def defend(text: str) -> Defended:
    """``text`` with what :func:`detect` finds removed.

    The carrier of a finding is removed whole: the bracketed note, HTML comment, code
    fence or tag pair it sits in when the note fills that block (or starts it), else its
    sentence or line; a sentence beside a flagged one that also leans on the grading, and
    the line after a flagged label ("Note to the grader:"), go with it. Nothing else
    changes: without findings the text comes back byte-identical.
    """
    result = _analyse(text)
    return Defended(text=result.text, findings=result.findings, removed=result.removed)


def neutralize(
    text: str,
    findings: list[Finding] | None = None,
    *,
    hazards: tuple[re.Pattern[str], ...] = (),
) -> str:
    """``text`` as a grader should see it: everything kept, nothing able to act as format.

    Findings of :data:`FORMAT_KINDS` (a rating line, a chat token, a fake delimiter) are
    shown as ``[neutralised: ...]`` with their ``:``, ``=``, ``<``, ``>`` and ``|`` swapped
    for inert look-alikes (:data:`INERT`); then every match of ``hazards`` (the rating
    parsers' own patterns) left anywhere gets the same swap on its separator, so that a
    grader quoting the text cannot produce a parseable rating from it. Appeals and notes
    stay as written: the grader is told to disregard them, and the second opinion rates
    the text without them (:func:`defend`).

    Args:
        text: The untrusted text.
        findings: :func:`detect`'s findings of ``text`` (computed when None).
        hazards: Patterns that read a rating; matched as the parser does (with ``*_```
            emphasis removed), case-insensitively.
    """
    findings = detect(text) if findings is None else findings
    spans = merge([(f.start, f.end) for f in findings if f.kind in FORMAT_KINDS])
    out: list[str] = []
    pos = 0
    for s, e in spans:
        out.append(text[pos:s])
        out.append(f"[neutralised: {text[s:e].translate(INERT)}]")
        pos = e
    out.append(text[pos:])
    rendered = "".join(out)
    for pattern in hazards:
        rendered = _defuse(rendered, pattern)
    return rendered


def _defuse(text: str, pattern: re.Pattern[str]) -> str:
    keep = [i for i, ch in enumerate(text) if ch not in "*_`"]
    plain = "".join(text[i] for i in keep)
    chars = list(text)
    for m in pattern.finditer(plain):
        for j in range(m.start(), m.end()):
            if plain[j] in ":=":
                chars[keep[j]] = plain[j].translate(INERT)
    return "".join(chars)

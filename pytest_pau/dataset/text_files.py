"""Reading text files that users hand in: UTF-8 only, and a bad byte is a message, not a crash.

Every reader of a user's text file goes through here (``.jsonl`` datasets, the files of a
local ``hf:`` folder, ``pau call``'s ``.py`` file), so that a file in another encoding
always fails the same way: the file, the line, the column, the byte offset and the byte,
the text around it, and how to convert the file. Python's own
``UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 2`` names none of
the file, the line or the offset in the file.
"""

from __future__ import annotations

import codecs
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from pytest_pau.dataset.literal_text import shown as shown_text
from pytest_pau.errors import DatasetError, PauError

#: Suffixes of the text files ``datasets`` reads from a local folder (checked before it).
TEXT_SUFFIXES = (".jsonl", ".json", ".csv", ".tsv", ".txt")


def convert_hint(shown: str, suffix: str = ".jsonl") -> str:
    """How to convert a Latin-1 file to UTF-8, with the file's name in the command."""
    return (
        f"if the file is Latin-1, convert it with "
        f"`iconv -f latin1 -t utf-8 {shlex.quote(shown)} > fixed{suffix}`"
    )


def not_utf8(
    shown: str, lineno: int, start: int, raw: bytes, exc: UnicodeDecodeError, hint: str
) -> str:
    """The message for a line that is not UTF-8: where the byte is, and what to do.

    Args:
        shown: The file as the user named it.
        lineno: The line's number (1-based).
        start: The byte offset of the line's first byte in the file.
        raw: The line's bytes.
        exc: The decoder's error on ``raw``.
        hint: What to do, appended as is (e.g. :func:`convert_hint`).
    """
    bad = raw[exc.start]
    column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
    near = raw[max(0, exc.start - 20) : exc.start + 20].rstrip(b"\r\n")
    return (
        f"{shown} line {lineno}: not UTF-8 text: byte 0x{bad:02x} at byte offset "
        f"{start + exc.start} (column {column}), near {shown_text(near, 60)}; {hint}"
    )


def utf8_lines(
    handle: BinaryIO, shown: str, hint: str, *, error: type[PauError] = DatasetError
) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each line of a binary file, line ends kept.

    A leading UTF-8 byte-order mark (written by some Windows editors) is dropped. Lines are
    decoded one at a time, so a bad byte deep in a large file is found without reading the
    whole file into memory, and its line and offset come for free.

    Raises:
        error: at the first byte that is not UTF-8 (:func:`not_utf8`'s message).
    """
    offset = 0
    for lineno, raw in enumerate(handle, start=1):
        start = offset
        offset += len(raw)
        if lineno == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
            start += len(codecs.BOM_UTF8)
        try:
            yield lineno, raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(not_utf8(shown, lineno, start, raw, exc, hint)) from None


def open_binary(path: Path, shown: str, *, error: type[PauError] = DatasetError) -> BinaryIO:
    """``path`` opened for reading bytes.

    Raises:
        error: it cannot be opened (the reason in words: permissions, a directory...).
    """
    try:
        return path.open("rb")
    except OSError as exc:
        raise error(f"{shown}: cannot be read ({exc.strerror or exc})") from None


def read_utf8(path: Path, shown: str, hint: str, *, error: type[PauError] = DatasetError) -> str:
    """The whole text of a UTF-8 file (a byte-order mark dropped).

    Raises:
        error: the file cannot be read, or is not UTF-8 (naming line, column and offset).
    """
    with open_binary(path, shown, error=error) as handle:
        return "".join(text for _, text in utf8_lines(handle, shown, hint, error=error))


def check_utf8_files(folder: Path, shown: str, *, limit: int = 1000) -> None:
    """Check that the text files under ``folder`` (:data:`TEXT_SUFFIXES`) are UTF-8.

    For readers that decode later and say less (``datasets`` reads a Latin-1 ``.jsonl``
    without complaint, then fails on the first row it converts, naming no file).

    Args:
        folder: The folder.
        shown: How the folder is named in messages (``hf:./data``).
        limit: Check at most this many files (a folder that big is not a dataset folder).

    Raises:
        DatasetError: naming the first file that is not UTF-8, with line and offset.
    """
    files = sorted(p for p in folder.rglob("*") if p.suffix in TEXT_SUFFIXES and p.is_file())
    for file in files[:limit]:
        name = str(file)
        with open_binary(file, f"{shown}: {name}") as handle:
            for _ in utf8_lines(handle, f"{shown}: {name}", convert_hint(name, file.suffix)):
                pass


__all__ = [
    "TEXT_SUFFIXES",
    "check_utf8_files",
    "convert_hint",
    "not_utf8",
    "open_binary",
    "read_utf8",
    "utf8_lines",
]

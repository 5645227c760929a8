"""What the text renderers write to: pytest's ``TerminalReporter`` or a string."""

from __future__ import annotations

from typing import Protocol


class Writer(Protocol):
    """What :func:`render` needs: pytest's ``TerminalReporter`` has these methods."""

    def write(self, content: str, **markup: bool) -> None: ...

    def line(self, msg: str, **markup: bool) -> None: ...

    def write_sep(self, sep: str, title: str | None = None, **markup: bool) -> None: ...

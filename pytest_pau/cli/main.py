"""The ``pau`` command: one module per subcommand under ``pytest_pau/cli/``.

Each subcommand module defines ``add_parser(subparsers) -> argparse.ArgumentParser`` and
``run(args: argparse.Namespace) -> int``. Modules are imported only when their command
runs (``--help`` of the top level imports them all), so ``pau call`` never pays for
litellm or torch.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import FrameType

from pytest_pau._version import __version__
from pytest_pau.errors import PauError

#: subcommand name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "call": (
        "pytest_pau.cli.call",
        "Run one input through a method in the sandbox and print the result.",
    ),
    "sandbox": (
        "pytest_pau.cli.sandbox",
        "Build, inspect or clean the WebAssembly sandbox component.",
    ),
    "doctor": (
        "pytest_pau.cli.doctor",
        "Say where the embedded models' weights, the runtime and the sandbox come from.",
    ),
    "show": ("pytest_pau.cli.show", "Print one instance's trajectory from a JSON report."),
    "compare": ("pytest_pau.cli.compare", "Compare runs: paired statistics between JSON reports."),
    "merge": (
        "pytest_pau.cli.merge",
        "Join the JSON reports of a run's shards (--pau-shard) into one, gates recomputed.",
    ),
    "plot": ("pytest_pau.cli.plot", "Draw PNG plots from JSON reports."),
    "paper": ("pytest_pau.cli.paper", "The PAU paper's table and figures from JSON reports."),
    "import-reference": (
        "pytest_pau.cli.import_reference",
        "Turn the PAU reference's result files into a JSON report.",
    ),
    "judge-check": (
        "pytest_pau.cli.judge_check",
        "Rate gold, decoy and content-free descriptions: can this judge tell them apart?",
    ),
    "cache": ("pytest_pau.cli.cache", "Inspect, clear or prune the model-call cache."),
    "init": ("pytest_pau.cli.init", "Write conftest templates into a project."),
    "train": (
        "pytest_pau.cli.train",
        "Post-train a model with Asymmetric Actor Critic on PAU instances.",
    ),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser; with ``only``, import just that subcommand's module."""
    parser = argparse.ArgumentParser(
        prog="pau",
        description="pytest-pau command-line tools. The benchmark itself runs as `pytest --pau-model=MODEL`.",
    )
    parser.add_argument("--version", action="version", version=f"pytest-pau {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text, add_help=False)
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # a subcommand not built into this version
        sub_parser = module.add_parser(sub)
        sub_parser.set_defaults(_run=module.run)
        _plain_help(sub_parser)
    return parser


class _Signalled:
    """The stop signals a command has received (SIGINT, SIGTERM), in order."""

    names: list[str] = []  # noqa: RUF012 - one process, one list


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C and SIGTERM raise ``KeyboardInterrupt`` where the command is; a second one of
    either ends the process as it would have."""
    _Signalled.names.append(signal.Signals(signum).name)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _catch_signals() -> Callable[[], None]:
    """Take SIGINT and SIGTERM (where Python's defaults hold); returns what gives them back.

    SIGTERM's default ends the process where it is, without the clean-up of an atomic
    write; and a handler of the plugin's start-up, imported by some commands, would call a
    Ctrl-C during ``pau merge`` "pytest starting". A handler set by someone else is kept.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    taken = []
    for sig, default in (
        (signal.SIGINT, signal.default_int_handler),
        (signal.SIGTERM, signal.SIG_DFL),
    ):
        if signal.getsignal(sig) == default:
            signal.signal(sig, _on_signal)
            taken.append((sig, default))

    def restore() -> None:
        for sig, default in taken:
            if signal.getsignal(sig) is _on_signal:
                signal.signal(sig, default)

    return restore


def _stopped(command: str) -> int:
    """One line for a command stopped by a signal; the shell's exit status for it."""
    name = _Signalled.names[0] if _Signalled.names else "SIGINT"
    if name == "SIGINT":
        print(f"pau {command}: interrupted", file=sys.stderr)
        return 130
    print(f"pau {command}: stopped by {name}", file=sys.stderr)
    return 128 + signal.Signals[name].value


def _plain_help(parser: argparse.ArgumentParser) -> None:
    """Show the docstring markup ``x`` that help texts borrow as `x` (what a terminal reads)."""
    for owner in (parser, *parser._actions):
        for name in ("description", "epilog", "help"):
            text = getattr(owner, name, None)
            if isinstance(text, str) and "``" in text:
                setattr(owner, name, _RST_LITERAL.sub(r"`\1`", text))
        if isinstance(owner, argparse._SubParsersAction):
            for nested in owner.choices.values():
                _plain_help(nested)


_RST_LITERAL = re.compile(r"``(.+?)``", re.S)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pau`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    _Signalled.names = []
    restore = _catch_signals()
    try:
        return _main(argv, command)
    except KeyboardInterrupt:  # while a command's modules load
        return _stopped(command or "")
    finally:
        restore()


def _main(argv: list[str], command: str | None) -> int:
    parser = build_parser(only=command if command in COMMANDS else None)
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        status = int(run(args) or 0)
        sys.stdout.flush()  # inside the try: a reader that left is found here, not at exit
        return status
    except BrokenPipeError:
        # The reader went away (`pau show REPORT | head`): end quietly, as cat does. Python
        # would otherwise report the pipe again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, a shell's status for a writer whose reader left
    except PauError as exc:
        print(f"pau {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return _stopped(args.command)
    except Exception:
        if _Signalled.names:  # a signal raised inside a library that wrapped it (pydantic)
            return _stopped(args.command)
        raise


if __name__ == "__main__":
    sys.exit(main())

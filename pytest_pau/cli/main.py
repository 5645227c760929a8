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
import sys
from collections.abc import Sequence

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
        print(f"pau {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

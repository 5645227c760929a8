"""``pau call FILE_OR_INSTANCE "(args)" ...``: run inputs through a method in the sandbox.

FILE is a ``.py`` file defining the entry function (``test_func``); INSTANCE is a dataset
id such as ``builtin/vowels_minus_consonants``. Without inputs, an instance's test examples are run
and each result is compared with the expected output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.dataset.builtin import EXAMPLE_ID
from pytest_pau.dataset.files import SUFFIXES as DATASET_SUFFIXES
from pytest_pau.dataset.files import source_name
from pytest_pau.dataset.text_files import utf8_lines
from pytest_pau.errors import ConfigError
from pytest_pau.settings import DEFAULTS, add_options, specs_named

if TYPE_CHECKING:
    from pytest_pau.models import Example


#: What a target must be, for the messages.
_WANTED = f"pass a .py file defining test_func, or an instance id such as {EXAMPLE_ID}"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``pau call``."""
    parser = subparsers.add_parser(
        "call",
        help="Run one input through a method in the sandbox and print the result.",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "target",
        metavar="FILE_OR_INSTANCE",
        help="A .py file defining the entry, or a dataset instance id (builtin/NAME).",
    )
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar="ARGS",
        help='Argument tuples as Python literals, e.g. "([1, 2], 3)". Default: the instance\'s test inputs.',
    )
    parser.add_argument(
        "--entry", default="test_func", help="Function to call (default: test_func)."
    )
    # --pau-sandbox's definition (parser, help, default), named without the prefix.
    add_options(parser.add_argument, specs_named("sandbox"), prefix="--", dest_prefix="")
    parser.add_argument(
        "--backend", dest="sandbox", type=specs_named("sandbox")[0].parse, help=argparse.SUPPRESS
    )  # the old name
    parser.add_argument(
        "--dataset",
        default=None,
        help="Dataset spec to find INSTANCE in (default: the id's source, e.g. builtin).",
    )
    parser.add_argument(
        "--fuel", type=int, default=None, help="Wasm fuel per call (default: the sandbox default)."
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="Wall-clock limit per call in seconds (default: 10).",
    )
    parser.add_argument(
        "--memory-mb", type=int, default=None, help="Memory cap in MiB (default: 256)."
    )
    parser.add_argument(
        "--json", action="store_true", help="Print one JSON object per call instead of text."
    )
    return parser  # type: ignore[no-any-return]


def _resolve(target: str, dataset: str | None) -> tuple[str, list[Any]]:
    """The code to run and, for an instance, its test examples."""
    if not target.strip():
        raise ConfigError(f"{target!r}: {_WANTED}")
    path = Path(target)
    if path.is_dir():
        raise ConfigError(f"{target!r} is a directory; {_WANTED}")
    if path.suffix in DATASET_SUFFIXES:
        # JSON lines are mostly valid Python: run as code, they would fail much later.
        raise ConfigError(
            f"{target!r} is a dataset file, not a method; run one of its instances with "
            f"`pau call --dataset {target} {source_name(path.stem)}/ID`, or pass a .py file"
        )
    # "/x/y", "./y", "y/" or "y.py" name a file, never a dataset instance.
    looks_like_a_path = (
        path.suffix == ".py" or target.startswith(("/", ".", "~")) or target.endswith("/")
    )
    spec = dataset or (target.split("/", 1)[0] if "/" in target else "builtin")
    # "dir/name" with an existing dir is a file path (a dataset source is never a folder).
    looks_like_a_path |= dataset is None and "/" in target and Path(spec).is_dir()
    if looks_like_a_path or path.is_file():
        if not path.is_file():
            raise ConfigError(f"file {target!r} does not exist; {_WANTED}")
        return _read_source(path), []
    from pytest_pau import load_dataset

    instances = load_dataset(spec)
    for inst in instances:
        if target in (inst.id, inst.local_id):
            return inst.code, list(inst.test_examples)
    raise ConfigError(
        f"no instance {target!r} in dataset {spec!r}; ids look like {instances[0].id!r}"
        if instances
        else f"dataset {spec!r} is empty"
    )


def _read_source(path: Path) -> str:
    """The text of the method's file; a clear error when it cannot be read as UTF-8 text."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ConfigError(
            f"cannot read {str(path)!r}: {exc.strerror or exc}; check the path and its permissions"
        ) from None
    with handle:
        lines = utf8_lines(
            handle, str(path), "pass Python source saved as UTF-8", error=ConfigError
        )
        return "".join(text for _, text in lines)


def run(args: argparse.Namespace) -> int:
    """Run the calls and print them; exit 1 when an expected output is not reproduced.

    An input that is no Python literal is refused before any call (exit 2).
    """
    from pytest_pau.sandbox import Sandbox, outputs_equal

    code, examples = _resolve(args.target, args.dataset)
    for number, text in enumerate(args.inputs, 1):
        # Refused before the sandbox starts: an input it cannot read is the caller's mistake
        # (exit 2), not a result of the method's.
        refused = Sandbox.check_input(text)
        if refused is not None:
            raise ConfigError(f"ARGS {number}: {refused.message}")
    inputs: list[tuple[str, Example | None]] = [(text, None) for text in args.inputs]
    inputs = inputs or [(ex.input, ex) for ex in examples]
    if not inputs:
        raise ConfigError('give at least one input, e.g. pau call method.py "(1, 2)"')
    failed = 0
    with Sandbox(
        code,
        args.entry,
        args.sandbox or DEFAULTS.sandbox,
        fuel=args.fuel,
        timeout_s=args.timeout,
        memory_mb=args.memory_mb,
    ) as box:
        for text, example in inputs:
            result = box.call_literal(text)
            match = None if example is None else outputs_equal(example, result)
            failed += match is False
            if args.json:
                record = {"input": text, **result.model_dump()}
                if example is not None:
                    record["expected"] = example.model_dump()
                    record["match"] = match
                print(json.dumps(record))
            else:
                _print_text(text, result, example, match)
    return 1 if failed else 0


def _print_text(text: str, result: Any, example: Any, match: bool | None) -> None:
    fuel = f", {result.fuel:,} fuel" if result.fuel is not None else ""
    print(f"input:  {text}")
    if result.ok:
        kind = "" if result.literal else "  (not a literal: repr shown)"
        print(f"value:  {result.value}{kind}")
    else:
        print(f"error:  {result.error_type}: {result.message}")
        if result.traceback:
            print("\n".join("        " + line for line in result.traceback.splitlines()))
    if example is not None:
        want = f"{example.raises}: {example.output}" if example.raises else example.output
        print(f"expect: {want}  [{'match' if match else 'MISMATCH'}]")
    print(f"took:   {result.duration_s * 1000:.2f} ms{fuel}")
    print()
    sys.stdout.flush()

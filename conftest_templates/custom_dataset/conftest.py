"""Your own methods as PAU instances: ``pytest --pau-model=MODEL --pau-dataset=mine``.

Each method below becomes one item, ``pau::test_pau[mine/<name>]``, with markers for
its arity and tags (``-m smoke``). Outputs are computed by running the method in the
pytest-pau sandbox, so they are exactly what the agent will observe. For hundreds of
methods, write them to a ``.jsonl`` file in PAU's column format instead and pass its
path to ``--pau-dataset`` (docs/datasets.md, "Dataset format": the columns, and outputs as repr
text or as plain JSON values).
"""

from __future__ import annotations

from pytest_pau import Instance
from pytest_pau.models import Example

METHODS = {
    "shout": {
        "code": "def test_func(arg0):\n    return arg0.upper() + '!'\n",
        "description": "Returns the string in upper case followed by an exclamation mark.",
        "train": ["('hi',)", "('Ok',)"],
        "test": ["('',)", "('abc',)", "('a b',)"],
        "tags": ["smoke", "strings"],
    },
    "safe_div": {
        "code": (
            "def test_func(arg0, arg1):\n"
            "    if arg1 == 0:\n"
            "        raise ZeroDivisionError('division by zero')\n"
            "    return arg0 // arg1\n"
        ),
        "description": "Returns the floor division of the first integer by the second; "
        "raises ZeroDivisionError when the second is 0.",
        "train": ["(7, 2)", "(9, 3)"],
        "test": ["(-7, 2)", "(0, 5)", "(5, 0)"],
        "tags": ["numbers"],
    },
}


def _examples(box, inputs):
    out = []
    for text in inputs:
        r = box.call_literal(text)
        if r.ok:
            out.append(Example(input=text, output=r.value))
        else:
            out.append(Example(input=text, output=r.message or "", raises=r.error_type))
    return out


def build_instances(methods, source="mine"):
    from pytest_pau.sandbox import Sandbox

    instances = []
    for name, m in methods.items():
        header = next(line for line in m["code"].splitlines() if line.startswith("def test_func"))
        with Sandbox(m["code"]) as box:
            train, test = _examples(box, m["train"]), _examples(box, m["test"])
        arity = header.count("arg")
        instances.append(
            Instance(
                id=f"{source}/{name}",
                source=source,
                code=m["code"],
                header=header,
                description=m["description"],
                train_examples=train,
                test_examples=test,
                arity=arity,
                tags=m["tags"],
            )
        )
    return instances


def pytest_pau_load_dataset(config, spec, split):
    if spec != "mine":
        return None  # builtin, humaneval, files... as usual
    return build_instances(METHODS)

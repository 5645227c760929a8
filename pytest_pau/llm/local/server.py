"""llama-cpp-python's OpenAI-compatible server, started the way the embedded model is.

``python -m llama_cpp.server`` loads a model with llama.cpp's weight repacking on. On CPUs
with AMX tiles that repacking dies in the first decode (``Illegal instruction`` or a
segmentation fault; see :func:`~pytest_pau.llm.local.provider.extra_buffers_allowed`),
which the embedded model avoids. This module starts the same server with the same rule::

    python -m pytest_pau.llm.local.server --model local-small --port 8000
    pytest --pau-model=openai/local-small --pau-api-base=http://localhost:8000/v1

``--model`` takes a GGUF path, or ``local`` / ``local-small`` for the embedded models'
weights (found and checked as the plugin does); ``--model_alias`` defaults to that name.
Every other option is llama-cpp-python's (``--help``). ``PAU_LOCAL_EXTRA_BUFFERS=1`` turns
repacking back on. Needs the ``server`` extra (FastAPI and uvicorn).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from pytest_pau.llm.local.provider import _weight_repacking, extra_buffers_allowed


def server_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` with an embedded model's name as ``--model`` replaced by its weights path.

    >>> server_argv(["--port", "8000"])
    ['--port', '8000']
    """
    out = list(argv)
    for i, arg in enumerate(out):
        name, has_value, value = arg.partition("=")
        if name != "--model":
            continue
        given = value if has_value else (out[i + 1] if i + 1 < len(out) else "")
        if given in ("local", "local-small"):
            from pytest_pau.llm.local.weights import resolve_weights

            path = str(resolve_weights(given))
            if has_value:
                out[i] = f"--model={path}"
            else:
                out[i + 1] = path
            if not any(a.split("=")[0] == "--model_alias" for a in out):
                out += ["--model_alias", given]
        break
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Run llama-cpp-python's server on ``argv`` (default: the command line)."""
    try:
        from llama_cpp.server.__main__ import main as serve
    except ImportError as exc:
        raise SystemExit(
            f"llama-cpp-python's server cannot be imported ({exc}); install it with "
            "`pip install 'pytest-pau[server]'`"
        ) from None
    sys.argv = [sys.argv[0], *server_argv(sys.argv[1:] if argv is None else argv)]
    # The whole process: the server loads its models after it starts.
    with _weight_repacking(allowed=extra_buffers_allowed()):
        serve()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    main()

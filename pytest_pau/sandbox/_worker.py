"""The ``process`` backend's worker: runs one method's calls, one JSON line per request.

Started by :mod:`pytest_pau.sandbox.process` as ``python -I _worker.py GUEST_DIR MEMORY_MB``.
It runs the same ``pau_runner`` as the Wasm guest, so results have the same form. The
address space is capped with ``RLIMIT_AS`` (``MEMORY_MB`` above what the interpreter
already uses) and each call's CPU time with ``RLIMIT_CPU``: the kernel kills the worker
when a call overruns, and the host starts a new one.

Requests: ``{"op": "load", "code": ..., "entry": ...}`` and
``{"op": "call", "args": ..., "seed": ..., "max_output": ..., "cpu_s": ...}``.
File descriptors 0-2 are pointed at ``/dev/null`` so nothing the method prints at C level
can corrupt the protocol, which uses duplicates of the original pipes.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
import resource
import sys


def _virtual_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def main() -> int:
    guest, memory_mb = sys.argv[1], int(sys.argv[2])
    preload = [name for name in (sys.argv[3] if len(sys.argv) > 3 else "").split(",") if name]
    reader = os.fdopen(os.dup(0), "r", encoding="utf-8")
    writer = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.path.insert(0, guest)
    import pau_runner

    pau_runner.init(strict=False)
    for name in preload:  # what earlier workers of this sandbox saw the method import
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    pau_runner.seal()
    try:
        limit = _virtual_bytes() + (memory_mb << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError):
        pass  # not every platform allows it; the wall-clock limit still applies
    writer.write('{"ready": true}\n')
    for line in reader:
        request = json.loads(line)
        if request["op"] == "load":
            writer.write(
                json.dumps({"load": pau_runner.load(request["code"], request["entry"])}) + "\n"
            )
            continue
        usage = resource.getrusage(resource.RUSAGE_SELF)
        soft = int(usage.ru_utime + usage.ru_stime + math.ceil(request["cpu_s"])) + 1
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))
        writer.write(
            pau_runner.call(request["args"], request["seed"], request["max_output"]) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

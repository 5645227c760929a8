"""Compare llama.cpp Python runtimes for the embedded model (issue 39).

One command::

    python benchmarks/runtime_bench.py -o /tmp/runtime_bench.json

For each runtime it creates a fresh venv under /tmp, installs the runtime there with a cold
pip cache (timed), then runs a worker in that venv's own interpreter which loads the
``local`` GGUF (Qwen2.5-Coder-1.5B-Instruct Q4_K_M, path from
``pytest_pau.llm.local.weights.resolve_weights``) at n_threads=2 and measures, per
repeat: load time, prompt-eval tokens/s on a judge-like chat prompt (638 tokens, ChatML
as the model's template renders it), generation tokens/s over greedy new tokens. It also
records the greedy text (compared with llama-cpp-python's) and whether a sequence's state
can be saved and restored (``llama_state_seq_get_data``/``set_data``, what the prefix
cache uses): save after prompt[:-1], decode the last token, clear, restore, decode it
again, the greedy next token must be the same.

Both runtimes are driven through the same llama.cpp C calls (batch_get_one, greedy
sampler, state_seq_*), so the figures compare the compiled library, not the wrappers.
llama-cpp-python is compiled from source by pip (no binary wheel): its install is timed
only with ``--include-compile`` (about 6 min on 2 cores); otherwise the worker runs in the
interpreter given by ``--llama-cpp-python-venv`` (default: the project's .venv) and the
install time is left out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNTIMES = {
    # name: (pip requirement, adapter)
    "llama-cpp-python": ("llama-cpp-python==0.3.36", "ctypes"),
    "llama-cpp-py-sync": ("llama-cpp-py-sync==0.11739", "cffi"),
    "cyllama": ("cyllama==0.2.18", "cython"),
    "llama-cpp-cffi": ("llama-cpp-cffi==0.4.42", "cffi-api"),
}

WORKER = r"""
import json, sys, time
cfg = json.loads(sys.argv[1])


class CApi:
    # llama.cpp's C API through ctypes (llama-cpp-python) or cffi (llama-cpp-py-sync)
    def __init__(self, llm, lib, model, ctx, arr, buf, chars, chars_bytes):
        self.llm, self.lib, self.ctx = llm, lib, ctx
        self.arr, self.buf, self.chars, self.chars_bytes = arr, buf, chars, chars_bytes
        self.vocab = lib.llama_model_get_vocab(model)
        self.smpl = lib.llama_sampler_init_greedy()
        self.mem = lib.llama_get_memory(ctx) if hasattr(lib, "llama_get_memory") else None

    def tokenize(self, text):
        b = text.encode(); cap = len(b) + 16; out = self.arr([0] * cap)
        n = self.lib.llama_tokenize(self.vocab, b, len(b), out, cap, True, True)
        return [out[i] for i in range(n)]

    def decode(self, ts, pos0):
        a = self.arr(ts)
        rc = self.lib.llama_decode(self.ctx, self.lib.llama_batch_get_one(a, len(ts)))
        if rc != 0:
            raise RuntimeError("llama_decode rc=%d" % rc)

    def sample(self): return self.lib.llama_sampler_sample(self.smpl, self.ctx, -1)
    def is_eog(self, t): return bool(self.lib.llama_vocab_is_eog(self.vocab, t))

    def piece(self, t):
        b = self.chars(64); k = self.lib.llama_token_to_piece(self.vocab, t, b, 64, 0, True)
        return self.chars_bytes(b, k)

    def clear(self):
        if self.mem is not None:
            self.lib.llama_memory_clear(self.mem, True)
        else:  # llama.cpp before the memory API (llama-cpp-cffi)
            self.lib.llama_kv_self_clear(self.ctx)

    def seq_get(self):
        size = self.lib.llama_state_seq_get_size(self.ctx, 0); data = self.buf(size)
        if self.lib.llama_state_seq_get_data(self.ctx, data, size, 0) != size:
            raise RuntimeError("state_seq_get_data short")
        return (data, size)

    def seq_set(self, st):
        if self.lib.llama_state_seq_set_data(self.ctx, st[0], st[1], 0) != st[1]:
            raise RuntimeError("state_seq_set_data failed")

    def close(self):
        self.lib.llama_sampler_free(self.smpl)
        if hasattr(self.llm, "close"):
            self.llm.close()


class Cyllama:
    # cyllama's Cython classes (LlamaModel, LlamaContext, LlamaBatch, LlamaSampler)
    def __init__(self):
        import cyllama.llama.llama_cpp as C
        self.C = C
        C.llama_backend_init()
        self.model = C.LlamaModel(cfg["model"], C.LlamaModelParams())
        cp = C.LlamaContextParams()
        cp.n_ctx = cfg["n_ctx"]; cp.n_batch = 2048; cp.n_ubatch = 512
        cp.n_threads = cfg["threads"]; cp.n_threads_batch = cfg["threads"]
        self.ctx = C.LlamaContext(self.model, cp)
        self.vocab = self.model.get_vocab()
        self.smpl = C.LlamaSampler(C.LlamaSamplerChainParams()); self.smpl.add_greedy()

    def tokenize(self, text): return list(self.vocab.tokenize(text, True, True))

    def decode(self, ts, pos0):
        b = self.C.LlamaBatch(n_tokens=len(ts), embd=0, n_seq_max=1)
        for i, x in enumerate(ts):
            b.add(x, pos0 + i, [0], i == len(ts) - 1)
        self.ctx.decode(b)

    def sample(self): return self.smpl.sample(self.ctx, -1)
    def is_eog(self, t): return bool(self.vocab.is_eog(t))
    def piece(self, t):
        p = self.vocab.token_to_piece(t, 0, True)
        return p if isinstance(p, bytes) else p.encode()
    def clear(self): self.ctx.kv_cache_clear()
    def seq_get(self): return self.ctx.get_state_seq_data(0)
    def seq_set(self, st): self.ctx.set_state_seq_data(st, 0)
    def close(self): pass


def load():
    a = cfg["adapter"]
    if a == "ctypes":
        import ctypes, llama_cpp as L
        llm = L.Llama(model_path=cfg["model"], n_ctx=cfg["n_ctx"], n_batch=2048, n_ubatch=512,
                      n_threads=cfg["threads"], n_threads_batch=cfg["threads"], verbose=False)
        return CApi(llm, L, llm._model.model, llm._ctx.ctx,
                    lambda ts: (L.llama_token * len(ts))(*ts), lambda n: (ctypes.c_uint8 * n)(),
                    ctypes.create_string_buffer, lambda b, n: b.raw[:n])
    if a == "cffi":
        import llama_cpp_py_sync as S
        llm = S.Llama(cfg["model"], n_ctx=cfg["n_ctx"], n_batch=2048, n_ubatch=512,
                      n_threads=cfg["threads"], n_threads_batch=cfg["threads"], seed=0, verbose=False)
        ffi = llm._ffi
        return CApi(llm, llm._lib, llm._model, llm._ctx, lambda ts: ffi.new("llama_token[]", ts),
                    lambda n: ffi.new("uint8_t[]", n), lambda n: ffi.new("char[]", n),
                    lambda b, n: ffi.buffer(b, n)[:])
    if a == "cffi-api":
        import os
        os.environ["LLAMA_CPP_BACKEND"] = "cpu"
        from llama.llama_cpp import lib, ffi
        lib.llama_backend_init()
        mp = lib.llama_model_default_params()
        model = lib.llama_model_load_from_file(cfg["model"].encode(), mp)
        cp = lib.llama_context_default_params()
        cp.n_ctx = cfg["n_ctx"]; cp.n_batch = 2048; cp.n_ubatch = 512
        cp.n_threads = cfg["threads"]; cp.n_threads_batch = cfg["threads"]
        ctx = lib.llama_init_from_model(model, cp)

        class Owner:
            def close(self):
                lib.llama_free(ctx); lib.llama_model_free(model)
        return CApi(Owner(), lib, model, ctx, lambda ts: ffi.new("llama_token[]", ts),
                    lambda n: ffi.new("uint8_t[]", n), lambda n: ffi.new("char[]", n),
                    lambda b, n: ffi.buffer(b, n)[:])
    return Cyllama()


def version():
    from importlib.metadata import version as v
    return v(cfg["dist"])


def run_once(with_state):
    t0 = time.perf_counter()
    rt = load()
    load_s = time.perf_counter() - t0
    toks = rt.tokenize(cfg["prompt"]); n = len(toks)
    t1 = time.perf_counter(); rt.decode(toks, 0); pp_s = time.perf_counter() - t1
    out = []
    t2 = time.perf_counter()
    for _ in range(cfg["n_predict"]):
        t = rt.sample()
        if rt.is_eog(t):
            break
        out.append(t)
        rt.decode([t], n + len(out) - 1)
    tg_s = time.perf_counter() - t2
    res = {"load_s": load_s, "n_prompt": n, "pp_s": pp_s, "pp_tps": n / pp_s,
           "n_gen": len(out), "tg_s": tg_s, "tg_tps": len(out) / tg_s if tg_s else None,
           "text": b"".join(rt.piece(t) for t in out).decode("utf-8", "replace"), "tokens": out}
    if with_state:
        # save after prompt[:-1], decode the last prompt token, clear, restore, decode it again
        try:
            rt.clear(); rt.decode(toks[:-1], 0)
            st = rt.seq_get()
            rt.decode(toks[-1:], n - 1); a = rt.sample()
            rt.clear(); rt.seq_set(st)
            rt.decode(toks[-1:], n - 1); b = rt.sample()
            res["state"] = {"before": a, "after": b, "ok": bool(a == b and (not out or a == out[0]))}
        except Exception as e:
            res["state"] = {"ok": False, "error": repr(e)}
    rt.close()
    return res


runs = [run_once(i == 0) for i in range(cfg["repeats"])]
print("RESULT" + json.dumps({"version": version(), "runs": runs}))
"""

SYSTEM = (
    "You are a strict code reviewer acting as a judge. You are given a task description "
    "and a candidate solution written in Python. Decide whether the candidate solves the "
    "task exactly as specified: read the specification, check each requirement against "
    "the code, consider edge cases (empty inputs, negative numbers, duplicates, Unicode), "
    "and ignore style. Start with a line 'VERDICT: PASS' or 'VERDICT: FAIL', then justify it."
)
TASK = '''Task: Write a function `merge_intervals(intervals)` that takes a list of
[start, end] pairs (integers, start <= end) in any order and returns a new list of
non-overlapping intervals that cover exactly the same points, sorted by start.
Intervals that touch (e.g. [1, 2] and [2, 3]) must be merged. The input list must not be
modified. An empty input returns an empty list.

Examples:
    merge_intervals([[1, 3], [2, 6], [8, 10], [15, 18]]) == [[1, 6], [8, 10], [15, 18]]
    merge_intervals([[1, 4], [4, 5]]) == [[1, 5]]
    merge_intervals([]) == []

Candidate solution:
```python
def merge_intervals(intervals):
    """Merge overlapping or touching intervals."""
    if not intervals:
        return []
    ordered = sorted(intervals, key=lambda pair: pair[0])
    merged = [list(ordered[0])]
    for start, end in ordered[1:]:
        last = merged[-1]
        if start <= last[1]:
            # overlapping or touching: extend the last interval
            last[1] = max(last[1], end)
        else:
            merged.append([start, end])
    return merged


def _check():
    assert merge_intervals([[1, 3], [2, 6], [8, 10], [15, 18]]) == [[1, 6], [8, 10], [15, 18]]
    assert merge_intervals([[1, 4], [4, 5]]) == [[1, 5]]
    assert merge_intervals([]) == []
    data = [[5, 7], [1, 2]]
    merge_intervals(data)
    assert data == [[5, 7], [1, 2]]
    assert merge_intervals([[1, 10], [2, 3], [4, 5]]) == [[1, 10]]
    assert merge_intervals([[-5, -1], [-2, 0]]) == [[-5, 0]]
```

Does the candidate solve the task? Check the sorting, the touching case, that the input
list and its inner lists are not mutated, nested intervals, and negative bounds. Give the
verdict line first, then go through each of those five points in turn, one sentence each.'''


def prompt() -> str:
    """The judge-like prompt rendered as Qwen2.5's chat template does (ChatML)."""
    return (
        f"<|im_start|>system\n{SYSTEM}<|im_end|>\n"
        f"<|im_start|>user\n{TASK}<|im_end|>\n<|im_start|>assistant\n"
    )


def model_path() -> str:
    from pytest_pau.llm.local.weights import resolve_weights

    return str(resolve_weights("local"))


def make_venv(name: str, req: str, root: Path) -> tuple[Path, float, str]:
    venv = root / name
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    t0 = time.perf_counter()
    p = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--no-cache-dir", req],
        capture_output=True,
        text=True,
    )
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"pip install {req} failed: {p.stderr[-2000:]}")
    return py, dt, req


def run_worker(py: Path, dist: str, adapter: str, args, prompt_text: str, model: str) -> dict:
    cfg = {
        "adapter": adapter,
        "dist": dist,
        "model": model,
        "prompt": prompt_text,
        "n_ctx": 2048,
        "threads": args.threads,
        "n_predict": args.n_predict,
        "repeats": args.repeats,
    }
    p = subprocess.run([str(py), "-c", WORKER, json.dumps(cfg)], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT"):
            return json.loads(line[len("RESULT") :])
    raise RuntimeError(f"worker failed (rc={p.returncode}): {p.stderr[-3000:]}")


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default="runtime_bench.json")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--n-predict", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--include-compile",
        action="store_true",
        help="time a cold from-source install of llama-cpp-python too (~6 min)",
    )
    ap.add_argument(
        "--llama-cpp-python-venv",
        default=str(Path(sys.executable).parent.parent),
        help="venv with llama-cpp-python already installed (without --include-compile)",
    )
    args = ap.parse_args(argv)
    model = model_path()
    text = prompt()
    report = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "loadavg_before": loadavg(),
        "threads": args.threads,
        "n_predict": args.n_predict,
        "repeats": args.repeats,
        "model": model,
        "runtimes": {},
    }
    root = Path(tempfile.mkdtemp(prefix="runtime_bench_"))
    for name in args.runtimes.split(","):
        req, adapter = RUNTIMES[name]
        entry: dict = {"requirement": req}
        try:
            if name == "llama-cpp-python" and not args.include_compile:
                py, entry["install_s"] = Path(args.llama_cpp_python_venv) / "bin" / "python", None
            else:
                py, entry["install_s"], _ = make_venv(name, req, root)
            entry["loadavg_before_worker"] = loadavg()
            entry.update(run_worker(py, name, adapter, args, text, model))
        except Exception as e:  # recorded, the next runtime still runs
            entry["error"] = str(e)
        report["runtimes"][name] = entry
        print(f"{name}: done", file=sys.stderr)
    report["loadavg_after"] = loadavg()
    summarise(report)
    Path(args.output).write_text(json.dumps(report, indent=2))
    print(
        f"\nwritten {args.output}; load average before {report['loadavg_before']}, "
        f"after {report['loadavg_after']}"
    )
    return 0


def summarise(report: dict) -> None:
    base = report["runtimes"].get("llama-cpp-python", {})
    base_text = base.get("runs", [{}])[0].get("text")

    def med(e, k):
        vals = [r[k] for r in e.get("runs", []) if r.get(k) is not None]
        return statistics.median(vals) if vals else None

    head = f"{'runtime':<20}{'version':<30}{'install s':>10}{'load s':>8}{'pp tok/s':>10}{'tg tok/s':>10}  same text  state"
    print(head)
    for name, e in report["runtimes"].items():
        if "error" in e:
            print(f"{name:<20}ERROR {e['error'][:200]}")
            continue
        for k in ("load_s", "pp_tps", "tg_tps"):
            e[k + "_median"] = med(e, k)
        e["same_text"] = e["runs"][0]["text"] == base_text if base_text is not None else None
        e["state_ok"] = e["runs"][0].get("state", {}).get("ok")
        if base and "error" not in base and name != "llama-cpp-python":
            e["ratio_vs_llama_cpp_python"] = {
                k: e[k + "_median"] / base[k + "_median"] for k in ("load_s", "pp_tps", "tg_tps")
            }
        inst = f"{e['install_s']:.1f}" if e.get("install_s") is not None else "-"
        print(
            f"{name:<20}{e['version'][:29]:<30}{inst:>10}{e['load_s_median']:>8.2f}"
            f"{e['pp_tps_median']:>10.1f}{e['tg_tps_median']:>10.2f}  {e['same_text']!s:<9}  {e['state_ok']}"
        )


if __name__ == "__main__":
    raise SystemExit(main())

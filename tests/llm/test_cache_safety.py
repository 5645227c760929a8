"""A cache that cannot work fails at open, a damaged one is set aside, a failed put is loud."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cache_helpers import fill, integrity, unprivileged

from pytest_pau.errors import CacheCorruptError, CacheWarning
from pytest_pau.llm import LLMClient, ResponseCache
from pytest_pau.llm.cache.check import verify_cache
from pytest_pau.testing import ScriptedLLM


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


@pytest.fixture
def echo(scripted_llm: Callable[..., ScriptedLLM]) -> ScriptedLLM:
    return scripted_llm([(r"^echo (.*)", lambda m: m[-1]["content"][5:])])


@pytest.fixture
def restore_modes(tmp_path: Path) -> Iterator[None]:
    yield
    for path in [tmp_path, *tmp_path.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)


# -- unusable caches fail at open, before any answer is paid for ------------------------------

_OPEN = textwrap.dedent(
    """
    import sys
    from pytest_pau.errors import CacheError
    from pytest_pau.llm import make_client
    from pytest_pau.llm.cache.check import verify_cache
    model, api_base, directory = sys.argv[1:4]
    try:
        verify_cache(directory)
    except CacheError as exc:
        print("verify:", exc)
    try:
        client = make_client(model, api_base=api_base, cache_dir=directory)
        client.complete([{"role": "user", "content": "echo paid"}])
    except CacheError as exc:
        print("client:", exc)
        sys.exit(3)
    """
)


def _open_unprivileged(tmp_path: Path, llm: ScriptedLLM, directory: Path) -> str:
    prefix = unprivileged(tmp_path)
    done = subprocess.run(
        [*prefix, sys.executable, "-c", _OPEN, llm.model, llm.api_base, str(directory)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert llm.requests == 0, "nothing was paid for"
    return done.stdout


@pytest.mark.slow
@pytest.mark.usefixtures("restore_modes")
def test_a_read_only_cache_file_fails_at_open(tmp_path: Path, echo: ScriptedLLM) -> None:
    directory = tmp_path / "cache"
    cache = ResponseCache(directory)
    fill(cache, 2)
    cache.close()
    (directory / "llm-cache.sqlite3").chmod(0o444)
    out = _open_unprivileged(tmp_path, echo, directory)
    for line in out.splitlines():
        assert "--pau-cache-dir=" in line
        assert str(directory / "llm-cache.sqlite3") in line
        assert "the file is read-only" in line
        assert "fix the permissions" in line
        assert "--pau-no-cache" in line
    assert out.startswith("verify:")
    assert "\nclient:" in out


@pytest.mark.slow
@pytest.mark.usefixtures("restore_modes")
def test_a_read_only_cache_folder_fails_at_open(tmp_path: Path, echo: ScriptedLLM) -> None:
    directory = tmp_path / "cache"
    cache = ResponseCache(directory)
    fill(cache, 2)
    cache.close()  # the last connection removes the -wal and -shm files
    assert sorted(p.name for p in directory.iterdir()) == ["llm-cache.sqlite3"]
    directory.chmod(0o555)
    out = _open_unprivileged(tmp_path, echo, directory)
    assert out.count("its folder is not writable") == 2, out
    assert "--pau-no-cache" in out


@pytest.mark.slow
@pytest.mark.usefixtures("restore_modes")
def test_info_reads_a_cache_in_a_read_only_folder(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    cache = ResponseCache(directory)
    fill(cache, 7)
    cache.close()
    directory.chmod(0o555)
    prefix = unprivileged(tmp_path)
    argv = [sys.executable, "-m", "pytest_pau", "cache", "info", "--json"]
    done = subprocess.run(
        [*prefix, *argv, "--cache-dir", str(directory)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert (info["entries"], info["integrity"]) == (7, "ok")
    assert sorted(p.name for p in directory.iterdir()) == ["llm-cache.sqlite3"], "wrote nothing"


# -- damaged files are set aside once, at the start ------------------------------------------

_CRASH = textwrap.dedent(
    """
    import os, sys
    from pytest_pau.llm import ResponseCache
    cache = ResponseCache(sys.argv[1])
    for i in range(20):
        cache.put(f"late{i}", "m", {"text": "late"})
    os._exit(0)  # a killed worker: the -wal and -shm files stay behind
    """
)


def _junk_pages(path: Path, first: int, count: int) -> None:
    with path.open("r+b") as fh:
        fh.seek(4096 * first)
        fh.write(os.urandom(4096 * count))


def test_a_file_with_junk_pages_is_set_aside_with_its_wal(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    fill(cache, 300, size=3000)
    cache.close()
    subprocess.run([sys.executable, "-c", _CRASH, str(tmp_path)], check=True, timeout=120)
    path = tmp_path / "llm-cache.sqlite3"
    assert Path(f"{path}-wal").stat().st_size > 0
    _junk_pages(path, 100, 8)
    with pytest.warns(CacheWarning, match="was damaged") as caught:
        check = verify_cache(tmp_path)
    names = sorted(p.name for p in check.set_aside)
    assert len(names) == 3
    assert names[0].startswith("llm-cache.sqlite3.corrupt-")
    assert names[1] == names[0] + "-shm"
    assert names[2] == names[0] + "-wal"
    assert all(p.exists() for p in check.set_aside)
    assert check.warning == str(caught[0].message)
    assert str(check.set_aside[0]) in check.warning
    assert "fresh cache" in check.warning
    fresh = ResponseCache(tmp_path)
    assert len(fresh) == 0
    assert fresh.put("k", "m", {"text": "v"})
    assert integrity(path) == "ok"


def test_junk_pages_that_open_misses_are_found_by_the_quick_check(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    fill(cache, 300, size=3000)
    cache.close()
    path = tmp_path / "llm-cache.sqlite3"
    pages = path.stat().st_size // 4096
    _junk_pages(path, pages // 2, 4)  # overflow pages of values: open does not read them
    ResponseCache(tmp_path).close()  # the cheap open checks pass...
    assert verify_cache(tmp_path, quick_check=False).set_aside == ()
    with pytest.warns(CacheWarning, match="was damaged"):
        check = verify_cache(tmp_path)  # ...the quick check does not
    assert check.set_aside


def test_a_file_that_is_not_sqlite_is_set_aside(tmp_path: Path, echo: ScriptedLLM) -> None:
    path = tmp_path / "llm-cache.sqlite3"
    path.write_text("these are not the answers you are looking for\n" * 50)
    with pytest.raises(CacheCorruptError, match="not an SQLite database"):
        ResponseCache(tmp_path)  # a worker's open: refuses, moves nothing
    assert path.read_text().startswith("these are not")
    with pytest.warns(CacheWarning, match="not an SQLite database"):
        check = verify_cache(tmp_path)
    assert check.set_aside[0].read_text().startswith("these are not")
    client = LLMClient(echo.model, api_base=echo.api_base, cache=ResponseCache(tmp_path))
    assert client.complete(user("echo a")).text == "a"
    assert client.complete(user("echo a")).cached


def test_a_sound_file_passes_the_check(tmp_path: Path) -> None:
    fill(ResponseCache(tmp_path), 5)
    check = verify_cache(tmp_path)
    assert (check.entries, check.set_aside, check.warning) == (5, (), None)


# -- a put that fails mid-run warns and counts; the paid answer is used --------------------

_FULL = textwrap.dedent(
    """
    import json, os, resource, signal, sys, warnings
    from pytest_pau.llm import make_client
    model, api_base, directory = sys.argv[1:4]
    client = make_client(model, api_base=api_base, cache_dir=directory)
    client.complete([{"role": "user", "content": "echo 1"}])  # litellm imported, file made
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a signal
    resource.setrlimit(resource.RLIMIT_FSIZE, (600_000, resource.RLIM_INFINITY))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        texts = [client.complete([{"role": "user", "content": f"echo {i}"}]).text[:8]
                 for i in range(8)]
    print(json.dumps({
        "texts": texts, "failures": client.cache.write_failures, "calls": client.usage.calls,
        "warnings": [str(w.message) for w in caught if w.category.__name__ == "CacheWarning"],
        "summary": client.cache.failure_summary(),
    }))
    """
)


@pytest.mark.slow
def test_a_full_disk_mid_run_warns_and_keeps_the_answers(
    tmp_path: Path, scripted_llm: Callable[..., ScriptedLLM]
) -> None:
    big = scripted_llm([(r"^echo (.*)", lambda m: f"{m[-1]['content'][5:]:<8}" + "x" * 100_000)])
    done = subprocess.run(
        [sys.executable, "-c", _FULL, big.model, big.api_base, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [t.strip() for t in out["texts"]] == [str(i) for i in range(8)]
    assert out["calls"] == 9, "every answer is counted, stored or not"
    assert 1 <= out["failures"] <= 6, out
    assert len(out["warnings"]) == 1, "one warning per process and kind of failure"
    assert "could not store an answer" in out["warnings"][0]
    assert "a re-run pays for it again" in out["warnings"][0]
    assert f"{out['failures']} answer(s) not stored" in out["summary"]
    assert integrity(tmp_path / "llm-cache.sqlite3") == "ok"
    stored = len(ResponseCache(tmp_path))
    assert stored == 8 - out["failures"], "the answers not counted as failures are all there"


def test_a_cache_file_removed_mid_run_is_reopened(tmp_path: Path, echo: ScriptedLLM) -> None:
    cache = ResponseCache(tmp_path)
    client = LLMClient(echo.model, api_base=echo.api_base, cache=cache)
    client.complete(user("echo a"))
    for name in ("llm-cache.sqlite3", "llm-cache.sqlite3-wal", "llm-cache.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with pytest.warns(CacheWarning, match="removed or replaced during the run"):
        assert client.complete(user("echo b")).text == "b"
    assert cache.write_failures == 0
    reader = LLMClient(echo.model, api_base=echo.api_base, cache=ResponseCache(tmp_path))
    assert reader.complete(user("echo b")).cached, "stored in the new file"
    assert not reader.complete(user("echo a")).cached, "went with the old file"


def test_a_cache_folder_removed_mid_run_warns(tmp_path: Path, echo: ScriptedLLM) -> None:
    directory = tmp_path / "cache"
    cache = ResponseCache(directory)
    client = LLMClient(echo.model, api_base=echo.api_base, cache=cache)
    client.complete(user("echo a"))
    shutil.rmtree(directory)
    with pytest.warns(CacheWarning, match="could not store an answer.*folder was removed"):
        assert client.complete(user("echo b")).text == "b"
    assert cache.write_failures == 1
    assert "1 answer(s) not stored" in (cache.failure_summary() or "")
    # Another thread opens its own connection: that fails too, and is a warned miss.
    seen: list[object] = []

    def look_up() -> None:
        thread = threading.Thread(target=lambda: seen.append(cache.lookup("x")))
        thread.start()
        thread.join()

    with pytest.warns(CacheWarning, match="could not be read"):
        look_up()
    assert seen == [None]
    assert cache.read_failures == 1

"""ScriptedLLM keeps real server errors loud while a client hanging up stays quiet (issue 15).

The quiet half is ``test_scripted.py::test_a_client_that_hangs_up_prints_no_traceback``
(real resets); this is the other half: the filter silences exactly the two errors of a
client that went away, and any other exception out of a handler is still printed.
"""

from __future__ import annotations

import socket

import pytest

from pytest_pau.llm.scripted.http import CLIENT_GONE
from pytest_pau.testing import ScriptedLLM


def _handle(llm: ScriptedLLM, exc: BaseException) -> None:
    server = llm._server  # the socketserver whose handle_error is under test
    assert server is not None
    try:
        raise exc
    except BaseException:
        server.handle_error(socket.socket(), ("127.0.0.1", 1))


@pytest.mark.parametrize(
    "exc",
    [RuntimeError("a bug in the handler"), OSError(28, "No space left on device"), KeyError("x")],
    ids=["bug", "oserror", "keyerror"],
)
def test_a_real_handler_error_is_still_printed(
    exc: BaseException, capsys: pytest.CaptureFixture[str]
) -> None:
    with ScriptedLLM(default="hi") as llm:
        _handle(llm, exc)
    err = capsys.readouterr().err
    assert "Traceback" in err
    assert repr(exc)[:20].split("(")[0] in err


@pytest.mark.parametrize("kind", CLIENT_GONE, ids=lambda k: k.__name__)
def test_only_a_client_that_went_away_is_silenced(
    kind: type[BaseException], capsys: pytest.CaptureFixture[str]
) -> None:
    assert set(CLIENT_GONE) == {BrokenPipeError, ConnectionResetError}
    with ScriptedLLM(default="hi") as llm:
        _handle(llm, kind())
    assert capsys.readouterr().err == ""

"""ScriptedLLM, a scripted OpenAI-compatible server on 127.0.0.1 (public as
:mod:`pytest_pau.testing`): ``server`` (the server and its script), ``http`` (the
handler, faults and the exchange log), ``reply`` (the completion bodies it answers),
``quota`` (RPM and TPM buckets and their headers), ``fixture`` (the ``scripted_llm`` fixture).
"""

from __future__ import annotations

from pytest_pau.llm.scripted.fixture import scripted_llm_factory
from pytest_pau.llm.scripted.server import FAULT_KINDS, ScriptedLLM

__all__ = ["FAULT_KINDS", "ScriptedLLM", "scripted_llm_factory"]

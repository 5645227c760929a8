"""The agent tests use the shared ``double`` and ``scripted`` fixtures of tests/conftest.py."""

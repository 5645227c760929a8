"""The files pytest-pau reads and writes: :mod:`pytest_pau.files.guard` checks every output
before anything is written, and every input file before it is opened."""

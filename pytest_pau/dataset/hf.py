"""``hf:OWNER/NAME``: a PAU-format dataset through the Hugging Face ``datasets`` library.

Reads the published set (``hf:DJ-Research/PAU-Benchmark``) where the hub is reachable, and
anything ``datasets.load_dataset`` accepts, such as a local folder of parquet files.
"""

from __future__ import annotations

from pathlib import Path

from pytest_pau.dataset.files import iter_rows, source_name, table_rows
from pytest_pau.dataset.load_info import LoadedDataset
from pytest_pau.dataset.output_format import OutputsMode
from pytest_pau.dataset.pau_format import rows_to_instances
from pytest_pau.dataset.text_files import check_utf8_files
from pytest_pau.errors import DatasetError

PREFIX = "hf:"


def load_hf(
    spec: str,
    split: str = "test",
    *,
    cache_dir: Path | None = None,
    outputs: OutputsMode = "auto",
) -> LoadedDataset:
    """Load ``split`` of the dataset named after ``hf:``.

    Args:
        spec: ``hf:`` and a name ``datasets.load_dataset`` accepts (hub id or local folder).
        split: the split to read.
        cache_dir: the ``datasets`` cache (``<cache_dir>/hf``); the library's default if None.
        outputs: ``repr``, ``json`` or ``auto`` (detected over the split's rows).

    Raises:
        DatasetError: the ``hf`` extra is missing, the dataset cannot be fetched, or a row is
            invalid (``hf:NAME[test] row 7: field 'header': required``).
    """
    name = spec[len(PREFIX) :].strip()
    if not name:
        raise DatasetError(f"{spec!r}: expected hf:OWNER/NAME, e.g. hf:DJ-Research/PAU-Benchmark")
    try:
        import datasets
    except ImportError:
        raise DatasetError(
            f"{spec}: needs the datasets library; install it with `pip install 'pytest-pau[hf]'`"
        ) from None
    folder = Path(name).expanduser()
    if folder.is_dir():
        # datasets reads a Latin-1 .jsonl without complaint and fails later naming no file.
        check_utf8_files(folder, spec)
    try:
        hf_cache = str(cache_dir / "hf") if cache_dir is not None else None
        data = datasets.load_dataset(name, split=split, cache_dir=hf_cache)
    except Exception as exc:  # the library raises many types: network, missing split, format
        raise DatasetError(
            f"{spec}: could not load split {split!r} ({type(exc).__name__}: {exc}). Where the "
            "hub is unreachable, download the set's parquet file and pass its path to "
            "--pau-dataset."
        ) from None
    shown = f"{spec}[{split}]"
    rows = table_rows(data, shown)
    source = source_name(name.rstrip("/").rsplit("/", 1)[-1])
    instances = rows_to_instances(
        iter_rows(rows, shown), source=source, what=shown, id_prefix=f"{split}_", outputs=outputs
    )
    if not instances:
        raise DatasetError(f"{shown}: no rows")
    return instances

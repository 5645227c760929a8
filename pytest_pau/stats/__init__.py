"""The statistics of pytest-pau: pure functions and small models, no pytest, no IO.

Every interval, test and gate the product prints is computed here, on plain sequences of
scores (``None`` for a missing value) or on :class:`~pytest_pau.models.Scored` results.
Each procedure states its error rate in its docstring, and a seeded simulation test beside
it (``tests/stats/``) shows that it holds at the sample sizes users run.

* :mod:`describe`: means with gaps, pairing, Spearman's rank correlation.
* :mod:`tilted`, :mod:`inference`: intervals for a bounded mean and a proportion, the
  non-inferiority test of the baseline gate; :mod:`results` holds their typed results.
* :mod:`signflip`: the paired sign-flip test of ``pau compare``.
* :mod:`betting`, :mod:`sequential`, :mod:`early_stop`: anytime-valid confidence sequences
  without replacement, and the tracker behind ``--pau-early-stop``.
* :mod:`metrics`, :mod:`gates`, :mod:`compare`, :mod:`compare_models`: the metrics read from
  results, the release gates, and the comparison of runs.
"""

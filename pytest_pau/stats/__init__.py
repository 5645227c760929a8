"""The statistics of pytest-pau: pure functions and small models, no pytest, no IO.

Every interval, test and gate the product prints is computed here, on plain sequences of
scores (``None`` for a missing value) or on :class:`~pytest_pau.models.Scored` results.
Each procedure states its error rate in its docstring, and a seeded simulation test beside
it (``tests/stats/``) shows that it holds at the sample sizes users run.

* :mod:`describe`: means with gaps, pairing, Spearman's rank correlation.
* :mod:`tilted`, :mod:`inference`: intervals for a bounded mean and a proportion, the
  non-inferiority test of the baseline gate; :mod:`results` holds their typed results.
* :mod:`exact`: exact one-sided bounds from n = 1 (betting, Clopper-Pearson) for
  ``--pau-gate-on-ci``; :mod:`selection`: verdicts about the selection when items have no
  score; :mod:`missing`: why an item has none.
* :mod:`anytime`, :mod:`early_stop`: anytime-valid tests whose population stays the
  selection, and the tracker behind ``--pau-early-stop``.
* :mod:`signflip`, :mod:`compare_tests`: the exact sign-flip test and the test of means
  of ``pau compare``.
* :mod:`metrics`, :mod:`gates`, :mod:`verdict`, :mod:`compare`, :mod:`compare_models`: the
  metrics read from results, the release gates, the run's verdict and exit status, and
  the comparison of runs.
"""

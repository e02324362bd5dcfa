"""Benchmarks: each module runs as a script (``python bench/NAME.py``); the clients are
also imported by the tests (``bench.loadclient``, ``bench.abuseclients``)."""

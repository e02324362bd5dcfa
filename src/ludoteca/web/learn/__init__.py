"""Lessons: a short course per game on the real board (``/learn``)."""

"""The analysis worker's memory is bounded: starting again and again on one position grows
one tree only up to its cap, the worker's trees together stay under theirs, a tree's search
time is bounded over all its runs, and a tree is dropped when its socket goes (issue 43,
finding 1: each *start* grew the same tree on, 244 to 684 MB in 150 s)."""

from __future__ import annotations

import pytest

from ludoteca.bots import position_analysis as analysis
from ludoteca.core.registry import get


def nodes(session) -> int:
    """The nodes really in the session's tree (walked)."""
    size, stack = 0, [session.root]
    while stack:
        node = stack.pop()
        size += 1
        stack.extend(node.children)
    return size


@pytest.fixture
def small_caps(monkeypatch):
    monkeypatch.setattr(analysis, "TREE_NODES", 800, raising=False)
    monkeypatch.setattr(analysis, "WORKER_NODES", 2000, raising=False)
    analysis._SESSIONS.clear()
    yield
    analysis._SESSIONS.clear()


def test_repeated_starts_do_not_grow_a_tree_past_its_cap(small_caps):
    position = get("kuniumi").new_state(seed=1).position()
    for _ in range(6):  # a page sending start after start on the same position
        report = analysis.step("mem-a", "kuniumi", {}, position, 0.15)
        assert "error" not in report
    session = analysis._SESSIONS["mem-a"]
    assert session.iterations > 800  # the search went on: refining, not growing
    assert nodes(session) <= 800


def test_the_worker_keeps_a_bounded_total_and_forgets_a_closed_socket(small_caps):
    position = get("kuniumi").new_state(seed=1).position()
    for i in range(5):  # five sockets, each with its tree
        analysis.step(f"mem-{i}", "kuniumi", {}, position, 0.15)
        assert sum(nodes(s) for s in analysis._SESSIONS.values()) <= 2000
    assert "mem-4" in analysis._SESSIONS  # the newest is kept; the oldest went
    analysis.forget("mem-4")
    assert "mem-4" not in analysis._SESSIONS


def test_a_tree_has_a_total_search_time(small_caps, monkeypatch):
    monkeypatch.setattr(analysis, "TREE_SECONDS", 0.3, raising=False)
    position = get("kuniumi").new_state(seed=1).position()
    for _ in range(4):
        report = analysis.step("mem-t", "kuniumi", {}, position, 0.2)
    assert report["spent"] is True
    assert analysis._SESSIONS["mem-t"].seconds < 0.6

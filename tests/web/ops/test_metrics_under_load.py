"""``/metrics`` scraped around the page-like load client against a real ``ludoteca serve``:
the server's move histogram counts the moves the client saw accepted, and its median agrees
with the client's own round trip (the server's part can only be shorter)."""

from __future__ import annotations

import asyncio

import httpx
from bench.loadclient import ClubProcesses, Load
from prometheus_client.parser import text_string_to_metric_families


def move_histogram(base: str) -> tuple[float, list[tuple[float, float]]]:
    """The count and the cumulative buckets of ``ludoteca_move_seconds{stage="sent"}``."""
    text = httpx.get(base + "/metrics", timeout=10).text  # from loopback: allowed
    count, buckets = 0.0, []
    for family in text_string_to_metric_families(text):
        if family.name != "ludoteca_move_seconds":
            continue
        for s in family.samples:
            if s.labels.get("stage") != "sent":
                continue
            if s.name.endswith("_count"):
                count = s.value
            elif s.name.endswith("_bucket"):
                buckets.append((float(s.labels["le"]), s.value))
    return count, sorted(buckets)


def test_move_histogram_agrees_with_the_client(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    club = ClubProcesses(url, 1, tmp_path).start()
    try:
        base = club.bases[0]
        assert move_histogram(base)[0] == 0
        load = Load([base], games=3, seconds=2.0, think=0.05, page_like=True, accounts_in=url)
        result = asyncio.run(load.run())
        count, buckets = move_histogram(base)
    finally:
        club.stop()
    accepted = result["moves_accepted"]
    assert accepted > 10, result
    assert accepted <= count <= accepted + 3 * 2, (count, result)  # moves in flight at the end
    half = next(i for i, (_, n) in enumerate(buckets) if n >= count / 2)
    server_low = buckets[half - 1][0] if half else 0.0  # the median's bucket starts here
    client_p50 = result["mover_latency"]["p50_ms"] / 1000
    assert server_low <= client_p50, (buckets, result["mover_latency"])
    assert buckets[half][0] <= max(0.1, 4 * client_p50), (buckets, result["mover_latency"])

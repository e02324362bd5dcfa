"""The tile set and names (rules: Tiles)."""

from __future__ import annotations

from collections import Counter

from comino_reference import all_turns, reference_tile_set

from ludoteca.games.comino.geometry import (
    DEALT_TILES,
    FIT_MASK,
    ORIENTED,
    TILES,
    name_of,
    orientations,
    rotate,
)


def test_the_set_has_23_tiles_and_no_complete_blue_tile():
    assert len(TILES) == 23
    assert len(set(TILES)) == 23
    assert "BBBB" not in TILES
    assert "YYYY" in TILES and "RRRR" in TILES


def test_the_set_matches_an_independent_enumeration():
    assert set(TILES) == reference_tile_set()


def test_every_tile_but_the_two_plain_ones_has_at_least_two_colours():
    plain = [t for t in TILES if len(set(t)) == 1]
    assert sorted(plain) == ["RRRR", "YYYY"]
    assert len([t for t in TILES if len(set(t)) >= 2]) == 21


def test_no_two_tiles_are_rotations_of_each_other():
    seen = Counter(min(all_turns(t)) for t in TILES)
    assert max(seen.values()) == 1


def test_mirror_images_are_different_tiles():
    # BBRY mirrored left-right is BBYR: both are in the set, as distinct tiles
    assert "BBRY" in TILES and "BBYR" in TILES
    assert name_of("BBRY") != name_of("BBYR")


def test_a_quarter_turn_clockwise_moves_each_colour_one_place_on():
    assert rotate("YYRB") == "BYYR"
    assert rotate("YYRB", 2) == "RBYY"
    assert rotate("YYRB", 4) == "YYRB"


def test_a_tiles_name_is_its_smallest_rotation():
    assert name_of("YYRB") == "BYYR"
    assert name_of("RBRB") == "BRBR"
    for t in TILES:
        assert t == min(all_turns(t))
        for r in all_turns(t):
            assert name_of(r) == t


def test_symmetric_tiles_have_fewer_distinct_orientations():
    assert orientations("YYYY") == ["YYYY"]
    assert orientations("BRBR") == ["BRBR", "RBRB"]
    assert len(orientations("BBRY")) == 4
    assert len(ORIENTED) == len(set(ORIENTED)) == 2 * 1 + 3 * 2 + 18 * 4


def test_the_deal_draws_the_21_tiles_other_than_yyyy_and_rrrr():
    assert len(DEALT_TILES) == 21
    assert "YYYY" not in DEALT_TILES and "RRRR" not in DEALT_TILES


def test_the_fit_table_agrees_with_a_direct_check():
    for code in range(256):
        need = [(code >> (2 * i)) & 3 for i in range(4)]
        for i, tile in enumerate(ORIENTED):
            ok = all(n == 0 or ".BRY"[n] == c for n, c in zip(need, tile, strict=True))
            assert bool(FIT_MASK[code] >> i & 1) == ok

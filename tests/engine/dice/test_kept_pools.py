"""Kept dice pools (keep highest, lowest or the middle): the closed form for equally likely faces
and the pass over the faces for any other die, against brute force on small pools and against
icepool on pools of 10 to 60 dice, total for total and fraction for fraction."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rollbook.dice import distribution
from rollbook.dice.keeps import keep_ranks, nearest_of_uniform
from rollbook.dice.weights import Weights


def brute_keep(die: dict[int, int], n: int, lo: int, hi: int, score=lambda v: v) -> dict[int, int]:
    """Every roll of ``n`` dice, sorted, the ranks ``lo`` to ``hi - 1`` summed: weight per total."""
    out: dict[int, int] = {}
    for roll in itertools.product(die, repeat=n):
        weight = 1
        for v in roll:
            weight *= die[v]
        total = sum(score(v) for v in sorted(roll)[lo:hi])
        out[total] = out.get(total, 0) + weight
    return out


@pytest.mark.parametrize("faces", [1, 2, 3, 5])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_the_closed_form_counts_every_roll(faces, n):
    for k in range(1, n + 1):
        ways = nearest_of_uniform(faces, n, k)
        assert {i: w for i, w in enumerate(ways) if w} == brute_keep({v: 1 for v in range(faces)}, n, 0, k)


DICE = {
    "d6": {v: 1 for v in range(1, 7)},
    "d4 from 0": {v: 1 for v in range(4)},
    "even faces": {2: 1, 4: 1, 6: 1, 8: 1},  # equal steps of 2
    "d6 at most 4": {1: 1, 2: 1, 3: 1, 4: 3},  # unequal weights: the pass over the faces
    "uneven gaps": {1: 2, 2: 1, 5: 1, 9: 3},
    "negative": {-2: 1, -1: 1, 0: 1, 1: 1},
}
SCORES = {"value": None, "success on 3+": lambda v: 1 if v >= 3 else 0,
          "odd faces": lambda v: v % 2, "reversed": lambda v: -v}


@pytest.mark.parametrize("name", sorted(DICE))
@pytest.mark.parametrize("scoring", sorted(SCORES))
def test_every_kept_range_agrees_with_brute_force(name, scoring):
    raw = DICE[name]
    die = Weights(dict(raw), sum(raw.values()))
    score = SCORES[scoring]
    for n in range(1, 5):
        for lo in range(n + 1):
            for hi in range(lo, n + 1):
                got = keep_ranks(die, n, lo, hi, score)
                expected = brute_keep(raw, n, lo, hi, score or (lambda v: v))
                assert got.denominator == die.denominator**n
                assert {v: w for v, w in got.weights.items() if w} == expected, (name, scoring, n, lo, hi)


def test_a_die_whose_chain_was_cut_keeps_its_residual():
    """Weights that sum to less than the denominator (a cut explosion) stay so after keeping."""
    die = Weights({1: 1, 2: 1, 3: 1}, 4)
    got = keep_ranks(die, 4, 2, 4)
    assert got.denominator == 4**4 and sum(got.weights.values()) == 3**4
    assert got.weights == brute_keep({1: 1, 2: 1, 3: 1}, 4, 2, 4)


icepool = pytest.importorskip("icepool")

# 10 to 60 dice of d6, d20 and d100, kept highest, lowest and in the middle (icepool answers each
# in well under a second)
POOLS = {
    "10d6kh3": lambda: icepool.d6.pool(10).highest(3).sum(),
    "60d6kh30": lambda: icepool.d6.pool(60).highest(30).sum(),
    "40d6kl15": lambda: icepool.d6.pool(40).lowest(15).sum(),
    "60d6dh20dl20": lambda: icepool.d6.pool(60)[20:40].sum(),
    "20d20kl5": lambda: icepool.d20.pool(20).lowest(5).sum(),
    "60d20kh10": lambda: icepool.d20.pool(60).highest(10).sum(),
    "30d20dh10dl10": lambda: icepool.d20.pool(30)[10:20].sum(),
    "10d100kh3": lambda: icepool.d100.pool(10).highest(3).sum(),
    "12d100kl4": lambda: icepool.d100.pool(12).lowest(4).sum(),
    "10d100dh3dl4": lambda: icepool.d100.pool(10)[4:7].sum(),
    "25d6kh5>=5": lambda: icepool.d6.pool(25).highest(5).expand().map(lambda t: sum(1 for x in t if x >= 5)),
}


@pytest.mark.parametrize("expression", sorted(POOLS))
def test_large_pools_agree_with_icepool(expression):
    theirs = POOLS[expression]()
    expected = {int(v): Fraction(w, theirs.denominator()) for v, w in theirs.items() if w}
    ours = distribution(expression)
    assert ours.probabilities == expected
    assert ours.residual == 0

"""Properties over generated expressions: rolls lie in the distribution, which sums to 1, and
sample means converge to the exact mean."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rollbook.dice import DiceError, distribution, roll
from dice_strategies import expressions


def _valid(text: str):
    try:
        return distribution(text)
    except DiceError:
        assume(False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(expressions, st.integers(0, 2**32))
def test_rolls_lie_in_the_distribution_which_sums_to_one(text, seed):
    dist = _valid(text)
    probabilities = dist.probabilities
    assert sum(probabilities.values()) + dist.residual == 1
    assert all(p > 0 for p in probabilities.values())
    assert 0 <= dist.residual < Fraction(1, 10**12)
    total = roll(text, random.Random(seed)).total
    if dist.residual == 0:
        assert total in probabilities
    else:  # a roll beyond the cut chains has probability below 1e-12
        assert dist.min <= total <= dist.max


MEANS = ["3d6", "4d6kh3", "2d20kl1", "d20oe", "d100oe5", "3d6!", "2d6r1", "1d20ro<3", "10d10>=8", "5d10>=8!",
         "4dF", "4d6mi2ma5", "{1d20+5, 2d10}kh1", "(1d4)d6", "1d100/1d6", "2d6*1d4-3", "d%", "3d6!p", "4d6!!kh3"]


@pytest.mark.parametrize("text", MEANS)
def test_sample_means_converge_to_the_exact_mean(text):
    dist = distribution(text)
    rng = random.Random(2024)
    n = 3000
    mean = sum(roll(text, rng).total for _ in range(n)) / n
    assert abs(mean - dist.mean) < 5 * dist.stdev / math.sqrt(n)

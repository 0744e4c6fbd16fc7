"""Exact odds against brute force: every way the dice can fall, walked through the real roller.

``Branching`` plays the roller's random draws like an odometer: each run replays a prefix of
choices and takes the first face after it, so running until the odometer wraps visits every
sequence of faces once, with probability the product of 1/n over its draws. Exploding chains are
cut at a depth, and the mass cut off is allowed as slack. This checks the roller and the exact
distributions against each other, for every notation small pools can show.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.dice import distribution, roll
from rollbook.errors import RollbookError

MAX_DRAWS = 9  # draws in one path: deeper explosion chains are cut off (their mass is the slack)
MAX_PATHS = 30_000


class _TooDeep(Exception):
    pass


class Branching(random.Random):
    def __init__(self, prefix: list[int]) -> None:
        super().__init__(0)
        self.prefix = prefix
        self.sizes: list[int] = []

    def randrange(self, n, *args, **kwargs):  # the roller draws every face through randrange
        i = len(self.sizes)
        if i >= MAX_DRAWS:
            raise _TooDeep
        if i == len(self.prefix):
            self.prefix.append(0)
        self.sizes.append(n)
        return self.prefix[i]


def enumerate_rolls(expression: str) -> tuple[dict, Fraction]:
    """P(total) over every sequence of draws, and the mass of the paths cut off."""
    law: dict = defaultdict(Fraction)
    cut = Fraction(0)
    prefix: list[int] = []
    for _ in range(MAX_PATHS):
        rng = Branching(prefix)
        try:
            total = roll(expression, rng).total
            p = Fraction(1)
            for n in rng.sizes:
                p /= n
            law[total] += p
        except _TooDeep:
            p = Fraction(1)
            for n in rng.sizes:
                p /= n
            cut += p
        # the next path: advance the last draw that can still advance, forget what came after it
        sizes = rng.sizes
        del prefix[len(sizes):]
        while prefix and prefix[-1] + 1 >= sizes[len(prefix) - 1]:
            prefix.pop()
        if not prefix:
            return dict(law), cut
        prefix[-1] += 1
    raise AssertionError(f"{expression}: more than {MAX_PATHS:,} paths")


def assert_agrees(expression: str) -> None:
    law, cut = enumerate_rolls(expression)
    exact = distribution(expression)
    slack = cut + exact.residual
    assert sum(law.values()) + cut == 1
    for total in set(law) | set(exact.probabilities):
        assert abs(law.get(total, 0) - exact.p_eq(total)) <= slack, (expression, total)


@pytest.mark.parametrize("expression", [
    "3d4kh2", "4d4dh1dl2", "3d4k1dh1", "3d4kh2kl2", "2d6r", "2d4ro", "3d4u", "3d4uo", "3d4u=2", "3d4uo<3",
    "3d4u!=2", "3d4ukh2", "3d4>2f<2", "3d4>=3f=1kh2", "2d4<>2", "2d4cs", "2d4cf>3", "3d4sd", "2dF.1", "3dF.2",
    "2d4min2", "2d4max3", "round(2d4/3)", "ceil(1d6/4)", "floor(-1d6/4)", "max(1d4, 1d6)", "min(1d4, 1d6)",
    "abs(1d4-1d6)", "sign(1d4-1d4)", "pow(1d4, 2)", "1d4^1d3", "1d6 % 1d3", "1d6/1d4", "1d4+1.25",
    "sqrt(1d4)", "{1d4+1d6}k1", "{2d4+1d6+1}kl2", "{2d4}>2f<2", "{1d4, 1d6}>3f<2sd", "{1d4, 1d4, 1d4}dh1dl1",
    "1d4!", "2d4!k1", "2d4!kl1", "2d3!d1", "2d4!>=3kh1", "1d4!p", "2d4!pk1", "1d4!!p", "2d4!>3", "3d4!<2kh1",
    "2d4!>=3", "2d4!>=3>=3", "2d4!p>=3>2", "1d4[fire] + 2[bonus]", "{1d4/2, 1d4/2, 1d4/2}kh2",
    "{1d4/2, 1d4/2}kh1>1", "{1d3/3, 1d2}dl1",
    # Roll20's matches, and unique dice that explode
    "3d4m", "4d3mt", "4d3mt3", "4d4mt>2", "3d3mt<3", "3d4r1mt", "2d4!!mt", "3d4mi2mt", "3d4kh2m", "4d4m3",
    "2d4!u", "2d3!ukh1", "2d4!uo", "2d4!u=4", "1d4!>=3u", "2d4!u>2", "2d4!u>=3",
    # a pooled group's numbers: added to each die before counting (Roll20's {3d20+5}>21), else once
    "{2d4+1}>3", "{1d4+1d3-1}>=3f<2", "{2d4+1}kh1>4", "{2d4-1.5}k1", "{1d4+2+1d3}<4",
    # matches among exploded dice (Roll20: "if the exploding dice cause a match, the match will display")
    "3d4!mt", "2d4!pmt", "2d3!>=2mt>1", "3d4!mt3", "2d4!p>=3mt<4", "2d4!m",
])
def test_each_notation_agrees_with_brute_force(expression):
    assert_agrees(expression)


MODIFIERS = ["", "kh1", "kl1", "dh1", "dl1", "kh2dl1", "r", "ro", "r<2", "u", "uo", "u>2", ">2", ">2f<2", "<>2",
             "cs", "cf<2", "s", "sd", "!", "!>=3", "!!", "!p", "!!p", "mi2", "ma3", "m", "mt", "mt3", "mt>1"]


@st.composite
def small_rolls(draw) -> str:
    count = draw(st.integers(1, 3))
    sides = draw(st.sampled_from(["2", "3", "4", "F", "F.1"]))
    mods = "".join(draw(st.lists(st.sampled_from(MODIFIERS), max_size=2)))
    term = f"{count}d{sides}{mods}"
    return draw(st.sampled_from([term, f"{term}+1d3", f"floor({term}/2)", f"{{{term}}}kh1", f"max({term}, 2)",
                                 f"{term}*1.5"]))


@settings(max_examples=150, deadline=None)
@given(small_rolls())
def test_generated_small_rolls_agree_with_brute_force(expression):
    try:
        distribution(expression)
    except RollbookError:
        return  # refused (e.g. 3d2u: three different faces of a d2); the fuzz tests check the refusals
    assert_agrees(expression)

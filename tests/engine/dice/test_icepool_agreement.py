"""Rollbook's exact distributions agree with icepool's on a corpus of expressions both support.

icepool is a test-only dependency: the whole module is skipped where it is absent (inside
Pyodide). Finite expressions must agree exactly, fraction for fraction. Explosions and
open-ended rolls are infinite: icepool stops exploding at a depth, Rollbook leaves the tail
out, so there the two agree to within 2e-12 per total, and Rollbook's ``residual`` is below 1e-12.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rollbook.dice import distribution

icepool = pytest.importorskip("icepool")

d6, d10, d20, d100 = icepool.d6, icepool.d10, icepool.d20, icepool.d100
dF = icepool.Die([-1, 0, 1])


def count_if(test):
    return lambda x: 1 if test(x) else 0


def kept_count(die, n, k, test):
    """Successes among the ``k`` highest of ``n`` dice (icepool: expand the sorted pool)."""
    return die.pool(n).highest(k).expand().map(lambda t: sum(1 for x in t if test(x)))


EXACT = {
    "3d6": lambda: 3 @ d6,
    "d%": lambda: d100,
    "4dF": lambda: 4 @ dF,
    "4d6kh3": lambda: d6.pool(4).highest(3).sum(),
    "4d6k3": lambda: d6.pool(4).highest(3).sum(),
    "2d20kl1": lambda: d20.pool(2).lowest(1).sum(),
    "4d6dl1": lambda: d6.pool(4).highest(3).sum(),
    "4d6d": lambda: d6.pool(4).highest(3).sum(),
    "5d10dh2": lambda: d10.pool(5).lowest(3).sum(),
    "10d100kh3": lambda: d100.pool(10).highest(3).sum(),
    "8d6kl3 + 2": lambda: d6.pool(8).lowest(3).sum() + 2,
    "6dFkh2": lambda: dF.pool(6).highest(2).sum(),
    "2d6r1": lambda: 2 @ d6.reroll([1], depth="inf"),
    "2d6ro1": lambda: 2 @ d6.reroll([1], depth=1),
    "1d20ro<3": lambda: d20.reroll(lambda x: x < 3, depth=1),
    "1d8r<=2r8": lambda: icepool.d8.reroll([1, 2, 8], depth="inf"),
    "4d6r1kh3": lambda: d6.reroll([1], depth="inf").pool(4).highest(3).sum(),
    "10d10>=8": lambda: 10 @ d10.map(count_if(lambda x: x >= 8)),
    "5d6=6": lambda: 5 @ d6.map(count_if(lambda x: x == 6)),
    "6d10<3": lambda: 6 @ d10.map(count_if(lambda x: x < 3)),
    "4d6kh3>=4": lambda: kept_count(d6, 4, 3, lambda x: x >= 4),
    "4d6mi2": lambda: 4 @ d6.clip(2, None),
    "4d6ma4kh2": lambda: d6.clip(None, 4).pool(4).highest(2).sum(),
    "2d6r1mi3": lambda: 2 @ d6.reroll([1], depth="inf").clip(3, None),
    "1d20 + 5": lambda: d20 + 5,
    "2d6 * 3": lambda: (2 @ d6) * 3,
    "1d6 * 1d6": lambda: d6 * d6,
    "floor(1d100 / 1d6)": lambda: d100 // d6,
    "floor(1d20 / 2)": lambda: d20 // 2,
    "floor(-1d6 / 4)": lambda: (-d6) // 4,
    "-1d6 + 3": lambda: -d6 + 3,
    "3d6 - 2d4 + 1d8 * 2": lambda: (3 @ d6) - (2 @ icepool.d4) + icepool.d8 * 2,
    "(1d4)d6": lambda: icepool.d4.map(lambda n: n @ d6),
    "(1+1)d6": lambda: 2 @ d6,
    "1d(1d6+1)": lambda: (d6 + 1).map(lambda s: icepool.d(s)),
    "(1d3)d6kh1": lambda: icepool.d3.map(lambda n: d6.pool(n).highest(1).sum()),
    "{1d20, 1d20}kh1": lambda: icepool.highest(d20, d20, keep=1),
    "{3d6, 2d10, 1d20}kh2": lambda: icepool.highest(3 @ d6, 2 @ d10, d20, keep=2),
    "{1d20 + 5, 2d10}kl1": lambda: icepool.lowest(d20 + 5, 2 @ d10, keep=1),
    "{1d20, 1d12, 1d8}>=8": lambda: d20.map(count_if(lambda x: x >= 8)) + icepool.d12.map(count_if(lambda x: x >= 8))
    + icepool.d8.map(count_if(lambda x: x >= 8)),
    "{4d6kh3, 4d6kh3, 4d6kh3}dl1": lambda: icepool.highest(*[d6.pool(4).highest(3).sum()] * 3, keep=2),
    "{2d6, 1d12}kh1>=7": lambda: icepool.highest(2 @ d6, icepool.d12, keep=1).map(count_if(lambda x: x >= 7)),
    "20d100": lambda: 20 @ d100,
    "12d20kh4 - 1d10": lambda: d20.pool(12).highest(4).sum() - d10,
    # Roll20's matches: the sets of equal faces (of at least so many dice, among faces that meet a
    # condition), counted from icepool's sorted pool
    "6d6mt": lambda: d6.pool(6).expand().map(lambda t: sets(t, 2)),
    "5d10mt3": lambda: d10.pool(5).expand().map(lambda t: sets(t, 3)),
    "7d8mt>4": lambda: icepool.d8.pool(7).expand().map(lambda t: sets(t, 2, lambda x: x > 4)),
    "4d6r1mt": lambda: d6.reroll([1], depth="inf").pool(4).expand().map(lambda t: sets(t, 2)),
    "6d6m": lambda: 6 @ d6,
    # unique dice with equally likely faces: dealt from a deck, without replacement
    "8d20u": lambda: icepool.Deck(range(1, 21)).deal(8).sum(),
    "6d10ukh2": lambda: icepool.Deck(range(1, 11)).deal(6).highest(2).sum(),
    "5d12udl1": lambda: icepool.Deck(range(1, 13)).deal(5).highest(4).sum(),
}


def sets(faces: tuple[int, ...], size: int, test=lambda x: True) -> int:
    return sum(1 for v in set(faces) if test(v) and faces.count(v) >= size)


@pytest.mark.parametrize("expression", sorted(EXACT))
def test_exact_agreement(expression):
    ours = distribution(expression)
    theirs = EXACT[expression]()
    expected = {int(v): Fraction(w, theirs.denominator()) for v, w in theirs.items() if w}
    assert ours.probabilities == expected
    assert ours.residual == 0


def _chain(die, go, depth):
    """The sum of a chain of rolls that goes on while a roll is in ``go`` (icepool's explode)."""
    return die.explode(go, depth=depth)


def _open(die, low, high, again, depth):
    chain = _chain(die, again, depth)
    return die.map(lambda x: x + chain if high is not None and x >= high
                   else (x - chain if low is not None and x <= low else x))


def _penetrating(die, top, depth):
    if depth == 0:
        return die
    rest = _penetrating(die, top, depth - 1) - 1
    return die.map(lambda x: x + rest if x == top else x)


def _successes_of_chain(die, top, test, depth):
    if depth == 0:
        return die.map(count_if(test))
    rest = _successes_of_chain(die, top, test, depth - 1)
    return die.map(lambda x: (1 if test(x) else 0) + rest if x == top else (1 if test(x) else 0))


INFINITE = {
    "3d6!": lambda: 3 @ _chain(d6, [6], 24),
    "2d6!!": lambda: 2 @ _chain(d6, [6], 24),
    "1d6!>=5": lambda: _chain(d6, [5, 6], 45),
    "4d10!=1": lambda: 4 @ _chain(d10, [1], 20),
    "2d2!": lambda: 2 @ _chain(icepool.d2, [2], 60),
    "2d6!p": lambda: 2 @ _penetrating(d6, 6, 24),  # separate dice: the same total as compounded
    "2d6!!p": lambda: 2 @ _penetrating(d6, 6, 24),
    "4d6!!kh3": lambda: _chain(d6, [6], 20).pool(4).highest(3).sum(),
    "5d10>=8!": lambda: 5 @ _successes_of_chain(d10, 10, lambda x: x >= 8, 20),
    "d20oe": lambda: _open(d20, 1, 20, [20], 14),
    "d20oeh": lambda: _open(d20, None, 20, [20], 14),
    "d20oel": lambda: _open(d20, 1, None, [20], 14),
    "d100oe5": lambda: _open(d100, 5, 96, range(96, 101), 14),
    "1d20oe + 5": lambda: _open(d20, 1, 20, [20], 14) + 5,
    "2d20oekh1": lambda: _open(d20, 1, 20, [20], 12).pool(2).highest(1).sum(),
}


# Where a chain steps by 1 (exploding on 1s), or a kept die is compared with a cut chain, the
# cut reaches likely totals too: there only the 2e-12 bound holds.
CUT_AFFECTS_LIKELY_TOTALS = {"4d10!=1", "2d20oekh1"}


@pytest.mark.parametrize("expression", sorted(INFINITE))
def test_agreement_of_infinite_chains_within_the_residual(expression):
    ours = distribution(expression)
    theirs = INFINITE[expression]()
    expected = {int(v): Fraction(w, theirs.denominator()) for v, w in theirs.items() if w}
    assert 0 < ours.residual < Fraction(1, 10**12)
    assert sum(ours.probabilities.values()) + ours.residual == 1
    worst = max(abs(ours.p_eq(v) - expected.get(v, 0)) for v in set(expected) | set(ours.probabilities))
    assert worst < Fraction(2, 10**12)
    if expression in CUT_AFFECTS_LIKELY_TOTALS:
        return
    # the likeliest totals come from short chains, which neither side cuts: they agree exactly
    common = sorted(set(expected) & set(ours.probabilities), key=lambda v: -expected[v])[:10]
    assert all(ours.p_eq(v) == expected[v] for v in common)

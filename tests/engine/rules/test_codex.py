"""Ogre CharacterCodex: the d20 check, its exact odds, ranks, taking 10/10+/20, rounding, multipliers."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.errors import RollbookError
from rollbook.systems import codex as cx

DEPTH = 5  # enumeration depth of the open-ended chain; what it leaves out is at most 20^-DEPTH


@functools.cache
def enumerate_die(take, depth=DEPTH) -> dict[int, Fraction]:
    """Brute force: every chain of d20s up to ``depth`` extra dice, straight from the seed's words."""
    out: dict[int, Fraction] = {}

    def add(value, p):
        out[value] = out.get(value, 0) + p

    def chain(sign, base, p, left):
        for face in range(1, 21):
            q = p / 20
            if face == 20 and left:
                chain(sign, base + sign * 20, q, left - 1)
            elif face != 20:
                add(base + sign * face, q)

    for natural in range(1, 21):
        p = Fraction(1, 20)
        if take == "10+" and natural < 10:
            add(10, p)
        elif natural == 20:
            chain(+1, 20, p, depth)
        elif natural == 1:
            chain(-1, 1, p, depth)
        else:
            add(natural, p)
    return out


@pytest.mark.parametrize("take", [None, "10+"])
def test_closed_form_matches_enumeration(take):
    dist = enumerate_die(take)
    neglected = 1 - sum(dist.values())
    assert 0 < neglected <= Fraction(1, 20**DEPTH)
    for t in range(-120, 140):
        brute = sum(p for v, p in dist.items() if v >= t)
        exact = cx.die_at_least(t, take)
        assert brute <= exact <= brute + neglected, t


def test_closed_form_agrees_with_the_dice_engines_truncated_d20oe():
    from rollbook.dice import distribution

    engine = distribution("d20oe")
    assert engine.residual > 0
    for t in range(engine.min - 5, 120):
        assert abs(cx.die_at_least(t) - engine.p_at_least(t)) <= engine.residual, t


def test_chain_probabilities():
    assert cx.chain_at_least(1) == 1 and cx.chain_at_least(20) == Fraction(1, 20)
    assert cx.chain_at_least(21) == Fraction(1, 20) and cx.chain_at_least(40) == Fraction(1, 400)
    assert sum(cx.chain_at_least(s) - cx.chain_at_least(s + 1) for s in range(1, 200)) == 1 - cx.chain_at_least(200)


def test_dice_values_and_chains():
    assert cx.die_value((12,)) == 12
    assert cx.die_value((20, 7)) == 27 and cx.die_value((20, 20, 3)) == 43
    assert cx.die_value((1, 7)) == -6 and cx.die_value((1, 20, 3)) == -22
    assert cx.die_value((3,), "10+") == 10 and cx.die_value((1,), "10+") == 10 and cx.die_value((20, 5), "10+") == 25
    assert cx.die_value((), "10") == 10 and cx.die_value((), "20") == 20
    for bad in [(20,), (1,), (5, 3), (20, 20), (20, 5, 20), (0,), (21,), ()]:
        with pytest.raises(RollbookError):
            cx.die_value(bad)
    with pytest.raises(RollbookError, match="rolls no dice"):
        cx.die_value((5,), "20")


def test_check_outcomes():
    plain = cx.check(5, 15, (10,))
    assert (plain.total, plain.success, plain.success_rank, plain.failure_rank) == (15, True, 1, 0)
    total = cx.check(5, 15, (20, 20, 5))
    assert total.total == 50 and total.success_rank == 3
    fail = cx.check(2, 15, (1, 9))
    assert fail.total == -6 and not fail.success and fail.failure_rank == 6
    zero = cx.check(-1, 0, (1, 20, 1))  # 1 - 21 - 1 = -21
    assert zero.failure_rank == 21 and zero.success_rank == 0
    assert cx.check(3, 0, (5,)).success_rank == 0  # DC 0: no total success
    assert cx.failure_rank(0) == 0 and cx.failure_rank(-1) == 1
    assert cx.success_rank(29, 15) == 1 and cx.success_rank(30, 15) == 2


def test_automatic_success_and_failure():
    auto = cx.check(15, 15, (), automatic=True)
    assert auto.success and auto.automatic == "success" and auto.chances.success == 1 and auto.total is None
    with pytest.raises(RollbookError, match="automatic success needs"):
        cx.check(14, 15, (), automatic=True)
    hopeless = cx.check(3, 30, (20, 9))
    assert hopeless.impossible_on_20 and hopeless.success and hopeless.total == 32  # without the GM option
    ruled = cx.check(3, 30, (), impossible_fails=True)
    assert ruled.automatic == "failure" and not ruled.success and ruled.chances.success == 0
    assert not cx.impossible_on_20(10, 30)


def test_taking_10_and_20():
    assert cx.check(4, 14, (), take="10", safe=True).success and not cx.check(4, 15, (), take="10", safe=True).success
    assert cx.check(4, 24, (), take="20", safe=True).total == 24
    assert cx.chances(4, 15, "10").success == 0 and cx.chances(4, 14, "10").success == 1
    assert cx.chances(0, 11, "10+").success == Fraction(10, 20)  # naturals 11..20
    assert cx.chances(0, 10, "10+").success == 1


@pytest.mark.parametrize("take", ["10", "20"])
def test_no_taking_10_or_20_while_threatened_or_distracted(take):
    """"Distractions or threats (such as combat) make it impossible for a character to take 10"; taking 20
    needs "no threats or distractions" too. Taking 10+ has no such condition."""
    with pytest.raises(RollbookError, match=f"impossible for a character to take {take}.*say so"):
        cx.check(4, 14, (), take=take)
    assert cx.check(4, 14, (10,), take="10+").total == 14


def test_taking_20_takes_twenty_times_as_long_and_pays_for_failure_first():
    """"Taking 20 takes twenty times as long as making a single check would take"; on a skill that carries
    penalties for failure "your character would automatically incur those penalties"."""
    twenty = cx.check(4, 24, (), take="20", safe=True)
    assert twenty.time_multiplier == 20 and not twenty.penalties_incurred
    assert cx.check(4, 24, (), take="20", safe=True, failure_has_cost=True).penalties_incurred
    ten = cx.check(4, 14, (), take="10", safe=True, failure_has_cost=True)
    assert ten.time_multiplier == 1 and not ten.penalties_incurred
    assert cx.check(4, 14, (10,)).time_multiplier == 1


@pytest.mark.parametrize(("dice", "modifier", "dc", "outcome"), [
    ((10,), -1, 10, "failure"), ((10,), 0, 10, "success"), ((10,), 9, 10, "success"),
    ((10,), 10, 10, "total success"),  # 20 beats 10 twice
    ((10,), -10, 1, "failure"),  # a total of 0 is not below 0
    ((10,), -11, 1, "total failure"),  # -1
])
def test_total_success_and_failure_say_what_they_mean(dice, modifier, dc, outcome):
    result = cx.check(modifier, dc, dice)
    assert result.outcome == outcome
    if outcome == "total success":
        assert "hurt him more than expected" in cx.MEANINGS[outcome]
    if outcome == "total failure":
        assert "broken your tools" in cx.MEANINGS[outcome]
    assert cx.chances(0, 10, "10+").total_failure == 0  # a natural 1 counts as 10


def brute_check(modifier, dc, take):
    dist = enumerate_die(take)
    success = sum(p for v, p in dist.items() if v + modifier >= dc)
    total_success = sum(p for v, p in dist.items() if dc > 0 and v + modifier >= 2 * dc)
    total_failure = sum(p for v, p in dist.items() if v + modifier < 0)
    return success, total_success, total_failure, 1 - sum(dist.values())


@settings(max_examples=120, deadline=None)
@given(st.integers(-15, 30), st.integers(0, 45), st.sampled_from([None, "10+"]))
def test_check_chances_match_enumeration(modifier, dc, take):
    odds = cx.chances(modifier, dc, take)
    success, total_success, total_failure, neglected = brute_check(modifier, dc, take)
    for exact, brute in ((odds.success, success), (odds.total_success, total_success),
                         (odds.total_failure, total_failure)):
        assert brute <= exact <= brute + neglected
    assert sum(r.chance for r in odds.success_ranks) == odds.total_success
    assert sum(r.chance for r in odds.failure_ranks) == odds.total_failure


def test_every_rolled_check_agrees_with_its_chance():
    """Seeded statistical check: the rolled success rate sits near the exact chance."""
    rng = random.Random(2024)
    trials = 2000
    wins = sum(cx.die_value(cx.roll_dice(rng)) + 3 >= 14 for _ in range(trials))
    p = cx.chances(3, 14).success
    assert p == Fraction(10, 20)
    assert abs(wins / trials - float(p)) < 0.03


def test_the_dc_table():
    assert cx.dc_for("Very easy") == 0 and cx.dc_for("tough") == 15 and cx.dc_for("NEARLY IMPOSSIBLE") == 40
    with pytest.raises(RollbookError, match="unknown complexity"):
        cx.dc_for("hard")


def test_rounding_down_with_the_damage_minimum():
    assert cx.round_down(Fraction(7, 2)) == 3 and cx.round_down(Fraction(39, 10)) == 3
    assert cx.round_down(Fraction(1, 3)) == 0 and cx.round_down(Fraction(1, 3), minimum=1) == 1
    assert cx.round_down(Fraction(-1, 2)) == -1


def test_multipliers_from_the_seed():
    assert cx.combine_multipliers([2, 2]) == 3  # "a double and a double ... results in a triple"
    assert cx.combine_multipliers([2, 2, 2]) == 4 and cx.combine_multipliers([3]) == 3
    assert cx.combine_multipliers([8, 3], real_world=True) == 24  # size doubles (x8 weight), stone x3
    assert cx.combine_multipliers([2, 2], real_world=True) == 4  # blinded on difficult terrain
    assert cx.combine_multipliers([]) == 1

"""Cyno's Role-Play: initiative, strike, dodge, parry and the metric damage rating, with the seed's examples."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.errors import RollbookError
from rollbook.systems import cyno


def test_four_pcs_and_two_npcs_roll_1d8():
    assert cyno.initiative_die(4 + 2) == 8


@pytest.mark.parametrize(("combatants", "die"), [
    (1, 4), (3, 4), (4, 6), (5, 6), (7, 8), (8, 10), (10, 12), (11, 12), (12, 20), (19, 20), (20, 30), (29, 30),
    (30, 100), (99, 100), (100, 1000), (1000, 10000),
])
def test_initiative_die_steps(combatants, die):
    assert cyno.initiative_die(combatants) == die


@settings(max_examples=200, deadline=None)
@given(st.integers(1, cyno.MAX_COMBATANTS))
def test_initiative_die_is_always_larger_than_the_party(combatants):
    sides = cyno.initiative_die(combatants)
    assert sides > combatants
    smaller = [d for d in cyno.standard_dice() if d < sides]
    assert all(d <= combatants for d in smaller)  # the smallest die that will do


def test_initiative_die_bad_input():
    with pytest.raises(RollbookError, match="at least one combatant"):
        cyno.initiative_die(0)


def test_reflex_and_coordination_bonuses():
    assert [cyno.initiative_bonus(r, 20) for r in (7, 8, 9, 12, 13, 14, 16, 18)] == [-1, 0, 0, 0, 0, 1, 2, 3]
    assert cyno.initiative_bonus(18, 12) == 0  # only on a d20 or larger
    assert cyno.initiative_bonus(18, 30) == 3 and cyno.initiative_bonus(5, 100) == -2
    assert [cyno.dodge_modifier(r) for r in (14, 15, 18, 7)] == [0, 1, 2, -1]  # per 3 over 12
    assert cyno.coordination_modifier(15) == 1 and cyno.stress_modifier(3) == -3


def test_initiative_rolls_break_ties_with_separate_rolls():
    for seed in range(30):
        sides, order = cyno.roll_initiative([14, 10, 10, None], random.Random(seed))
        assert sides == 6 and len(order) == 4 and {r.character for r in order} == {0, 1, 2, 3}
        assert all(r.bonus == 0 for r in order)  # no reflex bonus below a d20
        totals = [r.total for r in order]
        assert totals == sorted(totals, reverse=True)
        for a, b in zip(order, order[1:]):
            if a.total == b.total:  # a tie was broken by later rolls
                assert len(a.rolls) > 1 and len(b.rolls) > 1


def test_holding_back():
    assert cyno.hold_back_winner(10, 14, 10, 12) == "first"  # +1 vs 0: the first waits longer
    assert cyno.hold_back_winner(10, 12, 11, 5) == "first"  # 10 vs 11 - 2
    assert cyno.hold_back_winner(10, 12, 11, 7) is None  # 10 vs 11 - 1: roll again
    assert cyno.hold_back_winner(10, 12, 10, 12) is None


def test_surprise_chart():
    assert cyno.surprise(2).misses_turn and cyno.surprise(3).loses_initiative
    assert cyno.surprise(4).result == "Surprised, lose initiative."
    assert not cyno.surprise(6).surprised


def test_strike_automatics_and_threshold():
    assert not cyno.strike(5, [cyno.StrikeModifier("big", 10)]).hit  # 5 or lower always misses
    assert cyno.strike(20, [cyno.StrikeModifier("bad", -15)]).hit  # 20 always hits
    assert cyno.strike(20, []).critical
    assert not cyno.strike(10, []).hit and cyno.strike(11, []).hit  # higher than 10
    assert cyno.strike(19, []).critical
    assert not cyno.strike(19, [cyno.StrikeModifier("cover", -9)]).critical  # a 19 that misses


def test_weaponry_skill_uses_one_band():
    bands = {s: cyno.weaponry_skill_line(s)["modifier"] for s in (0, 10, 11, 15, 20, 21, 41, 50, 51, 60, 61, 95, 100)}
    assert bands == {0: -5, 10: -5, 11: -4, 15: -4, 20: -4, 21: -3, 41: -1, 50: -1, 51: 0, 60: 0, 61: 1, 95: 4, 100: 4}


def test_strike_modifiers_from_the_charts():
    mods = cyno.strike_modifiers(coordination=16, weaponry_skill=75, conditions=["large-target", "half-cover"],
                                 damage_lost=14, aim_actions=2, rocket=True)
    assert [m.modifier for m in mods] == [2, 2, 1, -2, -2, 2, -2]
    with pytest.raises(RollbookError, match="cannot both apply"):
        cyno.strike_modifiers(conditions=["moving-slowly", "moving-quickly"])
    with pytest.raises(RollbookError, match="unknown strike condition"):
        cyno.strike_modifiers(conditions=["invisible"])
    assert cyno.critical_damage(7) == 14


def test_dodge_and_blind_dodge_and_volleys():
    assert cyno.dodge(13, 12, reflex=15).success  # 12 + 1 >= 13
    assert not cyno.dodge(13, 12, reflex=14).success
    assert not cyno.dodge(13, 20, reflex=12, blind_roll=51).success
    assert cyno.dodge(13, 20, reflex=12, blind_roll=50).success
    assert cyno.dodge(13, 20, reflex=12, volley=4).success
    assert not cyno.dodge(1, None, reflex=12, volley=5).success


def test_parry():
    skilled = cyno.parry(15, None, reflex=10, hand_to_hand_skill=60, skill_roll=60)
    assert skilled.success and skilled.actions_spent == 0
    assert not cyno.parry(15, None, reflex=10, hand_to_hand_skill=60, skill_roll=61).success
    plain = cyno.parry(15, 15, reflex=10)
    assert plain.success and plain.actions_spent == 1


def level(symbol):
    return cyno.parse_level(symbol)


def test_levels_named_and_unnamed():
    assert [level(s) for s in ("", "-", "DP", "da", "h", "hDP", "k", "k+1", "k+2", "M", "kilo", "m", "u+2")] == \
        [0, 0, 0, 1, 2, 2, 3, 4, 5, 6, 3, 3 * -1, -4]
    assert level("M") != level("m") and level("P") == 15 and level("p") == -12
    assert cyno.level_symbol(4) == "k+1" and cyno.level_symbol(-5) == "u+1"
    for bad in ("k+3", "x", "E+1", "K"):
        with pytest.raises(RollbookError):
            level(bad)


def test_conversion_moves_the_decimal():
    assert cyno.convert(1, level("da"), level("")) == 10  # one daDP equals ten DP
    assert cyno.convert(10, level("d"), level("da")) == Fraction(1, 10)  # 10 deci = 0.1 deka
    assert cyno.convert(1, level("M"), level("k")) == 1000


def test_the_hdp_tank():
    tank = level("h")
    for weapon in ("fist", "bat", "9mm"):
        assert cyno.damage_to(100, level(""), tank).damage == 0, weapon  # DP weapons: nothing
    rocket = cyno.damage_to(3, level("k"), tank)
    assert rocket.damage == 30 and rocket.exact == 30
    assert cyno.damage_to(5, level("da"), tank).exact == Fraction(1, 2)
    assert cyno.damage_to(5, level("da"), tank).damage == 0  # rounds down
    assert cyno.damage_to(15, level("da"), tank).damage == 1


def test_static_damage_points():
    weapon = level("h")  # 5 ShDP
    assert cyno.damage_to(5, weapon, level("h"), static=True).damage == 5
    assert cyno.damage_to(5, weapon, level("da"), static=True).damage == 5  # "only 5 daDP"
    assert cyno.damage_to(5, weapon, level("c"), static=True).damage == 5  # "only 5 damage points"
    assert cyno.damage_to(5, weapon, level(""), static=False).damage == 500  # not static: 5 hDP = 500 DP
    assert cyno.damage_to(5, weapon, level("M"), static=True).damage == 0  # ruling cyno-static-damage
    assert cyno.damage_to(5, weapon, level("h"), static=True, critical=True).damage == 10


def test_decimal_text():
    assert [cyno.format_decimal(Fraction(n, d)) for n, d in ((1, 2), (300, 1), (1, 1000), (-5, 2))] == \
        ["0.5", "300", "0.001", "-2.5"]

"""OpenCore's rules, with the seed's worked examples (Buck Hunter) as tests."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.errors import RollbookError
from rollbook.systems import opencore as oc

BUCK = dict(STR=76, DEX=80, AGL=21, CON=32, INT=86, PER=96, WIS=32, CHA=17, COM=92)
ability = st.integers(1, 100)


def test_buck_hunter_composites_and_hp():
    buck = oc.make_character(BUCK, hp_roll=96)
    assert buck.abilities["COM"] == 100  # CHA 17 is low: 92 + 25, capped at 100
    assert buck.composites == {"SDAC": 52, "IPW": 71, "CC": 59}
    assert buck.hp == 64  # 96 - 32


def test_composite_rounding_is_half_up_not_bankers():
    assert oc.round_half_up(117, 2) == 59  # 58.5: Python's round() would say 58
    assert round(117 / 2) == 58
    assert oc.round_half_up(209, 4) == 52 and oc.round_half_up(214, 3) == 71
    assert oc.round_half_up(215, 3) == 72 and oc.round_half_up(5, 2) == 3 and oc.round_half_up(7, 4) == 2


@settings(max_examples=150, deadline=None)
@given(numerator=st.integers(0, 10_000), denominator=st.sampled_from([2, 3, 4]))
def test_round_half_up_matches_exact_arithmetic(numerator, denominator):
    exact = Fraction(numerator, denominator)
    result = oc.round_half_up(numerator, denominator)
    assert abs(exact - result) <= Fraction(1, 2)
    assert exact - result != Fraction(1, 2)  # a half always goes up


@pytest.mark.parametrize(("cha", "com", "expected"), [
    (17, 92, 100), (49, 50, 75), (50, 50, 50), (51, 50, 25), (90, 10, 1), (90, 26, 1), (90, 27, 2), (1, 100, 100),
])
def test_comeliness_rule(cha, com, expected):
    assert oc.comeliness(cha, com) == expected


@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({code: ability for code in BUCK}), st.integers(1, 100))
def test_composites_and_abilities_stay_within_1_to_100(scores, hp_roll):
    hero = oc.make_character(scores, hp_roll)
    assert all(1 <= v <= 100 for v in hero.abilities.values())
    assert all(1 <= v <= 100 for v in hero.composites.values())
    assert hero.hp >= 1 and hero.hp == max(1, hp_roll - scores["CON"])


def test_hp_below_one_becomes_one():
    assert oc.starting_hp(10, 32) == 1 and oc.starting_hp(32, 32) == 1 and oc.starting_hp(33, 32) == 1


def test_parse_scores():
    assert oc.parse_scores("str=76, DEX=80") == {"STR": 76, "DEX": 80}
    for bad, message in [("STR=0", "STR must be between 1 and 100"), ("LUCK=5", "unknown ability “LUCK”"),
                         ("STR", "cannot read the score"), ("STR=5,STR=6", "STR is given twice"),
                         ("STR=1.5", "cannot read")]:
        with pytest.raises(RollbookError, match=message):
            oc.parse_scores(bad)


def brute_chance(rule: oc.CheckRule, minus: int, target: int) -> Fraction:
    wins = 0
    for roll in range(1, 101):
        result = roll - minus
        wins += {"at-or-below": result <= target, "at-or-above": result >= target, "above": result > target}[rule.succeeds]
    return Fraction(wins, 100)


def test_saves_follow_the_rulings():
    buck = oc.make_character(BUCK, 96)
    pt = oc.check("physical-toughness", buck.abilities, 84, oc.DEFAULT)
    assert (pt.result, pt.target, pt.success) == (52, 52, True)  # 84 - 32 = 52: "SDAC score or better"
    assert not oc.check("physical-toughness", buck.abilities, 85).success
    assert pt.chance == Fraction(84, 100)
    over = oc.check("physical-toughness", buck.abilities, 85, oc.Options(save_direction="over"))
    assert over.success is True and over.chance == Fraction(17, 100)  # 84..100 minus 32 >= 52
    assert oc.check("willpower", buck.abilities, 50).target == 52
    assert oc.check("willpower", buck.abilities, 50, oc.Options(willpower_composite="IPW")).target == 71
    assert oc.check("awareness", buck.abilities, 71).success and not oc.check("awareness", buck.abilities, 72).success


def test_perception_is_literal_with_the_inverted_option():
    assert oc.check("perception", {"PER": 96}, 97).success
    assert not oc.check("perception", {"PER": 96}, 96).success
    inverted = oc.Options(perception="at-or-below")
    assert oc.check("perception", {"PER": 96}, 96, inverted).success
    assert oc.check("perception", {"PER": 96}, 1).chance == Fraction(4, 100)


@settings(max_examples=100, deadline=None)
@given(st.fixed_dictionaries({code: ability for code in BUCK}), st.sampled_from(oc.check_kinds()),
       st.sampled_from([oc.DEFAULT, oc.Options(save_direction="over", willpower_composite="IPW", perception="at-or-below")]))
def test_check_chances_match_enumeration(scores, kind, options):
    first = oc.check(kind, scores, 1, options)
    minus = scores[first.rule.subtract] if first.rule.subtract else 0
    assert first.chance == brute_chance(first.rule, minus, first.target)
    assert first.chance == Fraction(sum(oc.check(kind, scores, r, options).success for r in range(1, 101)), 100)


def test_check_needs_its_abilities():
    with pytest.raises(RollbookError, match="needs CON"):
        oc.check("physical-toughness", {"STR": 1, "DEX": 1, "AGL": 1}, 5)
    assert oc.needed_abilities("reflex") == ("STR", "DEX", "AGL", "CON")
    assert oc.needed_abilities("willpower") == ("STR", "DEX", "AGL", "CON", "WIS")


def test_health_states():
    assert oc.health_state(1, 32) == "conscious"
    assert oc.health_state(0, 32) == "unconscious" and not oc.bleeding(0, 32)
    assert oc.health_state(-31, 32) == "unconscious" and oc.bleeding(-31, 32)
    assert oc.health_state(-32, 32) == "dead" and not oc.bleeding(-32, 32)
    assert oc.health_state(0, 32, oc.Options(death_at="zero")) == "dead"


def test_fortitude_removes_dice_before_rolling():
    assert oc.fortitude_dice(3, 0) == 3 and oc.fortitude_dice(3, 2) == 1
    assert oc.fortitude_dice(3, 3) == 1 and oc.fortitude_dice(3, 5) == 1  # at least 1 ...
    assert oc.fortitude_dice(3, 6) == 0  # ... unless twice the dice
    assert oc.apply_fortitude("3d10+5", 2) == "1d10+5" and oc.apply_fortitude("3d10+5", 6) == "5"
    assert oc.apply_fortitude("3d10", 6) == "0"


def test_initiative():
    assert oc.dex_modifier(80) == 3 and oc.dex_modifier(50) == 0 and oc.dex_modifier(1) == -5
    assert oc.dex_modifier(100) == 5 and oc.dex_modifier(49) == -1
    assert oc.dex_modifier(80, oc.Options(dex_modifier="none")) == 0
    sword, chain = oc.weapon("sword")["speed"], oc.armor("Chain Mail")["initiative_penalty"]
    result = oc.individual_initiative(12, 80, speed_factor=sword, armor_penalty=chain, bide=True)
    assert result.total == 12 + 3 + 20 - 10 + 20
    assert oc.group_initiative_winner(4, 4) is None and oc.group_initiative_winner(5, 2) == "first"
    with pytest.raises(RollbookError, match="between 1 and 20"):
        oc.individual_initiative(21, 50)


def test_weapon_damage_expressions():
    assert oc.damage_expression("Hand to Hand", strength=76) == "1d6+2"
    assert oc.damage_expression("Hand to Hand", strength=76, options=oc.Options(str_damage="score")) == "1d6+76"
    assert oc.damage_expression("knife", strength=55) == "1d10"
    assert oc.damage_expression("Sword", strength=20) == "2d10-3"
    assert oc.damage_expression("Assault Rifle") == "3d10"
    assert oc.damage_expression("Assault Rifle", mode="full auto") == "3d10+20"
    assert oc.damage_expression("Gunnery", fortitude=2) == "3d10+30"
    with pytest.raises(RollbookError, match="adds STR"):
        oc.damage_expression("Sword")
    with pytest.raises(RollbookError, match="per weapon"):
        oc.damage_expression("Thrown weapons")
    with pytest.raises(RollbookError, match="no mode “laser”"):
        oc.damage_expression("Assault Rifle", mode="laser")
    assert oc.hit_damage(-2) == 1


def test_the_opposed_attack():
    hit = oc.resolve_attack(60, 40, attack_skill=30, defense_skill=40)
    assert (hit.attack_total, hit.defense_total, hit.hit) == (90, 80, True)
    tie = oc.resolve_attack(50, 40, attack_skill=30, defense_skill=40)
    assert tie.attack_total == tie.defense_total and not tie.hit
    doubled = oc.resolve_attack(60, 40, attack_skill=30, defense_skill=40, defending=True)
    assert doubled.defense_total == 120 and not doubled.hit
    attacker_fumble = oc.resolve_attack(5, 1, attack_skill=500, defense_skill=0)
    assert attacker_fumble.attacker_fumbled and attacker_fumble.defender_fumbled and not attacker_fumble.hit
    stunned = oc.resolve_attack(60, 40, attack_skill=30, defense_skill=40, defender_stunned=True)
    assert stunned.defense_total == 30 and stunned.hit
    defender_fumble = oc.resolve_attack(6, 5, attack_skill=0, defense_skill=500)
    assert defender_fumble.hit and not defender_fumble.attacker_fumbled


def test_fumble_chart_sides_differ():
    assert oc.fumble("attacker", 60).effect == oc.fumble("defender", 60).effect == "Recovers from fumble."
    assert oc.fumble("defender", 61).defense_penalty == -20
    assert oc.fumble("attacker", 90).opponent_extra_attack
    attacker, defender = oc.fumble("attacker", 95), oc.fumble("defender", 95)
    assert attacker.drops_weapon and attacker.self_damage_multiplier == 1 and defender.damage_taken_multiplier == 2
    assert oc.fumble("attacker", 96).self_damage_multiplier == 2 and oc.fumble("defender", 100).damage_taken_multiplier == 3


def test_damage_comes_off_armor_then_toughness_then_hp():
    result = oc.apply_damage(40, armor=25, toughness=10, hp=64, con=32)
    assert (result.armor, result.toughness, result.hp, result.to_hp, result.critical) == (0, 0, 59, 5, True)
    assert not oc.apply_damage(30, armor=25, toughness=10, hp=64, con=32).critical
    assert oc.apply_damage(100, hp=64, con=32).state == "dead"  # 64 - 100 = -36 <= -32


def test_mental_power():
    assert oc.effective_mental_power(60, 25) == 35 and oc.effective_mental_power(25, 25) == 0
    assert oc.effective_mental_power(10, 25) == 0


def test_critical_hits():
    weak = oc.critical_hit("slash", 95, attack_roll=19)
    assert (weak.roll, weak.extra_damage, weak.bloodloss) == (75, 10, 1)
    strong = oc.critical_hit("shrapnel", 100, attack_roll=81)
    assert strong.roll == 120 and strong.extra_damage == 50 and strong.bloodloss == 5
    assert strong.unconscious_rounds == 2 and strong.location == "destroyed" and strong.skill_penalty == -40
    assert oc.critical_hit("impact", 95, attack_roll=20).attack_modifier == 0
    assert oc.critical_hit("impact", 95, attack_roll=80).attack_modifier == 0
    tough = oc.critical_hit("burn", 5, attack_roll=1, toughness=30)
    assert (tough.unclamped, tough.roll, tough.effect) == (-45, -19, "no extra damage")
    zero = oc.critical_hit("puncture", 20, attack_roll=10)
    assert zero.roll == 0 and zero.row == "-9 to 0"  # ruling opencore-crit-overlap-at-zero
    assert oc.critical_hit("impact", 100, attack_roll=95).effect == "+15 damage, unconscious 1 round"
    with pytest.raises(RollbookError, match="unknown critical type “laser”"):
        oc.critical_hit("laser", 50)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(oc.CRITICAL_TYPES), st.integers(1, 100), st.one_of(st.none(), st.integers(1, 100)),
       st.integers(0, 500))
def test_every_critical_roll_reads_a_row(kind, die, attack_roll, toughness):
    hit = oc.critical_hit(kind, die, attack_roll=attack_roll, toughness=toughness)
    assert -19 <= hit.roll <= 120 and hit.effect
    assert hit.roll == max(-19, min(120, hit.unclamped))


def test_seeded_rolls_repeat():
    from rollbook.systems import roll_total

    first = [roll_total("1d100", random.Random(9)) for _ in range(3)]
    assert len(set(first)) == 1 and 1 <= first[0] <= 100

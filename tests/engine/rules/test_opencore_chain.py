"""OpenCore issue 12: the attack chain through the critical, Powers, scores of 0, a party's initiative
and the success count, each from the document's own words."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook import api
from rollbook.errors import RollbookError
from rollbook.systems import opencore as oc
from rule_answers import call, refused

EFFECT_FIELDS = ["extra_damage", "bloodloss", "hp_per_round", "stun_rounds", "unconscious_rounds", "location",
                 "skill_penalty"]


SWORD_HIT = dict(attack_skill=40, defense_skill=30, attack_roll=50, defense_roll=20, weapon="Sword", strength=50)


# --- the chain: "Critical Hits are rolled whenever damage is done to Hit Points" ------------------


def test_a_hit_that_reaches_hit_points_rolls_the_critical_and_returns_its_effects():
    out = call("opencore attack", **{**SWORD_HIT, "attack_roll": 85}, hp=5, con=30, critical_roll=85, seed=1)
    wound = out["wound"]
    assert wound["critical"] is True and wound["to_hp"] == out["damage"]
    assert wound["critical_hit"]["roll"] == 105  # "101 to 110  +20 damage, stun 2 rounds, bloodlossx2"
    assert wound["effects"] == {"extra_damage": 20, "bloodloss": 2, "hp_per_round": -2, "stun_rounds": 2,
                                "unconscious_rounds": 0, "location": None, "skill_penalty": 0}
    assert wound["hp"] == 5 - out["damage"] - 20


WOUND_FIELDS = {"damage", "to_power", "to_armor", "to_toughness", "to_hp", "armor", "toughness", "substance_flaw",
                "critical", "critical_hit", "effects", "hp", "state", "bleeding", "text"}


def test_the_wound_is_the_documented_contract():
    """ARCHITECTURE.md's "attack chain's answer": the encounter tracker reads these names."""
    wound = call("opencore attack", **SWORD_HIT, hp=5, con=30, critical_roll=50, seed=1)["wound"]
    assert set(wound) == WOUND_FIELDS and list(wound["effects"]) == EFFECT_FIELDS
    assert set(wound["critical_hit"]) == set(call("opencore crit", type="slash", roll=50))


def test_the_effects_always_have_the_same_fields():
    stopped = call("opencore attack", **SWORD_HIT, hp=50, con=30, armor=150, seed=1)["wound"]
    assert stopped["critical"] is False and stopped["critical_hit"] is None
    assert list(stopped["effects"]) == EFFECT_FIELDS and set(stopped["effects"].values()) == {0, None}
    missed = call("opencore attack", **{**SWORD_HIT, "attack_roll": 6, "defense_roll": 90}, hp=50, con=30, seed=1)
    assert missed["hit"] is False and missed["wound"] is None


@pytest.mark.parametrize(("table", "die", "effects"), [
    ("slash", 115, {"bloodloss": 1, "hp_per_round": -1, "stun_rounds": 2, "location": "severed", "skill_penalty": -40}),
    ("impact", 95, {"stun_rounds": 2, "location": "broken", "skill_penalty": -30}),
    ("impact", 111, {"unconscious_rounds": 1}),
    ("shrapnel", 111, {"bloodloss": 5, "hp_per_round": -5, "unconscious_rounds": 2, "location": "destroyed"}),
    ("burn", 85, {"location": "severely damaged", "skill_penalty": -30}),
    ("puncture", 111, {"location": "damaged", "skill_penalty": -20, "stun_rounds": 1}),
])
def test_effects_read_the_critical_tables(table, die, effects):
    hit = oc.critical_hit(table, min(die, 100), attack_roll=81 if die > 100 else None)
    got = oc.effects_of(hit)
    for field, value in effects.items():
        assert getattr(got, field) == value, (table, die, field)


@pytest.mark.parametrize(("attack_roll", "modifier"), [(19, -20), (20, 0), (80, 0), (81, 20)])
def test_the_chain_uses_the_unmodified_attack_roll(attack_roll, modifier):
    """"less than 20 ... -20 penalty"; "greater than 80 ... +20 bonus"."""
    out = call("opencore attack", **{**SWORD_HIT, "attack_roll": attack_roll, "defense_skill": 0, "defense_roll": 6},
               hp=1, con=30, critical_roll=50, seed=2)
    assert out["wound"]["critical_hit"]["attack_modifier"] == modifier


def test_a_given_critical_roll_is_taken_and_a_missing_one_is_rolled():
    rolled = call("opencore attack", **SWORD_HIT, hp=1, con=30, seed=3)["wound"]["critical_hit"]
    assert 1 <= rolled["die"] <= 100
    assert call("opencore attack", **SWORD_HIT, hp=1, con=30, critical_roll=7, seed=3)["wound"]["critical_hit"]["die"] == 7


def test_the_extra_damage_decides_the_state():
    """Unconscious at 0 HP, dead at -CON: read after the critical's extra damage."""
    out = call("opencore attack", **{**SWORD_HIT, "weapon": "Small Handgun", "strength": None},
               hp=20, con=5, critical_roll=95, seed=4)  # puncture 91-100: +20 damage
    assert out["wound"]["hp"] == 20 - out["damage"] - 20 and out["wound"]["state"] == "dead"


def test_chain_arguments_need_the_chain():
    assert "Armor applies the damage to the defender (give the defender's HP and CON too)" == \
        refused("opencore attack", **SWORD_HIT, armor=5)
    assert "(give it with the HP)" in refused("opencore attack", **SWORD_HIT, hp=5)
    assert "needs its damage" in refused("opencore attack", attack_skill=1, defense_skill=1, hp=5, con=5)
    assert "critical roll must be between 1 and 100" in refused("opencore attack", **SWORD_HIT, hp=5, con=5,
                                                                 critical_roll=0)


# --- Powers -----------------------------------------------------------------------------------


def test_touch_powers_use_hand_to_hand_skill_and_add_its_damage():
    """"In the case of touch-based Powers, use the Hand-to-Hand combat skill" and "Hand-to-Hand damage
    is applied on a successful hit in addition to the damage done by the Power"."""
    out = call("opencore attack", power="touch", attack_skill=40, defense_skill=30, attack_roll=50, defense_roll=20,
               strength=50, power_damage=12, seed=5)
    assert out["combat_skill"] == 40 and out["attack_total"] == 90 and out["damage_expression"] == "1d6"
    assert 13 <= out["damage"] <= 18
    assert "Hand-to-Hand" in refused("opencore attack", power="touch", power_score=40, defense_skill=3,
                                     strength=50, power_damage=1)


def test_a_physical_power_s_score_is_the_combat_skill():
    """"In the case of Physical Powers which are not touch based, the Power's score is used as the combat skill"."""
    out = call("opencore attack", power="physical", power_score=70, defense_skill=30, attack_roll=50,
               defense_roll=20, power_damage=9)
    assert out["combat_skill"] == 70 and out["attack_total"] == 120 and out["damage"] == 9
    assert "give the Power's score instead" in refused("opencore attack", power="physical", attack_skill=70,
                                                                defense_skill=30, power_damage=9)


def test_mental_powers_cannot_be_blocked():
    """"Mental powers used in combat cannot be blocked, though they can be lessened or negated with
    Magic Resistance"."""
    out = call("opencore attack", power="mental", power_score=60, resistance=20, power_damage=7)
    assert out["hit"] and out["effective_power"] == 40 and out["defense_roll"] is None and out["damage"] == 7
    negated = call("opencore attack", power="mental", power_score=20, resistance=20, power_damage=7)
    assert not negated["hit"] and negated["damage"] is None
    assert "cannot be blocked" in refused("opencore attack", power="mental", power_score=60, defense_skill=30,
                                          power_damage=7)


def test_a_power_s_damage_is_the_gm_s_number():
    assert "a Power's damage is a number the GM gives" in refused("opencore attack", power="physical", power_score=60,
                                                                  defense_skill=3)
    assert "a Power's damage cannot be negative" in refused("opencore attack", power="physical", power_score=60,
                                                            defense_skill=3, attack_roll=90, defense_roll=10,
                                                            power_damage=-1)
    assert "which critical table does this hit use?" in refused("opencore attack", power="physical", power_score=60, defense_skill=3,
                                        power_damage=5, hp=10, con=10)


def test_armor_and_shielding_powers_stop_damage_before_armor():
    """"damage can be reduced by using Powers like Armor and Shielding"; then armor, Toughness, HP."""
    result = oc.apply_damage(40, power_protection=10, armor=25, toughness=10, hp=64, con=32)
    assert (result.to_power, result.to_armor, result.to_toughness, result.to_hp) == (10, 25, 5, 0)
    assert not result.critical


def test_substance_flaw_damage_goes_straight_to_hit_points():
    """"Damage is done to Hit Points after Toughness has been depleted or in special cases, like being hit
    with something the character has a substance flaw against" - and Toughness left lowers the critical."""
    result = oc.apply_damage(5, power_protection=10, armor=25, toughness=10, hp=64, con=32, substance_flaw=True)
    assert (result.to_power, result.to_armor, result.to_toughness, result.to_hp, result.critical) == (0, 0, 0, 5, True)
    out = call("opencore damage", amount=5, hp=64, con=32, toughness=10, substance_flaw=True)
    assert out["to_hp"] == 5 and out["critical"] is True and out["toughness"] == 10
    chained = call("opencore attack", **SWORD_HIT, hp=64, con=32, toughness=10, substance_flaw=True,
                   critical_roll=50, seed=1)
    assert chained["wound"]["critical_hit"]["toughness"] == 10 and chained["wound"]["critical_hit"]["roll"] == 40


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(0, 100), st.integers(0, 200), st.integers(0, 100), st.booleans(),
       st.integers(-100, 200), st.integers(0, 100))
def test_damage_is_split_without_loss(damage, power, armor, toughness, flaw, hp, con):
    result = oc.apply_damage(damage, power_protection=power, armor=armor, toughness=toughness, hp=hp, con=con,
                             substance_flaw=flaw)
    parts = (result.to_power, result.to_armor, result.to_toughness, result.to_hp)
    assert min(parts) >= 0 and sum(parts) == damage and result.hp == hp - result.to_hp
    assert result.critical == (result.to_hp > 0)
    assert not flaw or result.to_hp == damage


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 100), st.integers(1, 100), st.integers(1, 100), st.integers(0, 500))
def test_a_power_s_damage_is_never_negative(power_damage, attack_roll, defense_roll, power_score):
    out = api.call({"command": "opencore attack", "args": {
        "power": "physical", "power_score": power_score, "defense_skill": 50, "attack_roll": attack_roll,
        "defense_roll": defense_roll, "power_damage": power_damage, "seed": 1}})
    assert out["ok"]
    assert out["result"]["damage"] is None or out["result"]["damage"] >= power_damage >= 0


# --- ability scores of 0 ----------------------------------------------------------------------


def test_scores_of_zero_are_accepted_where_they_can_fall_and_say_what_they_do():
    """"Unlike the other ability scores, which render the character unconscious or immobile when they hit 0,
    having 0 Constitution is fatal." """
    out = call("opencore check", kind="physical-toughness", scores="STR=50,DEX=50,AGL=50,CON=0", roll=10)
    assert out["zero_scores"] == {"CON": "dead"}
    assert call("opencore initiative", dex=0, roll=5)["zero_scores"] == {"DEX": "unconscious or immobile"}
    assert call("opencore damage", amount=1, hp=50, con=0)["state"] == "dead"
    assert oc.health_state(50, 0) == "dead" and oc.health_state(50, 1) == "conscious"
    assert "must be between 1 and 100, not 0" in refused("opencore character", scores="STR=0")
    assert "must be between 0 and 100, not -1" in refused("opencore initiative", dex=-1)


# --- a party's individual initiative ----------------------------------------------------------


def test_the_party_acts_highest_initiative_first():
    out = call("opencore party-initiative", character=[
        "name=Buck,dex=80,weapon=Small Handgun,armor=Kevlar Vest,roll=10",  # 10 +3 +35 -5 = 43
        "name=Kris,dex=50,weapon=Sword,roll=20",  # 20 +0 +20 = 40
        "name=Sid,dex=50,bide,roll=1",  # 1 +0 +20 = 21
    ])
    assert [(e["name"], e["total"]) for e in out["order"]] == [("Buck", 43), ("Kris", 40), ("Sid", 21)]
    assert all(e["tie_rolls"] == [] for e in out["order"])


def test_tied_characters_roll_again():
    out = call("opencore party-initiative", character=["name=A,dex=50,roll=7", "name=B,dex=50,roll=7"], seed=11)
    first, second = out["order"]
    assert first["total"] == second["total"] == 7
    assert first["tie_rolls"][-1] > second["tie_rolls"][-1] and len(first["tie_rolls"]) == len(second["tie_rolls"])


def test_party_members_are_checked_before_rolling():
    assert "needs a dex" in refused("opencore party-initiative", character=["name=A"])
    assert "two characters are called “A”" in refused("opencore party-initiative",
                                                      character=["name=A,dex=5", "name=A,dex=6"])
    assert "unknown weapon" in refused("opencore party-initiative", character=["name=A,dex=5,weapon=Laser"])
    assert "initiative roll must be between 1 and 20" in refused("opencore party-initiative",
                                                                 character=["name=A,dex=5,roll=21"])


# --- "a certain number of rolls above a certain number (such as 8 or higher ...)" --------------


def test_success_count_counts_the_number_itself():
    out = call("opencore successes", dice="3d10", at_least=8, rolls=[7, 8, 10], needed=2)
    assert out["successes"] == 2 and out["success"] is True
    assert call("opencore successes", dice="3d10", at_least=8, rolls=[7, 8, 1], needed=2)["success"] is False
    assert "3 rolls were given" in refused("opencore successes", dice="2d10", at_least=8, rolls=[7, 8, 1])
    assert "at most one success per die" in refused("opencore successes", dice="2d10", at_least=8, needed=3)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(2, 8), st.data())
def test_success_count_chance_is_exact(dice, sides, data):
    at_least = data.draw(st.integers(1, sides))
    needed = data.draw(st.integers(1, dice))
    faces = list(itertools.product(range(1, sides + 1), repeat=dice))
    wins = sum(sum(f >= at_least for f in roll) >= needed for roll in faces)
    assert oc.success_count_chance(dice, sides, at_least, needed) == Fraction(wins, len(faces))


def test_rolled_success_counts_repeat_with_a_seed():
    first = call("opencore successes", dice="6d10", at_least=8, seed=4)
    assert first == call("opencore successes", dice="6d10", at_least=8, seed=4) and len(first["rolls"]) == 6
    with pytest.raises(RollbookError):
        oc.success_count((), sides=10, at_least=8)


def test_weapons_and_powers_bonuses_to_their_criticals():
    """"Certain weapons and Powers have bonuses or penalties to their critical hits. Crits are rolled using
    1d100 and adjusting for bonuses and penalties." The bonus is the GM's number."""
    assert oc.critical_hit("slash", 50, bonus=15).roll == 65
    assert oc.critical_hit("slash", 50, bonus=-80).roll == -19  # clamped like every critical roll
    assert call("opencore crit", type="slash", roll=50, bonus=15)["bonus"] == 15
    chained = call("opencore attack", **SWORD_HIT, hp=1, con=30, critical_roll=50, critical_bonus=-10, seed=1)
    assert chained["wound"]["critical_hit"]["roll"] == 40
    assert "Critical bonus applies the damage" in refused("opencore attack", **SWORD_HIT, critical_bonus=5)


def test_an_unconscious_defender_cannot_defend():
    """Unconscious: "unable to attack, defend, move or use Powers"."""
    out = call("opencore attack", attack_skill=0, unconscious=True, attack_roll=6, weapon="Knife", strength=50, seed=1)
    assert out["hit"] and out["defense_roll"] is None and out["defense_total"] is None and out["damage"] >= 1
    fumbled = call("opencore attack", attack_skill=90, unconscious=True, attack_roll=5, seed=1)
    assert not fumbled["hit"] and "attacker" in fumbled["fumbles"]
    assert "unable to defend" in refused("opencore attack", attack_skill=9, unconscious=True, defense_skill=30)


# --- "Stun: unable to attack, -50 to defense rolls"; "Unconscious: unable to attack, defend, move or use Powers"


def test_a_stunned_attacker_is_unable_to_attack():
    message = refused("opencore attack", **SWORD_HIT, attacker_stunned=True)
    assert "stunned" in message and "unable to attack" in message
    # the same attack from a character who is not stunned is made, so the flag alone refuses it
    assert call("opencore attack", **SWORD_HIT, seed=1)["hit"] is True


def test_an_unconscious_attacker_is_unable_to_attack_or_use_powers():
    assert "unable to attack, defend, move or use Powers" in refused("opencore attack", **SWORD_HIT, attacker_unconscious=True)
    assert "unconscious" in refused("opencore attack", power="mental", power_score=60, power_damage=10,
                                    attacker_unconscious=True)


def test_a_stunned_defender_still_defends_at_minus_50_and_a_stunned_attacker_only_is_refused():
    out = call("opencore attack", **SWORD_HIT, stunned=True, seed=1)
    assert out["defense_total"] == 20 + 30 - 50


def test_the_success_count_says_which_dice_counted():
    out = call("opencore successes", dice="4d10", at_least=8, rolls=[7, 8, 10, 1], needed=2)
    assert out["counted"] == [False, True, True, False] and out["successes"] == 2 and out["success"] is True


# --- "Movement: Character can move ten feet per action"; "a single action per combat round" ------


@pytest.mark.parametrize(("feet", "actions"), [(0, 0), (1, 1), (10, 1), (11, 2), (35, 4), (40, 4)])
def test_movement_takes_an_action_per_ten_feet_and_a_part_takes_a_whole_one(feet, actions):
    out = call("opencore move", feet=feet)
    assert (out["actions"], out["rounds"], out["feet_per_action"]) == (actions, actions, 10)


def test_movement_actions_cover_ten_feet_each_and_the_question_must_be_one():
    assert call("opencore move", actions=3)["feet"] == 30
    assert "not both" in refused("opencore move", feet=30, actions=3)
    assert "how far" in refused("opencore move")
    assert "between" in refused("opencore move", feet=-5)


def test_the_wound_says_everything_it_takes_each_round():
    # "Bloodloss: -1 HP loss per round", "bloodlossx2"; below 0 HP the dying bleed as well, and the
    # two add up (ruling opencore-bleeding-adds): 2 + 1 = 3 HP a round
    out = call("opencore attack", **{**SWORD_HIT, "attack_roll": 90, "defense_roll": 4, "strength": 80}, hp=30,
               con=40, critical_roll=85, seed=3)
    assert out["wound"]["hp"] < 0 and out["wound"]["effects"]["hp_per_round"] == -2
    assert out["text"].endswith("losing 3 HP a round (bloodloss 2 + bleeding below 0 HP 1)")


def test_real_dice_for_the_fumble_chart_and_the_damage():
    # "a roll on the Fumble Chart is required"; a player may roll every die at the table
    fumbled = call("opencore attack", **{**SWORD_HIT, "attack_roll": 3}, attacker_fumble_roll=95, seed=1)
    assert fumbled["fumbles"]["attacker"]["roll"] == 95 and fumbled["fumbles"]["attacker"]["drops_weapon"]
    given = call("opencore attack", **SWORD_HIT, damage_roll=15, seed=1)
    assert given["damage"] == 15 and "Damage 2d10 (15): 15" in given["text"]
    assert "2d10 cannot come to 21: its dice give 2 to 20" in refused("opencore attack", **SWORD_HIT, damage_roll=21)


def test_a_better_weapon_adds_its_bonus_and_a_thrown_weapon_its_own_damage():
    # "It is possible for a weapon to be better than the average weapon of its class ... simply a bonus"
    better = call("opencore attack", **SWORD_HIT, damage_roll=15, damage_bonus=2, seed=1)
    assert better["damage"] == 17 and "+ 2 (better weapon)" in better["text"]
    # Thrown weapons: "Per weapon"
    thrown = {**SWORD_HIT, "weapon": "Thrown weapons"}
    assert "give its total as the damage roll" in refused("opencore attack", **thrown)
    assert call("opencore attack", **thrown, damage_roll=4, seed=1)["damage"] == 4


def test_scores_at_0_say_what_they_do_and_the_dead_lose_nothing_more():
    # "having 0 Constitution is fatal" (ruling opencore-zero-ability)
    out = call("opencore attack", **{**SWORD_HIT, "strength": 0}, hp=10, con=0, critical_roll=89, seed=1)
    assert out["text"].endswith("The attacker's STR is 0: unconscious or immobile\nThe defender's CON is 0: dead")
    assert "losing" not in out["text"]
    assert call("opencore weapon", name="Sword", strength=0, seed=1)["text"].endswith(
        "STR 0: the character is unconscious or immobile")
    assert call("opencore weapon", name="Assault Rifle", seed=1)["text"].startswith("Assault Rifle (single): 3d10 = ")

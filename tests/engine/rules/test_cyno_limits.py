"""Cyno's Role-Play issue 12: level names, where dodge and parry are allowed, a parried blow's damage and
the rulings with options (aiming, target size, impossible dodges, failed skilled parries)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.errors import RollbookError
from rollbook.systems import cyno
from rule_answers import call, refused


# --- "we will call them Kilo+1 for one level above Kilo and Kilo+2 for two levels above Kilo" -----


@pytest.mark.parametrize(("name", "symbol"), [
    ("Kilo+1", "k+1"), ("Kilo+2", "k+2"), ("kilo+1", "k+1"), ("KILO+2", "k+2"), ("Mega+1", "M+1"),
    ("giga+2", "G+2"), ("Kilo+1DP", "k+1"), ("k+1", "k+1"), ("Kilo", "k"), ("MEGA", "M"),
])
def test_levels_by_the_document_s_names_in_any_case(name, symbol):
    assert cyno.level_symbol(cyno.parse_level(name)) == symbol


def test_level_names_beyond_the_unnamed_levels_say_which_level_is_meant():
    with pytest.raises(RollbookError, match="no level “Kilo\\+3”.*MDP"):
        cyno.parse_level("Kilo+3")
    with pytest.raises(RollbookError, match="no level “deka\\+1”.*hDP"):
        cyno.parse_level("deka+1")
    with pytest.raises(RollbookError, match="unknown damage-rating level"):
        cyno.parse_level("Lots+1")
    assert cyno.parse_level("m") != cyno.parse_level("M")  # symbols stay case-sensitive


def test_level_names_work_wherever_a_level_is_taken():
    assert call("cyno convert", amount="1", from_level="Kilo+1", to_level="kilo")["result"] == "10"
    assert call("cyno damage", amount=3, weapon_level="KILO+2", target_level="Kilo+1")["damage"] == 30


# --- dodging: "When the attacker is using a hand-to-hand weapon ..." -----------------------------


def test_only_hand_to_hand_attacks_and_small_volleys_can_be_dodged():
    assert cyno.dodge(13, 15, reflex=12).allowed
    assert cyno.dodge(13, 15, reflex=12, volley=4).success  # "four or less missiles"
    five = cyno.dodge(13, 20, reflex=12, volley=5)  # "five or more ... not possible"
    assert not five.allowed and not five.success
    shot = cyno.dodge(13, 20, reflex=12, ranged=True)
    assert not shot.allowed and not shot.success and "hand-to-hand" in shot.reason


def test_no_dodge_or_parry_when_unaware():
    """"A character may not dodge/parry if the character does not know that he/she is being attacked"."""
    for defense in (cyno.dodge(1, 20, reflex=30, unaware=True),
                    cyno.parry(1, 20, reflex=30, unaware=True),
                    cyno.parry(1, None, reflex=30, hand_to_hand_skill=100, skill_roll=1, unaware=True)):
        assert not defense.allowed and not defense.success and defense.actions_spent == 0
    assert "blind dodge is for a character who knows" in refused("cyno dodge", strike=5, blind=True, unaware=True)


@settings(max_examples=200, deadline=None)
@given(st.integers(-5, 40), st.integers(1, 20), st.integers(0, 30), st.one_of(st.none(), st.integers(1, 50)),
       st.booleans(), st.booleans(), st.one_of(st.none(), st.integers(1, 100)))
def test_a_dodge_never_succeeds_where_the_document_rules_it_out(strike, roll, reflex, volley, ranged, unaware, blind):
    if volley is not None and ranged:
        return
    result = cyno.dodge(strike, roll, reflex=reflex, volley=volley, ranged=ranged, unaware=unaware, blind_roll=blind)
    ruled_out = unaware or ranged or (volley is not None and volley >= 5)
    assert result.allowed == (not ruled_out)
    if ruled_out:
        assert not result.success and result.roll is None
    if unaware:
        assert result.actions_spent == 0


def test_an_impossible_dodge_costs_its_action_unless_the_gm_says_otherwise():
    assert cyno.dodge(13, None, reflex=12, volley=5).actions_spent == 1
    free = cyno.Options(impossible_dodge="free")
    assert cyno.dodge(13, None, reflex=12, volley=5, options=free).actions_spent == 0
    assert cyno.dodge(13, None, reflex=12, ranged=True, options=free).actions_spent == 0
    assert call("cyno dodge", strike=13, ranged=True, impossible_dodge="free")["actions_spent"] == 0


# --- parrying: "allowing the weapon or limb to take the damage instead" ---------------------------


def test_a_parried_blow_s_damage_goes_to_the_weapon_or_limb():
    parried = call("cyno parry", strike=12, roll=15, damage=7)
    assert parried["success"] and parried["weapon_or_limb_damage"] == 7
    missed = call("cyno parry", strike=12, roll=3, damage=7)
    assert not missed["success"] and missed["weapon_or_limb_damage"] is None
    assert call("cyno parry", strike=12, roll=15)["weapon_or_limb_damage"] is None


def test_a_failed_skilled_parry_costs_no_action_unless_the_gm_says_otherwise():
    """"If successful, the attack is blocked without costing an action"."""
    assert cyno.parry(15, None, reflex=10, hand_to_hand_skill=60, skill_roll=60).actions_spent == 0
    assert cyno.parry(15, None, reflex=10, hand_to_hand_skill=60, skill_roll=61).actions_spent == 0
    costly = cyno.Options(failed_skilled_parry="action")
    assert cyno.parry(15, None, reflex=10, hand_to_hand_skill=60, skill_roll=61, options=costly).actions_spent == 1
    assert cyno.parry(15, None, reflex=10, hand_to_hand_skill=60, skill_roll=60, options=costly).actions_spent == 0


# --- the strike rulings -------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "aim", "lines", "hit", "critical"), [
    (5, 3, "natural", False, False),  # "If the roll is 5 or lower, it is an automatic miss"
    (5, 3, "aimed", False, False),  # 5 + 3 = 8: not automatic, and 8 is not higher than 10
    (4, 2, "aimed", False, False),
    (18, 1, "natural", True, False),  # hits (18 - 4 + 1 = 15), but the die is 18: no critical
    (18, 1, "aimed", True, True),  # aimed 19: "Critical hit applies when rolling a 19 or a 20"
    (18, 2, "aimed", True, True),  # aimed 20: automatic hit
    (19, 5, "aimed", True, True),  # counts as at most 20
])
def test_aiming_and_the_natural_roll_lines(roll, aim, lines, hit, critical):
    options = cyno.Options(aim_lines=lines)
    result = cyno.strike(roll, cyno.strike_modifiers(aim_actions=aim, coordination=1), aim_actions=aim,
                         options=options)  # coordination 1 is -4: only the lines decide the critical
    assert (result.hit, result.critical) == (hit, critical)


def test_aimed_lines_cap_at_twenty():
    result = cyno.strike(19, cyno.strike_modifiers(aim_actions=5), aim_actions=5,
                         options=cyno.Options(aim_lines="aimed"))
    assert result.lines_roll == 20 and result.automatic == "hit"


def test_large_and_small_target_exclude_each_other_unless_the_gm_allows_both():
    with pytest.raises(RollbookError, match="the ruling “A target is large or small, not both”"):
        cyno.strike_modifiers(conditions=["large-target", "small-target"])
    both = cyno.strike_modifiers(conditions=["large-target", "small-target"], options=cyno.Options(target_size="both"))
    assert sum(m.modifier for m in both) == 0
    with pytest.raises(RollbookError, match="cannot both apply"):  # other groups stay exclusive
        cyno.strike_modifiers(conditions=["half-cover", "quarter-cover"], options=cyno.Options(target_size="both"))


def test_every_level_is_listed_with_the_document_s_names():
    # "we will call them Kilo+1 for one level above Kilo and Kilo+2 for two levels above Kilo. The same
    # applies to levels between Mega and Giga, and any other levels without a name."
    listed = call("cyno levels")["levels"]
    names = [row["name"] for row in listed]
    assert names[names.index("Mega") + 1:names.index("Kilo") + 1] == ["Kilo+2", "Kilo+1", "Kilo"]
    assert [row["level"] for row in listed] == list(range(18, -19, -1))  # every power of ten, highest first
    for row in listed:  # each name and symbol is read back as its own level
        assert cyno.parse_level(row["symbol"]) == row["level"]
        if row["name"] != "basic unit":
            assert cyno.parse_level(row["name"]) == row["level"]


def test_only_a_blow_can_be_parried_unless_the_gm_allows_more():
    """"block the enemy's blow with a weapon or a limb" (ruling cyno-parry-blows-only)."""
    shot = call("cyno parry", strike=12, roll=15, ranged=True, damage=7)
    assert shot["allowed"] is False and shot["success"] is False and shot["actions_spent"] == 1
    assert shot["weapon_or_limb_damage"] is None and "blow" in shot["reason"]
    assert call("cyno parry", strike=12, ranged=True, skill=60)["actions_spent"] == 0  # a skilled parry costs nothing
    assert call("cyno parry", strike=12, roll=15, ranged=True, impossible_dodge="free")["actions_spent"] == 0
    allowed = call("cyno parry", strike=12, roll=15, ranged=True, ranged_parry="allowed", damage=7)
    assert allowed["allowed"] and allowed["success"] and allowed["weapon_or_limb_damage"] == 7
    blow = call("cyno parry", strike=12, roll=15, damage=7)  # the same parry against a blow
    assert blow["allowed"] and blow["success"]


def test_a_dodge_without_a_reflex_says_it_counted_none():
    # "roll a twenty-sided die for each hit ... with the bonus or penalty of the character's reflex"
    assert call("cyno dodge", strike=12, roll=11)["text"] == \
        "Dodge fails: 11 is below the strike's 12; no reflex given: counted as 10, no modifier (1 action)"
    assert "no reflex given" not in call("cyno dodge", strike=12, roll=11, reflex=10)["text"]
    assert "no reflex given" not in call("cyno parry", strike=12, skill=50, skill_roll=20)["text"]  # no d20


def test_the_documents_static_notation_points_to_static():
    # "Its notation is SDP. For example, if you have a weapon that does 5 ShDP (Static Hecto Damage Point)"
    assert "“ShDP” is static damage at the hDP level (give the level as “h” and say the damage is static)" in \
        refused("cyno damage", amount=5, weapon_level="ShDP", target_level="da")


def test_an_aimed_roll_past_20_is_counted_as_20_and_says_so():
    # ruling cyno-aim-and-natural-lines, option aimed: the lines read the aimed roll, and a d20 has no face above 20
    out = call("cyno strike", roll=18, aim=5, skill=55, aim_lines="aimed", location_roll=30)
    assert "an aimed 18 + 5, counted as 20, is an automatic hit" in out["text"]


def test_a_symbol_past_the_unnamed_levels_names_the_level_it_means():
    # "Kilo+1 for one level above Kilo and Kilo+2 for two levels above Kilo"; the next one is Mega
    assert "there is no level “k+3” (k+3 is MDP)" in refused("cyno damage", amount=5, weapon_level="k+3",
                                                             target_level="da")

"""The self-injury readings (rulings opencore-self-injury-critical and
opencore-self-injury-fortitude) as an encounter applies them: a fumbling attacker's own wound."""

from __future__ import annotations

from encounter_helpers import call, opencore_fight, turn_of

from rollbook import api
from rollbook.systems import opencore


def _orc_fumbles_on_self(**orc: int) -> dict:
    """The orc (Large Club, 2d10+2, Toughness 5) fumbles 93 on its attack roll of 3 and hits itself
    through its Toughness: the critical is rolled (seed 20)."""
    enc = opencore_fight()
    if orc:
        enc = {**enc, "combatants": [{**c, **orc} if c["id"] == "o1" else c for c in enc["combatants"]]}
    enc = turn_of(enc, "o1", p1=1, o1=20)
    return call("attack", encounter=enc, attacker="o1", target="p1", attack_roll=3, defense_roll=50,
                attacker_fumble_roll=93, seed=20)


def test_a_self_injury_critical_takes_no_minus_20_for_the_fumbled_attack_roll():
    text = _orc_fumbles_on_self()["text"]
    (line,) = [line for line in text.splitlines() if line.startswith("Impact critical")]
    # the attack roll was 3 (under 20): its -20 is not on the attacker's own critical
    assert "-20" not in line and "attack roll" not in line
    direct = api.call({"command": "opencore crit", "args": {"type": "impact", "roll": 87, "attack_roll": 3}})["result"]
    assert direct["roll"] == 67  # the same die on a strike that was weak does take the -20


def test_a_self_injury_rolls_the_full_dice_whatever_the_fortitude():
    text = _orc_fumbles_on_self(fortitude=4)["text"]  # Fortitude 4 would take both of 2d10's dice
    assert "The attacker injures self: 2d10+2 = " in text
    assert opencore.apply_fortitude("2d10+2", 4) == "2"  # what the Fortitude would have left

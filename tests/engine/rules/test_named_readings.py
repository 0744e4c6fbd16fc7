"""The readings issue 19 named (rulings.toml): one case for each reading, and for the alternative
where the engine offers it, so a ruling's text and the engine cannot drift apart."""

from __future__ import annotations

import pytest

from rollbook import api, rulings
from rollbook.errors import RollbookError
from rollbook.systems import codex, cyno, opencore


def answer(command: str, **args) -> dict:
    out = api.call({"command": command, "args": args})
    assert out["ok"], out
    return out["result"]


def test_every_named_reading_is_a_ruling_cited_by_the_engine():
    for ruling_id in ("opencore-substance-flaw-past-protection", "opencore-self-injury-critical",
                      "opencore-self-injury-fortitude", "opencore-mental-power-full-damage",
                      "opencore-fumble-multiplies-the-hit", "codex-automatic-success-no-rank",
                      "cyno-weaponry-skill-left-out", "cyno-critical-doubles-the-roll"):
        ruling = rulings.get(ruling_id)
        assert "\"" in ruling.question and ruling.alternative, ruling_id  # the seed's words, and the other reading


# --- OpenCore -----------------------------------------------------------------------------------


def test_a_substance_flaw_goes_past_the_power_the_armor_and_toughness():
    flawed = opencore.apply_damage(12, power_protection=4, armor=5, toughness=3, hp=20, con=30, substance_flaw=True)
    assert (flawed.to_power, flawed.to_armor, flawed.to_toughness, flawed.to_hp) == (0, 0, 0, 12)
    assert (flawed.armor, flawed.toughness, flawed.critical) == (5, 3, True)
    plain = opencore.apply_damage(12, power_protection=4, armor=5, toughness=3, hp=20, con=30)
    assert (plain.to_power, plain.to_armor, plain.to_toughness, plain.to_hp, plain.critical) == (4, 5, 3, 0, False)


def test_a_mental_power_that_gets_through_does_its_full_damage():
    through = answer("opencore attack", power="mental", power_score=50, resistance=30, power_damage=12)
    assert (through["effective_power"], through["hit"], through["damage"]) == (20, True, 12)
    cancelled = answer("opencore attack", power="mental", power_score=50, resistance=50, power_damage=12)
    assert (cancelled["hit"], cancelled["damage"]) == (False, None)


def test_a_defenders_fumble_doubles_the_hit_before_armor():
    out = answer("opencore attack", attack_skill=40, defense_skill=30, attack_roll=50, defense_roll=3,
                 defender_fumble_roll=92, weapon="Sword", strength=50, damage_roll=6, hp=30, con=30, armor=10,
                 critical_roll=50, seed=1)
    assert out["damage"] == 12  # (6) x2, then the armor
    wound = out["wound"]
    assert (wound["to_armor"], wound["to_hp"]) == (10, 2)


# --- CharacterCodex -----------------------------------------------------------------------------


def test_an_automatic_success_has_no_rank():
    result = codex.check(40, 10, (), automatic=True)  # a modifier of four times the DC
    assert (result.success, result.success_rank, result.outcome, result.total) == (True, 0, "success", None)


def test_taking_10_asks_for_the_conditions_unless_the_table_keeps_them():
    with pytest.raises(RollbookError, match="impossible for a character to take 10") as refused:
        codex.check(3, 12, (), take="10")
    assert refused.value.fields == ("take", "safe")
    trusted = answer("codex check", modifier=3, dc=12, take="10", take_conditions="trusted")
    assert (trusted["total"], trusted["success"]) == (13, True)
    said = answer("codex check", modifier=3, dc=12, take="20", safe=True)
    assert said["total"] == 23


def test_automatic_failure_is_reported_or_applied_as_the_gm_rules():
    reported = answer("codex check", modifier=0, dc=30, rolls=[7])
    assert (reported["automatic"], reported["impossible_on_20"], reported["dice"]) == (None, True, [7])
    applied = answer("codex check", modifier=0, dc=30, impossible_fails=True, seed=1)
    assert (applied["automatic"], applied["success"], applied["dice"]) == ("failure", False, [])


# --- Cyno ---------------------------------------------------------------------------------------


def test_a_strike_without_a_weaponry_skill_adds_nothing_and_cannot_aim():
    assert cyno.strike_modifiers() == ()
    assert [m.modifier for m in cyno.strike_modifiers(weaponry_skill=55)] == [0]  # the 51-60% line, also +0
    refused = api.call({"command": "cyno strike", "args": {"roll": 12, "aim": 1}})
    assert not refused["ok"] and refused["error"]["fields"] == ["skill", "aim"]
    aimed = answer("cyno strike", roll=12, aim=1, skill=70, location_roll=50)
    assert aimed["total"] == 14  # +1 for the skill line, +1 for the aiming



def test_a_critical_doubles_the_damage_rolled_once():
    rolled = answer("cyno strike", roll=19, damage="2d6", seed=3)
    assert rolled["critical"] and rolled["damage_dice"] == "2d6 (2, 5) = 7" and rolled["damage"] == 14
    assert answer("cyno strike", roll=12, damage="7")["damage"] == 7  # the same dice on a plain hit

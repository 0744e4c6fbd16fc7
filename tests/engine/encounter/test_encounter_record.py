"""The encounter as the rules' record: a critical with its bonus, the rulings a table switches kept
with the encounter (by option or by the ruling's id), and what ``encounter show`` says at a glance."""

from __future__ import annotations

import pytest
from encounter_helpers import call, cyno_fight, opencore_fight, refused, step, turn_of, who

from rollbook import api


def test_a_critical_takes_the_weapons_bonus_as_the_criticals_page_does():
    # "Certain weapons and Powers have bonuses or penalties to their critical hits"
    enc = opencore_fight()
    plain = call("crit", encounter=enc, target="p1", type="impact", roll=55)
    bonus = call("crit", encounter=enc, target="p1", type="impact", roll=55, bonus=10)
    page = api.call({"command": "opencore crit", "args": {"type": "impact", "roll": 55, "bonus": 10}})["result"]
    assert page["row"] in bonus["text"] and page["extra_damage"] == 64 - who(bonus["encounter"], "p1")["hp"]
    assert "+10 (weapon or Power) = 65" in bonus["text"] and "+10" not in plain["text"]
    assert who(bonus["encounter"], "p1")["hp"] < who(plain["encounter"], "p1")["hp"]
    assert bonus["encounter"]["log"][-len(bonus["events"]):][0]["text"] == bonus["events"][0]["text"]  # in the log


def test_cyno_target_size_both_lets_large_and_small_apply_together():
    both = ["large-target", "small-target"]
    strict = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    assert "cannot both apply" in refused("strike", encounter=strict, attacker="p1", target="g1", roll=12,
                                          condition=both, damage_roll=1)
    enc = call("start", rules="cyno", target_size="both")["encounter"]
    assert enc["rulings"]["target_size"] == "both"
    loose = turn_of(dict(cyno_fight(), rulings=enc["rulings"]), "p1", p1=2, g1=1)
    detail = call("strike", encounter=loose, attacker="p1", target="g1", roll=12, condition=both,
                  damage_roll=1)["events"][0]["detail"]
    assert {m["modifier"] for m in detail["modifiers"] if "target" in m["source"]} == {1, -1}


def test_cyno_ranged_parry_allowed_rolls_the_parry_against_a_shot():
    # ruling cyno-parry-blows-only, its alternative: "A parry may be tried against any attack"
    rulings = call("start", rules="cyno", ranged_parry="allowed")["encounter"]["rulings"]
    enc = turn_of(dict(cyno_fight(), rulings=rulings), "p1", p1=2, g1=1)
    answer = call("strike", encounter=enc, attacker="p1", target="g1", roll=15, defense="parry", ranged=True,
                  percentile=30, damage_roll=6)
    assert "parry succeeds" in answer["text"] and who(answer["encounter"], "g1")["dp"] == 20


def test_a_ruling_is_chosen_by_its_id_on_the_command_line_and_in_the_api():
    from rollbook import cli

    by_id = call("start", rules="cyno", ruling=["cyno-parry-blows-only", "cyno-large-and-small-target"])["encounter"]
    assert by_id["rulings"] == {**call("start", rules="cyno")["encounter"]["rulings"],
                                "ranged_parry": "allowed", "target_size": "both"}
    assert cli.main(["encounter", "start", "--rules", "cyno", "--ruling", "cyno-parry-blows-only", "--out", "-"]) == 0
    assert "“Only a hand-to-hand blow can be parried” is not a ruling an encounter of OpenCore can switch" in refused(
        "start", rules="opencore", ruling=["cyno-parry-blows-only"])
    assert "chosen twice" in refused("start", rules="cyno", ranged_parry="blow-only", ruling=["cyno-parry-blows-only"])


def test_the_start_line_names_the_rulings_chosen_by_their_words():
    text = call("start", rules="cyno", ranged_parry="allowed")["text"]
    assert "A parry may be tried against any attack" in text and "A target is large or small, not both" in text


def test_a_cyno_encounter_kept_before_these_rulings_reads_as_their_readings():
    enc = cyno_fight()
    older = dict(enc, rulings={k: v for k, v in enc["rulings"].items() if k not in ("target_size", "ranged_parry")})
    assert call("show", encounter=older)["encounter"]["rulings"] == enc["rulings"]


def test_show_says_at_a_glance_each_hp_effects_with_rounds_who_has_acted_and_whose_turn():
    enc = step(opencore_fight(), "crit", target="o1", type="impact", roll=85)  # stun 1 round
    assert call("show", encounter=enc)["text"].splitlines()[0] == "Before the first round"
    enc = step(enc, "next", roll={"p1": 20, "o1": 1}, seed=1)
    enc = step(enc, "attack", attacker="p1", target="o1", attack_roll=1, defense_roll=99, attacker_fumble_roll=85,
               seed=2)  # Buck fumbles and falls over (81 to 90): the orc's extra attack
    text = call("show", encounter=enc)["text"]
    head, buck, orc = text.splitlines()
    assert head == "Round 1: Buck's turn"
    assert buck.startswith("> Buck (players): HP 64/64, conscious, acting now, action taken")
    assert orc.startswith("  Orc (orcs): HP ") and "yet to act" in orc and "stun, 1 round left" in orc
    assert "an extra attack against Buck" in orc  # a name, never an id
    enc = step(enc, "next", seed=1)
    assert "has acted" in call("show", encounter=enc)["text"].splitlines()[1]
    for word in ("p1", "o1", "opencore-", "null"):
        assert word not in text


@pytest.mark.parametrize("at", ["before", "during"])
def test_show_for_cyno_gives_damage_points_and_actions_left(at):
    enc = cyno_fight() if at == "before" else turn_of(cyno_fight(), "p1", p1=2, g1=1)
    lines = call("show", encounter=enc)["text"].splitlines()
    kristine = next(line for line in lines if "Kristine (" in line)
    assert "DP 30/30, standing" in kristine
    assert ("2 of 2 actions left" in kristine) == (at == "during")


def test_the_command_line_prints_the_glance(tmp_path, capsys):
    from rollbook import cli

    path = tmp_path / "fight.json"
    path.write_text(__import__("json").dumps(opencore_fight()), encoding="utf-8")
    assert cli.main(["encounter", "show", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["Before the first round", "  Buck (players): HP 64/64, conscious",
                                                   "  Orc (orcs): HP 20/20, conscious"]

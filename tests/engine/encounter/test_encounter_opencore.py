"""OpenCore's encounter, each rule from the document's own words."""

from __future__ import annotations

import pytest
from encounter_helpers import ORC, call, end_round, opencore_fight, refused, status, step, turn_of, who


def test_damage_comes_off_armor_then_toughness_then_hit_points_and_armor_wears_out():
    # "A character wearing armor would first lose points from the armor, then from Toughness, then from
    # Hit Points." "All armor ... can take that much damage before it is useless."
    enc = opencore_fight()
    enc = step(enc, "add", name="Guard", side="orcs", score={"con": 30, "dex": 50, "hp": 20, "attack_skill": 30,
                                                             "defense_skill": 30, "str": 50, "toughness": 3},
               armor_name="Leather Armor")
    answer = call("damage", encounter=enc, target="o2", amount=30, critical_type="impact", critical_roll=10)
    guard = who(answer["encounter"], "o2")
    assert (guard["armor"], guard["toughness"], guard["hp"]) == (0, 0, 18)
    assert "Guard's Leather Armor is useless" in answer["text"]
    assert status(answer["encounter"], "o2")["armor_useless"] is True
    worn = who(step(answer["encounter"], "damage", target="o2", amount=1, critical_type="impact", critical_roll=10), "o2")
    assert (worn["armor"], worn["hp"]) == (0, 17)  # useless armor stops nothing more


def test_damage_that_reaches_hit_points_needs_its_critical_table():
    enc = opencore_fight()
    assert "which critical table" in refused("damage", encounter=enc, target="o1", amount=10)
    kept = step(enc, "damage", target="o1", amount=5)  # all on Toughness: no critical is rolled
    assert who(kept, "o1")["toughness"] == 0 and who(kept, "o1")["hp"] == 20


def test_unconscious_at_zero_and_dead_at_minus_con():
    # "Typically beings fall unconscious at 0 HP." "When a PC's hit points reach a negative total equal
    # to its Constitution score, it dies."
    enc = opencore_fight()
    answer = call("damage", encounter=enc, target="o1", amount=25, critical_type="impact", critical_roll=1)
    assert who(answer["encounter"], "o1")["hp"] == 0 and "Orc falls unconscious" in answer["text"]
    answer = call("damage", encounter=answer["encounter"], target="o1", amount=30, critical_type="impact",
                  critical_roll=1)
    assert "Orc dies (-30 HP, CON 30)" in answer["text"]
    assert status(answer["encounter"], "o1")["state"] == "dead"
    assert "is dead" in refused("heal", encounter=answer["encounter"], target="o1", amount=5)


def test_death_at_zero_by_the_ruling_option():
    enc = opencore_fight(death_at="zero")
    answer = call("damage", encounter=enc, target="o1", amount=25, critical_type="impact", critical_roll=1)
    assert "Orc dies" in answer["text"]


def test_below_zero_the_dying_bleed_each_round_until_stabilized():
    # "Living creatures reduced to negative HP's continue to lose additional HPs due to bleeding, etc.
    # unless they are stabilized by chance or healing."
    enc = opencore_fight()
    enc = step(enc, "damage", target="o1", amount=27, critical_type="impact", critical_roll=1)  # -2 HP
    assert status(enc, "o1")["bleeding"] == -1
    enc = end_round(turn_of(enc, "p1", p1=20, o1=1))
    orc = who(enc, "o1")
    assert orc["hp"] == -3
    assert any(e["text"] == "Orc bleeds -1 HP (bleeding below 0 HP -1): -3 HP" for e in enc["log"])
    enc = step(enc, "stabilize", target="o1")
    assert status(enc, "o1")["bleeding"] == 0
    assert "not bleeding" in refused("stabilize", encounter=enc, target="o1")


def test_bloodloss_is_one_hp_a_round_times_its_multiple_and_they_add_up():
    # Slash 101 to 110: "+20 damage, stun 2 rounds, bloodlossx2"; "Bloodloss: -1 HP loss per round".
    enc = opencore_fight()
    enc = step(enc, "crit", target="p1", type="slash", roll=85, attack_roll=90)  # 85 + 20 = 105
    assert [e["kind"] for e in who(enc, "p1")["effects"]] == ["stun", "bloodloss"]
    assert who(enc, "p1")["hp"] == 44 and status(enc, "p1")["bleeding"] == -2
    enc = step(enc, "crit", target="p1", type="slash", roll=75)  # 71 to 80: +10 damage, bloodloss
    assert status(enc, "p1")["bleeding"] == -3
    enc = end_round(turn_of(enc, "o1", p1=1, o1=20))
    assert who(enc, "p1")["hp"] == 34 - 3


def test_stun_cannot_attack_minus_50_to_defense_and_lasts_the_rounds_after_it_was_dealt():
    # Impact 71 to 80: "+5 damage, stun 1 round"; "Stun: unable to attack, -50 to defense rolls".
    enc = turn_of(opencore_fight(), "o1", p1=1, o1=20)
    enc = step(enc, "crit", target="p1", type="impact", roll=75)
    assert status(enc, "p1")["defense_modifier"] == -50 and status(enc, "p1")["can_attack"] is False
    enc = step(enc, "next", seed=1)
    assert "stunned: unable to attack" in refused("attack", encounter=enc, attacker="p1", target="o1")
    enc = end_round(enc, p1=20, o1=1)  # dealt this round: still 1 round left
    assert who(enc, "p1")["effects"][0]["rounds"] == 1
    enc = end_round(enc, p1=20, o1=1)
    assert who(enc, "p1")["effects"] == []
    assert any(e["text"] == "Buck: stun ends" for e in enc["log"])


def test_stun_counts_the_round_it_was_dealt_by_the_ruling_option():
    enc = turn_of(opencore_fight(rounds_count="dealt-round"), "o1", p1=1, o1=20)
    enc = step(enc, "crit", target="p1", type="impact", roll=75)
    enc = end_round(enc)
    assert who(enc, "p1")["effects"] == []


def test_bloodloss_at_the_start_of_the_bleeders_turn_by_the_ruling_option():
    enc = turn_of(opencore_fight(bloodloss_at="own-turn"), "o1", p1=1, o1=20)
    enc = step(enc, "crit", target="p1", type="slash", roll=75)
    answer = call("next", encounter=enc, seed=1)
    assert answer["events"][1]["text"] == "Buck bleeds -1 HP (bloodloss -1): 53 HP"


def test_unconscious_rounds_and_no_defense_roll_against_an_unconscious_defender():
    # Impact 111 to 120: "+15 damage, unconscious 1 round"; "Unconscious: unable to attack, defend, move".
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    enc = step(enc, "crit", target="o1", type="impact", roll=100, attack_roll=90)  # 100 + 20 - 5 (Toughness)
    assert status(enc, "o1")["can_defend"] is False
    answer = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=50, critical_roll=1, seed=3)
    assert "an unconscious defender cannot defend" in answer["text"]


def test_a_broken_location_carries_its_skill_penalty_until_ended_by_hand():
    # Impact 91 to 100: "+10 damage, stun 2 rounds, location broken, -30 to applicable skills".
    enc = step(opencore_fight(), "crit", target="o1", type="impact", roll=100)  # 100 - 5 (Toughness)
    assert status(enc, "o1")["skill_penalty"] == -30
    enc = step(enc, "end-effect", who="o1", kind="location")
    assert status(enc, "o1")["skill_penalty"] == 0


def test_toughness_left_counts_against_the_critical():
    # "If a critical is rolled while the character still has Toughness left, the amount of Toughness is
    # used as a negative modifier for the critical."
    answer = call("crit", encounter=opencore_fight(), target="o1", type="impact", roll=75)
    assert "75 -5 (toughness) = 70" in answer["text"]


def test_individual_initiative_with_weapon_speed_armor_and_bide():
    # "Players roll 1d20 then add their Dexterity modifier and Weapon speed"; "Bide: ... Next round he
    # gets a +20 bonus to his Initiative roll."
    enc = step(opencore_fight(), "next", roll={"p1": 10, "o1": 10}, seed=1)
    assert enc["log"][-2]["text"] == "Buck: initiative 10 (1d20) +3 (DEX) +20 (Sword) -10 (Chain Mail) = 23"
    enc = turn_of(enc, "p1")
    enc = step(enc, "action", who="p1", action="bide")
    assert "has taken this round's action" in refused("attack", encounter=enc, attacker="p1", target="o1")
    enc = end_round(enc)
    assert who(enc, "p1")["initiative"] >= 20 + 1 + 3 + 20 - 10
    assert not any(e["kind"] == "bide" for e in who(enc, "p1")["effects"])


def test_defense_lasts_until_the_defenders_next_action():
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    enc = step(enc, "action", who="p1", action="defense")
    enc = step(enc, "next", seed=1)
    answer = call("attack", encounter=enc, attacker="o1", target="p1", attack_roll=50, defense_roll=50, seed=1)
    assert "defense 50 → 130" in answer["text"]  # 50 + 40 x 2
    enc = end_round(answer["encounter"], p1=20, o1=1)
    assert not any(e["kind"] == "defending" for e in who(enc, "p1")["effects"])


def test_group_initiative_the_higher_side_acts_first():
    # "Both opposing forces or parties roll a 1d6. The party with the higher score gets first swing."
    enc = opencore_fight(initiative="group")
    answer = call("next", encounter=enc, roll={"players": 2, "orcs": 5}, seed=1)
    assert answer["encounter"]["order"] == ["o1", "p1"]
    assert answer["events"][0]["text"] == "Group initiative players vs orcs: 2 vs 5: orcs acts first"
    assert "Bide adds to individual initiative" in refused("action", encounter=turn_of(answer["encounter"], "p1"),
                                                           who="p1", action="bide")


def test_only_the_combatant_whose_turn_it_is_attacks_once():
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    assert "Buck's turn, not Orc's" in refused("attack", encounter=enc, attacker="o1", target="p1")
    enc = step(enc, "attack", attacker="p1", target="o1", attack_roll=50, defense_roll=50, seed=1)
    assert "single action per round" in refused("attack", encounter=enc, attacker="p1", target="o1")


@pytest.mark.parametrize("seed", range(1, 40))
def test_fumbles_become_the_charts_effects(seed):
    # "If either of the characters rolls 01-05, this is considered a Fumble."
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    answer = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=3, defense_roll=50, seed=seed)
    text = answer["text"].lower()
    buck = who(answer["encounter"], "p1")
    kinds = [e["kind"] for e in buck["effects"]]
    assert ("stumbles" in text) == ("stumble" in kinds)
    assert ("drops weapon" in text) == ("dropped-weapon" in kinds)
    orc = who(answer["encounter"], "o1")
    assert ("falls over" in text) == any(e["kind"] == "extra-attack" for e in orc["effects"])
    if "falls over" in text:  # "opponent gets an immediate extra attack", out of turn
        extra = call("attack", encounter=answer["encounter"], attacker="o1", target="p1", attack_roll=50,
                     defense_roll=50, seed=1)
        assert "(extra attack)" in extra["text"]


def test_a_fumbles_extra_attack_is_offered_out_of_turn_until_used_and_only_while_it_can_be_made():
    # "Attacker/defender falls over - opponent gets an immediate extra attack": Orc may attack Buck on
    # Buck's turn; the page offers what the status lists (none while stunned, out, or Buck dead).
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    assert status(enc, "o1")["extra_attacks"] == []
    enc = step(enc, "attack", attacker="p1", target="o1", attack_roll=3, attacker_fumble_roll=85, defense_roll=50, seed=1)
    assert status(enc, "o1")["extra_attacks"] == ["p1"] and status(enc, "p1")["extra_attacks"] == []
    stunned = step(enc, "effect", who="o1", kind="stun", rounds=1)
    assert status(stunned, "o1")["extra_attacks"] == []
    assert "stunned" in refused("attack", encounter=stunned, attacker="o1", target="p1")
    dead = step(enc, "damage", target="p1", amount=200, critical_type="impact", critical_roll=1)
    assert status(dead, "p1")["state"] == "dead" and status(dead, "o1")["extra_attacks"] == []
    used = call("attack", encounter=enc, attacker="o1", target="p1", attack_roll=50, defense_roll=50, seed=1)
    assert "(extra attack)" in used["text"] and status(used["encounter"], "o1")["extra_attacks"] == []
    # the Orc's card says what it made, not that an effect "ended"
    orc_line = next(o["text"] for o in used["outcomes"] if o["id"] == "o1")
    assert orc_line.startswith("Extra attack: ") and "ended" not in orc_line, orc_line
    assert not who(used["encounter"], "o1")["acted"]  # its own action this round is still to come


def test_on_its_own_turn_the_holder_of_an_extra_attack_attacks_twice_then_is_refused():
    # The round's action first, then the extra attack (a second attack was taken for neither, and the
    # Orc attacked Buck without end on its own turn).
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    enc = step(enc, "attack", attacker="p1", target="o1", attack_roll=3, attacker_fumble_roll=85, defense_roll=50, seed=1)
    enc = step(enc, "next", seed=1)
    assert status(enc, "o1")["extra_attacks"] == []  # on its turn, its own attack is offered first
    first = call("attack", encounter=enc, attacker="o1", target="p1", attack_roll=50, defense_roll=60, seed=1)
    assert "(extra attack)" not in first["text"] and who(first["encounter"], "o1")["acted"]
    assert status(first["encounter"], "o1")["extra_attacks"] == ["p1"]
    second = call("attack", encounter=first["encounter"], attacker="o1", target="p1", attack_roll=50, defense_roll=60, seed=2)
    assert "(extra attack)" in second["text"] and status(second["encounter"], "o1")["extra_attacks"] == []
    assert "single action per round" in refused("attack", encounter=second["encounter"], attacker="o1", target="p1")


def test_group_initiative_needs_no_roll_when_one_side_is_left():
    enc = step(opencore_fight(initiative="group"), "damage", target="o1", amount=60, critical_type="impact",
               critical_roll=1)
    answer = call("next", encounter=enc, seed=1)
    assert answer["events"][0]["text"] == "Only players can still act: no initiative to roll"


def test_an_attack_returns_the_whole_chain_and_keeps_only_its_text():
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    answer = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=90, defense_roll=10,
                  critical_roll=50, seed=5)
    detail = answer["events"][0]["detail"]
    assert (detail["attack_total"], detail["defense_total"], detail["hit"]) == (150, 30, True)
    assert detail["wound"]["to_toughness"] == 5 and detail["wound"]["critical_hit"]["roll"] == 70  # 50 + 20
    assert "detail" not in answer["encounter"]["log"][-1]


# --- Powers in an encounter: the options of 'opencore attack', with the combatants' numbers ---------


def test_a_mental_power_cannot_be_blocked_so_nothing_is_rolled():
    # "Mental powers used in combat cannot be blocked ... mental power - magic resistance = power's effective score"
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    answer = call("attack", encounter=enc, attacker="p1", target="o1", power="mental", power_score=60, power_damage=12,
                  resistance=20, critical_type="burn", critical_roll=1, seed=3)
    detail = answer["events"][0]["detail"]
    assert detail["attack_roll"] is None and detail["defense_roll"] is None and detail["effective_power"] == 40
    assert detail["wound"]["damage"] == 12 and detail["wound"]["to_toughness"] == 5  # the orc's Toughness 5 first
    assert who(answer["encounter"], "o1")["hp"] == 20 - 7 + detail["wound"]["effects"]["extra_damage"] * -1
    assert "cannot be blocked" in refused("attack", encounter=enc, attacker="p1", target="o1", power="mental",
                                          power_score=60, power_damage=12, attack_roll=50, critical_type="burn")


def test_a_touch_power_hits_with_the_hand_to_hand_skill_and_adds_its_damage():
    # "In the case of touch-based Powers, use the Hand-to-Hand combat skill."
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    detail = call("attack", encounter=enc, attacker="p1", target="o1", power="touch", power_damage=10, attack_skill=35,
                  attack_roll=90, defense_roll=10, critical_type="burn", critical_roll=1, seed=3)["events"][0]["detail"]
    assert detail["combat_skill"] == 35 and detail["attack_total"] == 125 and detail["power"] == "touch"
    assert detail["damage_expression"].startswith("1d6") and detail["damage"] >= 10 + 1
    assert "without a weapon" in refused("attack", encounter=enc, attacker="p1", target="o1", power="touch",
                                         power_damage=10, weapon="Sword")


def test_a_physical_power_uses_its_score_as_the_combat_skill():
    # "In the case of Physical Powers which are not touch based, the Power's score is used as the combat skill."
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    detail = call("attack", encounter=enc, attacker="p1", target="o1", power="physical", power_score=25, power_damage=8,
                  attack_roll=50, defense_roll=40, critical_type="impact", critical_roll=1, seed=3)["events"][0]["detail"]
    assert detail["combat_skill"] == 25 and detail["attack_total"] == 75 and detail["defense_total"] == 60


def test_shielding_stops_damage_before_armor_and_a_substance_flaw_goes_straight_to_hit_points():
    # "Some Powers (like Armor and Shielding) prevent some forms of damage"; "Damage is done to Hit Points after
    # Toughness has been depleted or in special cases, like being hit with something the character has a substance flaw against."
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    shielded = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=50, defense_roll=10,
                    power_protection=100, seed=3)
    assert shielded["events"][0]["detail"]["wound"]["to_power"] == shielded["events"][0]["detail"]["damage"]
    assert who(shielded["encounter"], "o1")["hp"] == 20 and who(shielded["encounter"], "o1")["toughness"] == 5
    flawed = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=50, defense_roll=10,
                  substance_flaw=True, critical_roll=1, seed=3)
    wound = flawed["events"][0]["detail"]["wound"]
    assert wound["to_toughness"] == 0 and wound["to_hp"] == wound["damage"] and wound["critical"] is True
    assert who(flawed["encounter"], "o1")["toughness"] == 5


def test_a_dropped_weapon_leaves_fists():
    # "Attacker drops weapon": until it is picked up, Hand to Hand (and its speed) is what is left
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    enc["combatants"][0]["effects"].append({"kind": "dropped-weapon", "rounds": None, "dealt": 1, "ends": "by-hand"})
    assert "has dropped its weapon" in refused("attack", encounter=enc, attacker="p1", target="o1", attack_roll=50,
                                           defense_roll=50)
    assert status(enc, "p1")["can_attack"] is True
    assert status(enc, "p1")["wielded"] == "Hand to Hand" and status(enc, "o1")["wielded"] == who(enc, "o1")["weapon"]
    fists = call("attack", encounter=enc, attacker="p1", target="o1", weapon="Hand to Hand", attack_roll=50,
                 defense_roll=10, seed=1)
    assert fists["events"][0]["detail"]["damage_expression"] == "1d6+2"  # Hand to Hand: 1d6+STR (modifier)


def test_a_wound_below_0_hp_says_what_earlier_bloodloss_adds():
    # ruling opencore-bleeding-adds: an earlier critical's bloodloss x2 and the bleeding of the dying add up
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    enc["combatants"][1]["effects"].append({"kind": "bloodloss", "rounds": None, "dealt": 1, "ends": "stabilized",
                                            "hp_per_round": -2})
    answer = call("damage", encounter=enc, target="o1", amount=28, critical_roll=1, critical_type="impact")
    assert "Orc now loses 3 HP a round (bloodloss -2 + bleeding below 0 HP -1)" in answer["text"]
    assert status(answer["encounter"], "o1")["bleeding"] == -3


def test_an_encounter_attack_takes_the_players_own_fumble_and_damage_dice():
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    hit = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=50, defense_roll=10, damage_roll=12,
               damage_bonus=1, seed=1)
    assert hit["events"][0]["detail"]["damage"] == 13
    fumbled = call("attack", encounter=enc, attacker="p1", target="o1", attack_roll=3, defense_roll=50,
                   attacker_fumble_roll=95, seed=1)
    assert "dropped-weapon" in [e["kind"] for e in who(fumbled["encounter"], "p1")["effects"]]


def test_a_score_at_0_says_what_it_does_when_the_combatant_joins():
    # "Unlike the other ability scores, which render the character unconscious or immobile when they hit 0,
    # having 0 Constitution is fatal." (ruling opencore-zero-ability)
    enc = call("start", rules="opencore")["encounter"]
    answer = call("add", encounter=enc, name="Husk", side="orcs", score={**ORC, "con": 0, "dex": 0})
    assert answer["text"] == "Husk (orcs) joins; DEX 0: unconscious or immobile (the GM says which); CON 0: dead"


def test_a_typical_foe_takes_the_rulings_scores_where_none_is_given():
    # ruling opencore-typical-combatant: 50 in every score, 13 HP (the average of 1d100 - 50, at least 1)
    enc = call("start", rules="opencore")["encounter"]
    answer = call("add", encounter=enc, name="Goblin", side="foes", typical=True, score={"attack_skill": 30})
    goblin = who(answer["encounter"], "f1")
    assert (goblin["con"], goblin["dex"], goblin["str"], goblin["hp"], goblin["attack_skill"], goblin["defense_skill"]) \
        == (50, 50, 50, 13, 30, 50)
    assert answer["text"] == ("Goblin (foes) joins; CON 50, DEX 50, STR 50, HP 13, defense skill 50 "
                              "(A typical foe has 50 in every score and 13 HP)")
    shown = call("typical")
    assert shown["scores"] == {"con": 50, "dex": 50, "str": 50, "hp": 13, "attack_skill": 50, "defense_skill": 50}
    assert shown["ruling"] == {"id": "opencore-typical-combatant", "title": "A typical foe has 50 in every score and 13 HP"}
    # (Cyno's typical foe follows its own ruling: test_encounter_cyno.py)


def test_a_second_combatant_of_the_same_name_is_numbered():
    enc = call("start", rules="opencore")["encounter"]
    for _ in range(3):
        enc = step(enc, "add", name="Goblin", side="foes", typical=True)
    enc = step(enc, "add", name="Goblin 2", side="foes", typical=True)
    assert [c["name"] for c in enc["combatants"]] == ["Goblin", "Goblin 2", "Goblin 3", "Goblin 4"]


def test_nobody_has_acted_when_a_new_round_begins():
    enc = step(opencore_fight(), "next", roll={"p1": 20, "o1": 1})
    enc = step(enc, "action", who="p1", action="bide")
    assert who(enc, "p1")["acted"]
    enc = step(step(enc, "next"), "next", seed=1)  # the orc's turn, then round 2
    assert enc["round"] == 2 and not any(c["acted"] for c in enc["combatants"])


@pytest.mark.parametrize(("how", "out", "targetable"), [
    ("conscious", False, True),
    ("unconscious for a round (a critical)", True, True),
    ("unconscious at 0 HP", True, True),
    ("dead", True, False),
])
def test_the_status_says_who_is_out_of_the_fight_and_who_may_still_be_attacked(how, out, targetable):
    # issue 40: the page draws a combatant as down by `out` and offers it as a target by
    # `targetable`, where it typed the states; an attack is refused exactly on the untargetable
    enc = turn_of(opencore_fight(), "p1", p1=20, o1=1)
    if how == "unconscious for a round (a critical)":  # Impact 111 to 120: "unconscious 1 round", 5 HP left
        enc = step(enc, "crit", target="o1", type="impact", roll=100, attack_roll=90)
    elif how != "conscious":
        enc = step(enc, "damage", target="o1", amount=25, critical_type="impact", critical_roll=1)  # 0 HP
        if how == "dead":
            enc = step(enc, "damage", target="o1", amount=30, critical_type="impact", critical_roll=1)
    orc = status(enc, "o1")
    assert (orc["out"], orc["targetable"]) == (out, targetable), orc
    assert orc["state"] == {"unconscious at 0 HP": "unconscious", "dead": "dead"}.get(how, "conscious")
    assert status(enc, "p1")["out"] is False and status(enc, "p1")["targetable"] is True
    attack = {"encounter": enc, "attacker": "p1", "target": "o1", "attack_roll": 50, "defense_roll": 90,
              "critical_roll": 1, "seed": 3}
    if targetable:
        call("attack", **attack)
    else:
        assert refused("attack", **attack) == "Orc is dead"
        assert refused("damage", encounter=enc, target="o1", amount=5) == "Orc is dead"

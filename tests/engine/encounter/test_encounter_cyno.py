"""Cyno's Role-Play's encounter, each rule from the document's own words."""

from __future__ import annotations

from encounter_helpers import call, cyno_fight, end_round, refused, status, step, turn_of, who


def add_many(enc: dict, count: int) -> dict:
    for n in range(count):
        enc = step(enc, "add", name=f"Thug {n + 1}", side="gang", weapon="1d6",
                   score={"reflex": 10, "coordination": 10, "stress": 10, "actions": 1, "dp": 10})
    return enc


def test_the_initiative_die_has_more_sides_than_the_combatants():
    # "So if you have four PCs and two NPCs, then you should roll 1D8."
    answer = call("next", encounter=add_many(cyno_fight(), 4), seed=1)
    assert answer["events"][0]["text"] == "6 combatants roll 1D8"


def test_the_reflex_bonus_counts_on_a_d20_or_more():
    # "If a 20, 30, or a die with even more sides is used, then for every 2 points of reflex higher than 12
    # the character gets 1 point bonus added to the roll."
    small = call("next", encounter=cyno_fight(), roll={"p1": 2, "g1": 1}, seed=1)["events"]
    assert small[1]["text"] == "Kristine: initiative 2 +0 (reflex) = 2"
    big = call("next", encounter=add_many(cyno_fight(), 11), roll={"p1": 2}, seed=1)["events"]
    assert next(e["text"] for e in big if e["who"] == "p1").startswith("Kristine: initiative 2 +2 (reflex) = 4")


def test_surprise_misses_the_whole_turn_or_loses_initiative():
    enc = cyno_fight()
    assert "Surprised, miss the whole turn" in call("surprise", encounter=enc, who="g1", roll=1)["text"]
    missed = step(step(enc, "surprise", who="g1", roll=1), "next", roll={"p1": 1, "g1": 2}, seed=1)
    assert missed["order"] == ["p1"]
    # ruling cyno-surprise-first-turn: "has no actions in it, so cannot dodge or parry", with skill or not
    for defense in ("dodge", "parry"):
        assert f"Sid misses this whole turn (surprised), so cannot {defense}" in refused(
            "strike", encounter=missed, attacker="p1", target="g1", defense=defense, percentile=10)
    late = step(step(enc, "surprise", who="p1", roll=3), "next", roll={"p1": 2, "g1": 1}, seed=1)
    assert late["order"] == ["g1", "p1"]  # "Surprised, loose initiative"
    late = end_round(late)
    assert not who(late, "p1")["effects"]  # only the first turn
    assert "before the first turn" in refused("surprise", encounter=late, who="g1", roll=1)


def test_holding_back_moves_after_the_other_and_both_holding_roll_stress():
    # "Rachel could declare, on her turn, that she is going to hold back her turn until Sid moves."
    enc = step(cyno_fight(), "next", roll={"p1": 2, "g1": 1}, seed=1)
    held = call("hold", encounter=enc, who="p1", after="g1", seed=1)
    assert held["encounter"]["order"] == ["g1", "p1"]
    assert held["events"][-1]["text"] == "Round 1: Sid's turn"
    # "If Sid were to declare that he is going to go after Rachel, then a die roll is made": d20 + stress
    both = call("hold", encounter=held["encounter"], who="g1", after="p1", roll=10, other_roll=10)
    assert "Both hold back: Sid 10+1 vs 10+0 Kristine: Sid waits longer" in both["text"]  # stress 14: +1
    assert both["encounter"]["order"] == ["p1", "g1"]
    assert both["events"][-1]["text"] == "Round 1: Kristine's turn"


def test_a_strike_hits_above_10_and_a_natural_20_is_a_critical_doing_double_damage():
    # "A roll of 20 is automatic hit. Critical hit applies when rolling a 19 or a 20." "Critical strike does
    # double damage."
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    answer = call("strike", encounter=enc, attacker="p1", target="g1", roll=20, damage_roll=5)
    assert who(answer["encounter"], "g1")["dp"] == 10
    assert "critical hit" in answer["text"] and "Sid takes 10 DP" in answer["text"]
    assert who(answer["encounter"], "p1")["actions_left"] == 1


def test_a_dodge_is_spent_even_when_the_attacker_misses():
    # "Dodging must be declared before roll to strike occurs. Which means that even if the attacker missed,
    # the defender would still use up an action on dodge."
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    answer = call("strike", encounter=enc, attacker="p1", target="g1", roll=3, defense="dodge")
    assert who(answer["encounter"], "g1")["actions_left"] == 1
    dodged = call("strike", encounter=enc, attacker="p1", target="g1", roll=12, defense="dodge", defense_roll=20)
    assert who(dodged["encounter"], "g1")["dp"] == 20 and "Sid: dodge succeeds" in dodged["text"]


def test_a_skilled_parry_is_a_percentage_roll_and_costs_no_action():
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    answer = call("strike", encounter=enc, attacker="p1", target="g1", roll=15, defense="parry", percentile=30,
                  damage_roll=6)
    assert who(answer["encounter"], "g1")["dp"] == 20 and who(answer["encounter"], "g1")["actions_left"] == 2
    assert "The parrying weapon or limb takes the 6 damage" in answer["text"]


def test_the_unaware_cannot_dodge():
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    assert "does not know" in refused("strike", encounter=enc, attacker="p1", target="g1", defense="dodge",
                                      unaware=True)


def test_damage_lost_gives_minus_1_per_5_points_to_strike():
    # "-1 For every 5 damage points the attacker has lost."
    enc = step(cyno_fight(), "damage", target="p1", amount=10)
    assert status(enc, "p1")["strike_penalty"] == -2
    enc = turn_of(enc, "p1", p1=2, g1=1)
    assert "-2 (10 damage points lost)" in call("strike", encounter=enc, attacker="p1", target="g1", roll=10,
                                                damage_roll=1)["text"]


def test_damage_two_levels_below_does_nothing_and_static_damage_stays():
    # "DP weapons are two destruction levels below hDP, therefore does no damage to the hDP tank."
    enc = step(cyno_fight(), "add", name="Tank", side="gang", weapon="1d6", level="h",
               score={"reflex": 10, "coordination": 10, "stress": 10, "actions": 1, "dp": 5})
    answer = call("damage", encounter=enc, target="g2", amount=50, level="")
    assert who(answer["encounter"], "g2")["dp"] == 5 and "no damage" in answer["text"]
    static = call("damage", encounter=enc, target="p1", amount=5, level="h", static=True)
    assert who(static["encounter"], "p1")["dp"] == 25  # 5 ShDP against a DP target: 5 DP


def test_a_hit_from_levels_above_takes_a_combatant_to_zero_and_the_fight_goes_on():
    # "the tank is in trouble": 2 MDP on a DP target is 2,000,000 DP; below 0 there is nothing to keep
    enc = step(cyno_fight(), "add", name="Mech", side="gang", weapon="1d6", level="M",
               score={"reflex": 10, "coordination": 10, "stress": 10, "actions": 1, "dp": 5})
    answer = call("damage", encounter=enc, target="p1", amount=2, level="M")
    assert who(answer["encounter"], "p1")["dp"] == 0 and answer["events"][0]["dp"] == -30
    assert "takes 2000000 DP" in answer["text"] and "0 DP left" in answer["text"]
    assert call("next", encounter=answer["encounter"], seed=1)["encounter"]["round"] == 1


def test_a_skilled_parry_that_may_cost_an_action_needs_one_left():
    # ruling cyno-parry-with-skill, option "action": a failed skilled parry costs an action
    enc = call("start", rules="cyno", failed_skilled_parry="action")["encounter"]
    enc = step(enc, "add", name="Kristine", side="players", weapon="2d6",
               score={"reflex": 16, "coordination": 14, "stress": 10, "actions": 2, "dp": 30, "weaponry_skill": 75})
    enc = step(enc, "add", name="Sid", side="gang", weapon="1d6",
               score={"reflex": 8, "coordination": 10, "stress": 14, "actions": 1, "dp": 20, "hand_to_hand_skill": 40})
    enc = turn_of(enc, "g1", p1=1, g1=2)
    enc = step(enc, "strike", attacker="g1", target="p1", roll=3)  # Sid spends his only action
    enc = step(enc, "next", seed=1)
    assert "Sid has no action left to parry (a failed skilled parry costs one" in refused(
        "strike", encounter=enc, attacker="p1", target="g1", defense="parry", roll=14, percentile=70)
    assert who(step(enc, "strike", attacker="p1", target="g1", roll=14, damage_roll=2), "g1")["actions_left"] == 0


def test_a_rocket_is_a_shot_so_it_cannot_be_dodged_or_parried():
    # "Rockets are unguided projectiles. They are shot like any other projectile weapons."
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    dodged = call("strike", encounter=enc, attacker="p1", target="g1", roll=15, rocket=True, defense="dodge",
                  defense_roll=20, damage_roll=4)
    assert "dodge is not allowed" in dodged["text"] and who(dodged["encounter"], "g1")["dp"] == 16
    parried = call("strike", encounter=enc, attacker="p1", target="g1", roll=15, rocket=True, defense="parry",
                   percentile=10, damage_roll=4)
    assert "parry is not allowed" in parried["text"] and who(parried["encounter"], "g1")["dp"] == 16
    assert "aiming takes 1 action or more, not -1" in refused("strike", encounter=enc, attacker="p1", target="g1",
                                                               aim=-1)


def test_at_zero_damage_points_a_combatant_is_down_and_takes_no_turns():
    enc = step(cyno_fight(), "damage", target="g1", amount=20)
    assert status(enc, "g1")["state"] == "down" and "Sid is down" in enc["log"][-1]["text"]
    enc = step(enc, "next", seed=1)
    assert enc["order"] == ["p1"]
    assert "healing is at least 1" in refused("heal", encounter=enc, target="g1", amount=0)
    assert who(step(enc, "heal", target="g1", amount=50), "g1")["dp"] == 20


def test_a_dodge_against_a_shot_costs_its_action_or_not_by_the_ruling():
    # "When the attacker is using a hand-to-hand weapon, it is possible for the defender to dodge the attack."
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    spent = call("strike", encounter=enc, attacker="p1", target="g1", roll=3, defense="dodge", ranged=True)
    assert who(spent["encounter"], "g1")["actions_left"] == 1 and "Sid: dodge is not allowed" in spent["text"]
    free = dict(enc, rulings={**enc["rulings"], "impossible_dodge": "free"})
    kept = call("strike", encounter=free, attacker="p1", target="g1", roll=15, defense="dodge", ranged=True,
                damage_roll=4)
    assert who(kept["encounter"], "g1")["actions_left"] == 2 and who(kept["encounter"], "g1")["dp"] == 16


def test_a_shot_cannot_be_parried_so_the_damage_lands():
    # ruling cyno-parry-blows-only: "block the enemy's blow"
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    answer = call("strike", encounter=enc, attacker="p1", target="g1", roll=15, defense="parry", ranged=True,
                  percentile=30, damage_roll=6)
    assert who(answer["encounter"], "g1")["dp"] == 14 and "parry is not allowed" in answer["text"]
    assert who(answer["encounter"], "g1")["actions_left"] == 2  # Sid parries with his skill: nothing spent


def test_a_rocket_is_minus_2_and_an_aimed_hit_says_whether_it_is_exact():
    # "they have a -2 penalty to hit"; "To hit the exact location, a percentage roll is made against the weapon skill."
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    rocket = call("strike", encounter=enc, attacker="p1", target="g1", roll=12, rocket=True, damage_roll=1)
    assert {"source": "rocket", "modifier": -2} in [{**m, "source": m["source"].split(" ")[0].lower()}
                                                     for m in rocket["events"][0]["detail"]["modifiers"]]
    exact = call("strike", encounter=enc, attacker="p1", target="g1", roll=12, aim=1, location_roll=75, damage_roll=1)
    close = call("strike", encounter=enc, attacker="p1", target="g1", roll=12, aim=1, location_roll=76, damage_roll=1)
    assert exact["events"][0]["detail"]["exact_location"] is True and "exactly on the aimed location" in exact["text"]
    assert close["events"][0]["detail"]["exact_location"] is False and "not exact" in close["text"]


def test_a_missile_volley_takes_no_bonuses_all_missiles_do_damage_and_five_cannot_be_dodged():
    # "The bonus and penalty of the character does not apply"; "they either all hit the target or all miss the
    # target"; "if the volley consists of five or more missiles then it would not be possible to dodge the volley"
    enc = turn_of(cyno_fight(), "p1", p1=2, g1=1)
    four = call("strike", encounter=enc, attacker="p1", target="g1", roll=12, volley=4, defense="dodge", defense_roll=20)
    assert four["events"][0]["detail"]["modifiers"] == [] and "dodge succeeds" in four["text"]
    five = call("strike", encounter=enc, attacker="p1", target="g1", roll=12, volley=5, defense="dodge", defense_roll=20,
                seed=2)
    assert "dodge is not allowed" in five["text"]
    # Kristine's 2d6 once per missile (ruling cyno-volley-damage): five missiles do 10 to 60, one 2d6 at most 12
    dealt = [-next(e for e in call("strike", encounter=enc, attacker="p1", target="g1", roll=12, volley=5,
                                   seed=seed)["events"] if e["kind"] == "damage")["dp"] for seed in range(1, 9)]
    assert min(dealt) >= 10 and max(dealt) > 12
    assert "takes no bonuses" in refused("strike", encounter=enc, attacker="p1", target="g1", volley=3, aim=1)


def test_a_typical_cyno_foe_takes_the_rulings_values_where_none_are_given() -> None:
    # ruling cyno-typical-combatant: the page's one-tap "A typical foe" for Cyno
    enc = call("start", rules="cyno")["encounter"]
    added = call("add", encounter=enc, name="Ganger", side="gang", typical=True)
    ganger = added["encounter"]["combatants"][0]
    typical = call("typical", rules="cyno")
    assert {k: ganger[k] for k in typical["scores"]} == typical["scores"] == {
        "reflex": 10, "coordination": 10, "stress": 10, "actions": 2, "dp": 20}
    assert ganger["weapon_damage"] == typical["weapon"] == "1d6" and ganger["weaponry_skill"] is None
    assert added["text"].endswith(f"weapon 1d6 ({typical['ruling']['title']})")
    # what is given stays; only the rest is the ruling's
    given = call("add", encounter=enc, name="Boss", side="gang", typical=True, weapon="2d6", score={"dp": 40})["encounter"]
    assert (given["combatants"][0]["dp"], given["combatants"][0]["weapon_damage"], given["combatants"][0]["reflex"]) == (40, "2d6", 10)
    assert call("typical")["rules"] == "opencore"  # the default: the page's OpenCore placeholders


def test_the_status_says_a_combatant_down_is_out_of_the_fight_and_no_longer_struck():
    # issue 40: the page draws a combatant as down by `out` and offers it as a target by `targetable`
    enc = turn_of(cyno_fight(), "p1", p1=4, g1=1)
    assert {k: status(enc, "g1")[k] for k in ("state", "out", "targetable")} == {"state": "standing", "out": False, "targetable": True}
    call("strike", encounter=enc, attacker="p1", target="g1", roll=15, defense="none", damage_roll=4)
    enc = step(enc, "damage", target="g1", amount=20)
    assert {k: status(enc, "g1")[k] for k in ("state", "out", "targetable")} == {"state": "down", "out": True, "targetable": False}
    assert refused("strike", encounter=enc, attacker="p1", target="g1", roll=15, defense="none") == "Sid is down"

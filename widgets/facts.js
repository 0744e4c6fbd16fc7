// Generated from the engine by `python -m rollbook.facts --write widgets/facts.js` (engine/rollbook/facts.py): do not edit.
// The build (hooks/engine_facts.py) and tests/site/test_engine_facts.py fail when it is out of date.

export const ABILITIES = [
  {"code": "STR", "name": "Strength"},
  {"code": "DEX", "name": "Dexterity"},
  {"code": "AGL", "name": "Agility"},
  {"code": "CON", "name": "Constitution"},
  {"code": "INT", "name": "Intelligence"},
  {"code": "PER", "name": "Perception"},
  {"code": "WIS", "name": "Wisdom"},
  {"code": "CHA", "name": "Charisma"},
  {"code": "COM", "name": "Comeliness"}
];

export const CHARACTER = {"score_low": 0, "score_high": 100, "rolled_low": 1, "hp_roll_low": 1, "hp_roll_high": 100};

export const CHARACTER_RULINGS = {
  "save_direction": {
    "choices": ["under", "over"],
    "ruling": "opencore-save-direction",
    "title": "A saving throw succeeds at or below the composite"
  },
  "willpower_composite": {
    "choices": ["SDAC", "IPW"],
    "ruling": "opencore-willpower-composite",
    "title": "Willpower uses SDAC, as written"
  },
  "perception": {
    "choices": ["above", "at-or-below"],
    "ruling": "opencore-perception-direction",
    "title": "Perception succeeds on a roll higher than PER"
  }
};

export const RULE_SET_NAMES = {"opencore": "OpenCore", "codex": "Ogre CharacterCodex", "cyno": "Cyno's Role-Play"};

export const CRITICAL_TYPES = [
  {"type": "slash", "table": "opencore.critical.slash", "title": "Slash Critical"},
  {"type": "impact", "table": "opencore.critical.impact", "title": "Impact Critical"},
  {"type": "puncture", "table": "opencore.critical.puncture", "title": "Puncture Critical"},
  {"type": "shrapnel", "table": "opencore.critical.shrapnel", "title": "Shrapnel Critical"},
  {"type": "burn", "table": "opencore.critical.burn", "title": "Burn Critical"}
];

export const ENCOUNTER = {
  "version": 1,
  "rule_sets": ["opencore", "cyno"],
  "most_combatants": 40,
  "longest_text": 80,
  "log_kept": 60,
  "top_fields": ["encounter", "rules", "initiative", "rulings", "round", "turn", "order", "combatants", "log", "logged"],
  "initiative": {"opencore": ["individual", "group"], "cyno": ["die"]},
  "rulings": {
    "opencore": {
      "death_at": {
        "choices": ["negative-con", "zero"],
        "ruling": "opencore-death-threshold",
        "title": "Unconscious at 0 HP, dead at minus CON"
      },
      "bloodloss_at": {
        "choices": ["end-of-round", "own-turn"],
        "ruling": "opencore-bloodloss-timing",
        "title": "Bleeding is lost at the end of each round"
      },
      "rounds_count": {
        "choices": ["after-dealt", "dealt-round"],
        "ruling": "opencore-effect-rounds",
        "title": "Stun and unconsciousness last N rounds after the round they are dealt"
      },
      "str_damage": {
        "choices": ["modifier", "score"],
        "ruling": "opencore-str-damage",
        "title": "\"+STR\" in weapon damage adds the Strength modifier"
      },
      "dex_modifier": {
        "choices": ["centred", "none"],
        "ruling": "opencore-dex-modifier",
        "title": "The Dexterity modifier is (DEX - 50) / 10, rounded down"
      }
    },
    "cyno": {
      "impossible_dodge": {
        "choices": ["costs-action", "free"],
        "ruling": "cyno-impossible-dodge",
        "title": "A dodge the rules rule out still costs its action"
      },
      "failed_skilled_parry": {
        "choices": ["free", "action"],
        "ruling": "cyno-parry-with-skill",
        "title": "Parrying with hand-to-hand skill is a percentage roll"
      },
      "aim_lines": {
        "choices": ["natural", "aimed"],
        "ruling": "cyno-aim-and-natural-lines",
        "title": "Aiming raises the total, not the natural roll"
      },
      "target_size": {
        "choices": ["one", "both"],
        "ruling": "cyno-large-and-small-target",
        "title": "A target is large or small, not both"
      },
      "ranged_parry": {
        "choices": ["blow-only", "allowed"],
        "ruling": "cyno-parry-blows-only",
        "title": "Only a hand-to-hand blow can be parried"
      }
    }
  },
  "later_rulings": ["target_size", "ranged_parry"],
  "scores": {
    "opencore": {
      "con": true,
      "dex": true,
      "hp": true,
      "attack_skill": true,
      "defense_skill": true,
      "str": false,
      "hp_max": false,
      "armor": false,
      "toughness": false,
      "fortitude": false
    },
    "cyno": {
      "reflex": true,
      "coordination": true,
      "stress": true,
      "actions": true,
      "dp": true,
      "dp_max": false,
      "weaponry_skill": false,
      "hand_to_hand_skill": false
    }
  },
  "unarmed": "Hand to Hand",
  "locations": ["damaged", "severely damaged", "broken", "severed", "destroyed"],
  "fields": {
    "common": {
      "id": {"kind": "str"},
      "name": {"kind": "str"},
      "side": {"kind": "str"},
      "initiative": {"kind": "int", "low": -1000000, "high": 1000000, "nullable": true}
    },
    "opencore": {
      "con": {"kind": "int", "low": 0, "high": 100},
      "dex": {"kind": "int", "low": 0, "high": 100},
      "str": {"kind": "int", "low": 0, "high": 100, "nullable": true},
      "hp": {"kind": "int", "low": -1000000, "high": 1000000},
      "hp_max": {"kind": "int", "low": 1, "high": 1000000},
      "armor": {"kind": "int", "low": 0, "high": 1000000},
      "armor_name": {"kind": "str", "nullable": true},
      "toughness": {"kind": "int", "low": 0, "high": 1000000},
      "fortitude": {"kind": "int", "low": 0, "high": 1000000},
      "attack_skill": {"kind": "int", "low": 0, "high": 1000000},
      "defense_skill": {"kind": "int", "low": 0, "high": 1000000},
      "weapon": {"kind": "str", "nullable": true},
      "stabilized": {"kind": "bool"},
      "acted": {"kind": "bool"}
    },
    "cyno": {
      "reflex": {"kind": "int", "low": 0, "high": 1000000},
      "coordination": {"kind": "int", "low": 0, "high": 1000000},
      "stress": {"kind": "int", "low": 0, "high": 1000000},
      "actions": {"kind": "int", "low": 1, "high": 20},
      "actions_left": {"kind": "int", "low": 0, "high": 20},
      "weaponry_skill": {"kind": "int", "low": 0, "high": 100, "nullable": true},
      "hand_to_hand_skill": {"kind": "int", "low": 0, "high": 100, "nullable": true},
      "weapon_damage": {"kind": "str"},
      "weapon_level": {"kind": "str"},
      "static": {"kind": "bool"},
      "level": {"kind": "str"},
      "dp": {"kind": "int", "low": -1000000, "high": 1000000},
      "dp_max": {"kind": "int", "low": 1, "high": 1000000}
    }
  },
  "effects": {
    "stun": {"ends": ["rounds"], "fields": {}},
    "unconscious": {"ends": ["rounds"], "fields": {}},
    "bloodloss": {"ends": ["stabilized"], "fields": {"hp_per_round": {"kind": "int", "low": -1000000, "high": -1}}},
    "location": {
      "ends": ["by-hand"],
      "fields": {
        "location": {"kind": "str", "choices": ["damaged", "severely damaged", "broken", "severed", "destroyed"]},
        "skill_penalty": {"kind": "int", "low": -100, "high": 0}
      }
    },
    "stumble": {"ends": ["own-turn"], "fields": {"defense_penalty": {"kind": "int", "low": -100, "high": 0}}},
    "defending": {"ends": ["own-turn"], "fields": {}},
    "bide": {"ends": ["initiative"], "fields": {}},
    "dropped-weapon": {"ends": ["by-hand"], "fields": {}},
    "extra-attack": {"ends": ["round-end"], "fields": {"against": {"kind": "str"}}},
    "surprised": {"ends": ["round-end"], "fields": {"misses_turn": {"kind": "bool"}}},
    "holding": {"ends": ["own-turn"], "fields": {"after": {"kind": "str"}}},
    "note": {"ends": ["rounds", "by-hand"], "fields": {"text": {"kind": "str"}}}
  }
};

export const LIMITS = {"expression_chars": 1000, "request_chars": 64000};

export const COMMANDS = {
  "codex check": {
    "modifier": {"type": "int", "required": true},
    "dc": {"type": "int", "required": true},
    "take": {"type": "str", "choices": ["10", "10+", "20"]},
    "rolls": {"type": "int", "many": true},
    "automatic": {"type": "bool"},
    "impossible_fails": {"type": "bool", "ruling": "codex-automatic-failure"},
    "safe": {"type": "bool", "only_with": {"take": ["10", "20"]}},
    "take_conditions": {"type": "str", "choices": ["asked", "trusted"], "ruling": "codex-take-conditions"},
    "failure_has_cost": {"type": "bool", "only_with": {"take": ["20"]}},
    "ruling": {"type": "str", "many": true}
  },
  "codex dc": {"complexity": {"type": "str", "required": true, "positional": true}},
  "codex multiply": {
    "by": {"type": "str", "required": true, "many": true},
    "value": {"type": "str"},
    "real_world": {"type": "bool"}
  },
  "codex odds": {
    "modifier": {"type": "int", "required": true},
    "dc": {"type": "int", "required": true},
    "take": {"type": "str", "choices": ["10", "10+", "20"]}
  },
  "codex round": {"value": {"type": "str", "required": true, "positional": true}, "damage": {"type": "bool"}},
  "cyno convert": {
    "amount": {"type": "str", "required": true, "positional": true},
    "from_level": {"type": "str", "required": true},
    "to_level": {"type": "str", "required": true}
  },
  "cyno damage": {
    "amount": {"type": "int", "required": true, "positional": true},
    "weapon_level": {"type": "str", "required": true},
    "target_level": {"type": "str", "required": true},
    "static": {"type": "bool"},
    "critical": {"type": "bool"}
  },
  "cyno dodge": {
    "strike": {"type": "int", "required": true},
    "reflex": {"type": "int"},
    "bonus": {"type": "int", "default": 0},
    "roll": {"type": "int"},
    "blind": {"type": "bool"},
    "blind_roll": {"type": "int"},
    "volley": {"type": "int"},
    "ranged": {"type": "bool"},
    "unaware": {"type": "bool"},
    "impossible_dodge": {
      "type": "str",
      "default": "costs-action",
      "choices": ["costs-action", "free"],
      "ruling": "cyno-impossible-dodge"
    }
  },
  "cyno hold-back": {
    "stress": {"type": "int", "required": true},
    "other_stress": {"type": "int", "required": true},
    "roll": {"type": "int"},
    "other_roll": {"type": "int"}
  },
  "cyno initiative": {"combatants": {"type": "int", "required": true}, "reflex": {"type": "int", "many": true}},
  "cyno levels": {},
  "cyno parry": {
    "strike": {"type": "int", "required": true},
    "reflex": {"type": "int"},
    "bonus": {"type": "int", "default": 0},
    "roll": {"type": "int"},
    "skill": {"type": "int"},
    "skill_roll": {"type": "int"},
    "damage": {"type": "int"},
    "unaware": {"type": "bool"},
    "ranged": {"type": "bool"},
    "failed_skilled_parry": {"type": "str", "default": "free", "choices": ["free", "action"], "ruling": "cyno-parry-with-skill"},
    "ranged_parry": {
      "type": "str",
      "default": "blow-only",
      "choices": ["blow-only", "allowed"],
      "ruling": "cyno-parry-blows-only"
    },
    "impossible_dodge": {
      "type": "str",
      "default": "costs-action",
      "choices": ["costs-action", "free"],
      "ruling": "cyno-impossible-dodge"
    }
  },
  "cyno strike": {
    "roll": {"type": "int"},
    "coordination": {"type": "int"},
    "skill": {"type": "int"},
    "condition": {"type": "str", "many": true},
    "damage_lost": {"type": "int", "default": 0},
    "aim": {"type": "int", "default": 0},
    "rocket": {"type": "bool"},
    "missile": {"type": "bool"},
    "damage": {"type": "str", "dice": true},
    "location_roll": {"type": "int"},
    "aim_lines": {
      "type": "str",
      "default": "natural",
      "choices": ["natural", "aimed"],
      "ruling": "cyno-aim-and-natural-lines"
    },
    "target_size": {"type": "str", "default": "one", "choices": ["one", "both"], "ruling": "cyno-large-and-small-target"}
  },
  "cyno surprise": {"roll": {"type": "int", "positional": true}},
  "encounter action": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "who": {"type": "str", "required": true},
    "action": {"type": "str", "required": true, "choices": ["bide", "defense"]}
  },
  "encounter add": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "name": {"type": "str", "required": true},
    "side": {"type": "str", "required": true},
    "score": {"type": "int", "keyed": true},
    "id": {"type": "str"},
    "weapon": {"type": "str"},
    "armor_name": {"type": "str"},
    "weapon_level": {"type": "str", "default": ""},
    "level": {"type": "str", "default": ""},
    "static": {"type": "bool"},
    "typical": {"type": "bool"}
  },
  "encounter attack": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "attacker": {"type": "str", "required": true},
    "target": {"type": "str", "required": true},
    "attack_roll": {"type": "int"},
    "defense_roll": {"type": "int"},
    "critical_roll": {"type": "int"},
    "critical_type": {"type": "str", "choices": ["slash", "impact", "puncture", "shrapnel", "burn"]},
    "weapon": {"type": "str"},
    "mode": {"type": "str"},
    "attack_bonus": {"type": "int", "default": 0},
    "defense_bonus": {"type": "int", "default": 0},
    "power": {"type": "str", "choices": ["touch", "physical", "mental"]},
    "power_score": {"type": "int"},
    "power_damage": {"type": "int"},
    "attack_skill": {"type": "int"},
    "resistance": {"type": "int", "default": 0},
    "power_protection": {"type": "int", "default": 0},
    "substance_flaw": {"type": "bool"},
    "critical_bonus": {"type": "int", "default": 0},
    "attacker_fumble_roll": {"type": "int"},
    "defender_fumble_roll": {"type": "int"},
    "damage_roll": {"type": "int"},
    "damage_bonus": {"type": "int", "default": 0}
  },
  "encounter crit": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "target": {"type": "str", "required": true},
    "type": {"type": "str", "required": true, "choices": ["slash", "impact", "puncture", "shrapnel", "burn"]},
    "roll": {"type": "int"},
    "attack_roll": {"type": "int"},
    "bonus": {"type": "int", "default": 0}
  },
  "encounter damage": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "target": {"type": "str", "required": true},
    "amount": {"type": "int", "required": true},
    "critical_type": {"type": "str", "choices": ["slash", "impact", "puncture", "shrapnel", "burn"]},
    "critical_roll": {"type": "int"},
    "level": {"type": "str"},
    "static": {"type": "bool"}
  },
  "encounter effect": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "who": {"type": "str", "required": true},
    "kind": {
      "type": "str",
      "required": true,
      "choices": ["stun", "unconscious", "bloodloss", "location", "stumble", "dropped-weapon", "note"]
    },
    "rounds": {"type": "int"},
    "hp_per_round": {"type": "int"},
    "location": {"type": "str"},
    "skill_penalty": {"type": "int"},
    "defense_penalty": {"type": "int"},
    "text": {"type": "str"}
  },
  "encounter end-effect": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "who": {"type": "str", "required": true},
    "kind": {"type": "str"},
    "index": {"type": "int"}
  },
  "encounter heal": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "target": {"type": "str", "required": true},
    "amount": {"type": "int", "required": true}
  },
  "encounter hold": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "who": {"type": "str", "required": true},
    "after": {"type": "str", "required": true},
    "roll": {"type": "int"},
    "other_roll": {"type": "int"}
  },
  "encounter next": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "roll": {"type": "int", "keyed": true}
  },
  "encounter remove": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "who": {"type": "str", "required": true}
  },
  "encounter show": {"encounter": {"type": "dict", "required": true, "positional": true}},
  "encounter stabilize": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "target": {"type": "str", "required": true}
  },
  "encounter start": {
    "rules": {"type": "str", "required": true, "choices": ["opencore", "cyno"]},
    "initiative": {"type": "str", "choices": ["individual", "group", "die"]},
    "death_at": {"type": "str", "choices": ["negative-con", "zero"], "ruling": "opencore-death-threshold"},
    "bloodloss_at": {"type": "str", "choices": ["end-of-round", "own-turn"], "ruling": "opencore-bloodloss-timing"},
    "rounds_count": {"type": "str", "choices": ["after-dealt", "dealt-round"], "ruling": "opencore-effect-rounds"},
    "str_damage": {"type": "str", "choices": ["modifier", "score"], "ruling": "opencore-str-damage"},
    "dex_modifier": {"type": "str", "choices": ["centred", "none"], "ruling": "opencore-dex-modifier"},
    "impossible_dodge": {"type": "str", "choices": ["costs-action", "free"], "ruling": "cyno-impossible-dodge"},
    "failed_skilled_parry": {"type": "str", "choices": ["free", "action"], "ruling": "cyno-parry-with-skill"},
    "aim_lines": {"type": "str", "choices": ["natural", "aimed"], "ruling": "cyno-aim-and-natural-lines"},
    "target_size": {"type": "str", "choices": ["one", "both"], "ruling": "cyno-large-and-small-target"},
    "ranged_parry": {"type": "str", "choices": ["blow-only", "allowed"], "ruling": "cyno-parry-blows-only"},
    "ruling": {"type": "str", "many": true}
  },
  "encounter strike": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "attacker": {"type": "str", "required": true},
    "target": {"type": "str", "required": true},
    "defense": {"type": "str", "default": "none", "choices": ["none", "dodge", "blind-dodge", "parry"]},
    "roll": {"type": "int"},
    "condition": {"type": "str", "many": true},
    "aim": {"type": "int", "default": 0},
    "ranged": {"type": "bool"},
    "unaware": {"type": "bool"},
    "defense_roll": {"type": "int"},
    "percentile": {"type": "int"},
    "damage_roll": {"type": "int"},
    "rocket": {"type": "bool"},
    "volley": {"type": "int"},
    "location_roll": {"type": "int"}
  },
  "encounter surprise": {
    "encounter": {"type": "dict", "required": true, "positional": true},
    "who": {"type": "str", "required": true},
    "roll": {"type": "int"}
  },
  "encounter typical": {"rules": {"type": "str", "default": "opencore", "choices": ["opencore", "cyno"]}},
  "opencore attack": {
    "attack_skill": {"type": "int"},
    "defense_skill": {"type": "int"},
    "attack_bonus": {"type": "int", "default": 0},
    "defense_bonus": {"type": "int", "default": 0},
    "defending": {"type": "bool"},
    "stunned": {"type": "bool"},
    "unconscious": {"type": "bool"},
    "attacker_stunned": {"type": "bool"},
    "attacker_unconscious": {"type": "bool"},
    "attack_roll": {"type": "int"},
    "defense_roll": {"type": "int"},
    "weapon": {"type": "str"},
    "mode": {"type": "str"},
    "strength": {"type": "int"},
    "fortitude": {"type": "int", "default": 0},
    "str_damage": {"type": "str", "default": "modifier", "choices": ["modifier", "score"], "ruling": "opencore-str-damage"},
    "power": {"type": "str", "choices": ["touch", "physical", "mental"]},
    "power_score": {"type": "int"},
    "power_damage": {"type": "int"},
    "resistance": {"type": "int", "default": 0},
    "hp": {"type": "int"},
    "con": {"type": "int"},
    "armor": {"type": "int", "default": 0},
    "toughness": {"type": "int", "default": 0},
    "power_protection": {"type": "int", "default": 0},
    "substance_flaw": {"type": "bool"},
    "critical_type": {"type": "str", "choices": ["slash", "impact", "puncture", "shrapnel", "burn"]},
    "critical_roll": {"type": "int"},
    "critical_bonus": {"type": "int", "default": 0},
    "death_at": {
      "type": "str",
      "default": "negative-con",
      "choices": ["negative-con", "zero"],
      "ruling": "opencore-death-threshold"
    },
    "attacker_fumble_roll": {"type": "int"},
    "defender_fumble_roll": {"type": "int"},
    "damage_roll": {"type": "int"},
    "damage_bonus": {"type": "int", "default": 0}
  },
  "opencore character": {
    "scores": {"type": "str"},
    "hp_roll": {"type": "int"},
    "save_direction": {"type": "str", "choices": ["under", "over"], "ruling": "opencore-save-direction"},
    "willpower_composite": {"type": "str", "choices": ["SDAC", "IPW"], "ruling": "opencore-willpower-composite"},
    "perception": {"type": "str", "choices": ["above", "at-or-below"], "ruling": "opencore-perception-direction"},
    "ruling": {"type": "str", "many": true}
  },
  "opencore check": {
    "kind": {
      "type": "str",
      "required": true,
      "positional": true,
      "choices": ["physical-toughness", "reflex", "willpower", "awareness", "concentration", "perception"]
    },
    "scores": {"type": "str", "required": true},
    "roll": {"type": "int"},
    "save_direction": {"type": "str", "choices": ["under", "over"], "ruling": "opencore-save-direction"},
    "willpower_composite": {"type": "str", "choices": ["SDAC", "IPW"], "ruling": "opencore-willpower-composite"},
    "perception": {"type": "str", "choices": ["above", "at-or-below"], "ruling": "opencore-perception-direction"},
    "ruling": {"type": "str", "many": true}
  },
  "opencore crit": {
    "type": {
      "type": "str",
      "required": true,
      "positional": true,
      "choices": ["slash", "impact", "puncture", "shrapnel", "burn"]
    },
    "roll": {"type": "int", "positional": true},
    "attack_roll": {"type": "int"},
    "toughness": {"type": "int", "default": 0},
    "bonus": {"type": "int", "default": 0}
  },
  "opencore damage": {
    "amount": {"type": "int", "required": true, "positional": true},
    "hp": {"type": "int", "required": true},
    "con": {"type": "int", "required": true},
    "armor": {"type": "int", "default": 0},
    "toughness": {"type": "int", "default": 0},
    "power_protection": {"type": "int", "default": 0},
    "substance_flaw": {"type": "bool"},
    "death_at": {
      "type": "str",
      "default": "negative-con",
      "choices": ["negative-con", "zero"],
      "ruling": "opencore-death-threshold"
    }
  },
  "opencore fumble": {
    "side": {"type": "str", "required": true, "positional": true, "choices": ["attacker", "defender"]},
    "roll": {"type": "int", "positional": true}
  },
  "opencore group-initiative": {"first_roll": {"type": "int"}, "second_roll": {"type": "int"}},
  "opencore initiative": {
    "dex": {"type": "int", "required": true},
    "weapon": {"type": "str"},
    "armor": {"type": "str"},
    "bide": {"type": "bool"},
    "roll": {"type": "int"},
    "dex_modifier": {"type": "str", "default": "centred", "choices": ["centred", "none"], "ruling": "opencore-dex-modifier"}
  },
  "opencore mental-power": {"power": {"type": "int", "required": true}, "resistance": {"type": "int", "default": 0}},
  "opencore move": {"feet": {"type": "int"}, "actions": {"type": "int"}},
  "opencore party-initiative": {
    "character": {"type": "str", "required": true, "many": true},
    "dex_modifier": {"type": "str", "default": "centred", "choices": ["centred", "none"], "ruling": "opencore-dex-modifier"}
  },
  "opencore roll-values": {
    "scores": {"type": "str", "required": true},
    "str_damage": {"type": "str", "default": "modifier", "choices": ["modifier", "score"], "ruling": "opencore-str-damage"}
  },
  "opencore successes": {
    "dice": {"type": "str", "required": true},
    "at_least": {"type": "int", "required": true},
    "needed": {"type": "int", "default": 1},
    "rolls": {"type": "int", "many": true}
  },
  "opencore weapon": {
    "name": {"type": "str", "required": true, "positional": true},
    "mode": {"type": "str"},
    "strength": {"type": "int"},
    "fortitude": {"type": "int", "default": 0},
    "str_damage": {"type": "str", "default": "modifier", "choices": ["modifier", "score"], "ruling": "opencore-str-damage"}
  },
  "prob": {
    "expression": {"type": "str", "required": true, "positional": true, "dice": true},
    "at_least": {"type": "int"},
    "at_most": {"type": "int"},
    "vars": {"type": "int", "keyed": true},
    "estimate": {"type": "int"}
  },
  "roll": {
    "expression": {"type": "str", "required": true, "positional": true, "dice": true},
    "count": {"type": "int", "default": 1},
    "vars": {"type": "int", "keyed": true}
  },
  "rulings": {},
  "table": {"name": {"type": "str", "required": true, "positional": true}}
};

export const FACTS = { abilities: ABILITIES, character: CHARACTER, character_rulings: CHARACTER_RULINGS, rule_set_names: RULE_SET_NAMES, critical_types: CRITICAL_TYPES, encounter: ENCOUNTER, limits: LIMITS, commands: COMMANDS };

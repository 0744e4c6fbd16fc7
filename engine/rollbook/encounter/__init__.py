"""Encounters: a whole fight as plain JSON data, advanced by pure steps.

An encounter is ``{"encounter": 1, "rules": "opencore" | "cyno", ...}`` (the shape is checked on
the way in by :func:`rollbook.encounter.shape.checked`). Every step is a pure function
``(encounter, action, dice) -> (new encounter, events)``: the input is never changed, the events are
what happened (each also kept in the encounter's bounded log). Undo is the caller's: it keeps the
encounters it had and takes the previous one back; the engine never reverses arithmetic.

``shape``    the data: fields per rule set, validation with the path of the problem, the log
``turns``    the round and turn machinery both rule sets share, and the manual edits
``opencore`` OpenCore's steps: initiative, the attack chain, damage, criticals, bleeding
``cyno``     Cyno's Role-Play's steps: initiative die, surprise, holding back, strike and defense, damage rating
"""

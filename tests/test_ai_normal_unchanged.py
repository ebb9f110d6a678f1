"""«normal» is the benchmark every other level is measured against (issue #28): its decisions must
stay exactly what they were when «dificil» learnt to read the table. A fingerprint of its answers
at a few thousand positions, reached by seeded walks through whole matches (half its own moves,
half random ones, so odd corners come up), under several rule sets; the digest was taken with
the code of main before issue #28 (``git show ccd4eb0``)."""

from __future__ import annotations

import hashlib
import random

from musbot.ai.normal import NormalBot
from musbot.engine import Match, Rules, seeded_shuffler
from musbot.engine.randomplay import random_action

RULE_SETS = (Rules(juegos=1), Rules(reyes=4, puntos=30, juegos=1),
             Rules(real=True, mus_corrido=True, juegos=1), Rules.for_players(2, juegos=1))
POINTS = 1500
"""Decisions fingerprinted per rule set."""
DIGEST = "7730c220d0582361a2935a717c8b6494e21876e1f88c1abaf4bd6a39d94497b3"


def fingerprint() -> str:
    digest = hashlib.sha256()
    bot = NormalBot()
    for r, rules in enumerate(RULE_SETS):
        seen = 0
        walk = 0
        while seen < POINTS:
            rng = random.Random(f"{r}/walk/{walk}")
            match = Match(rules, first_mano=walk % rules.jugadores,
                          shuffler=seeded_shuffler(f"{r}/deck/{walk}"))
            walk += 1
            while not match.finished and seen < POINTS:
                seat = match.to_act
                assert seat is not None
                view = match.view(seat)
                action = bot.decide(view, random.Random(f"{r}/{seen}"))
                digest.update(repr((r, seen, seat, action)).encode())
                seen += 1
                mine = rng.random() < 0.5
                match.apply(seat, action if mine else random_action(view.legal, rng))
    return digest.hexdigest()


def test_normal_decides_as_it_always_did() -> None:
    assert fingerprint() == DIGEST

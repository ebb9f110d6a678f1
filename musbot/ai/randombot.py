"""Level «random»: any legal action (the engine's weighted random player), the benchmarks' floor."""

from __future__ import annotations

import random
from collections.abc import Sequence

from musbot.engine import Action, SeatView
from musbot.engine.randomplay import random_action
from musbot.engine.senas import Sena

from .base import SenaSeen


class RandomBot:
    """Plays :func:`musbot.engine.randomplay.random_action`; sends no señas."""

    level = "random"

    def decide(self, view: SeatView, rng: random.Random,
               senas: Sequence[SenaSeen] = ()) -> Action:
        if not view.legal:
            raise ValueError("decide() called when the seat has nothing to do")
        return random_action(view.legal, rng)

    def choose_senas(self, view: SeatView, rng: random.Random) -> list[Sena]:
        return []

"""OpenSkill ratings for teams of one, two or three (Plackett-Luce model, openskill 6).

Every season starts everyone at the model's prior (mu 25, sigma 25/3). What players see is a
*conservative* rating, mu - 3·sigma: the skill we are ~99 % sure the player has, so a newcomer is
not ranked high on one lucky win. It is shown on a friendlier scale:

    display = round(1000 + 40 · (mu - 3·sigma))

A newcomer shows 1000 (mu - 3·sigma = 0); one mu point is worth 40 display points. Because sigma
shrinks as matches are played, early ratings tend to rise even for a loser: that is the uncertainty
going away, not a reward for losing.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""Default parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
Z = 3.0


def initial() -> Skill:
    """(mu, sigma) of a player with no rated match in the season."""
    return MODEL.mu, MODEL.sigma


def display(mu: float, sigma: float) -> int:
    """The conservative rating on the display scale (module docstring)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - Z * sigma))


Skill = tuple[float, float]
"""(mu, sigma)"""


def rate(teams: Sequence[Sequence[Skill]], winner: int) -> list[list[Skill]]:
    """New (mu, sigma) for every player of two teams after ``winner`` (0 or 1) won the match."""
    if len(teams) != 2 or not all(teams):
        raise ValueError("a rated match has two teams of at least one player")
    if winner not in (0, 1):
        raise ValueError("winner must be team 0 or 1")
    ranked = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
    new = MODEL.rate(ranked, ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in new]


def pair_from_people(first: Skill, second: Skill) -> Skill:
    """A first guess at a pair's skill from its two people's: their mean mu, and the root mean
    square of their sigmas (their variances averaged), so two people of one skill seed like a
    pair of that skill, and an uncertain partner makes the pair uncertain. Only for seeding a
    pair that has not played together yet; its own rating starts at the prior like anyone's."""
    mu = (first[0] + second[0]) / 2
    sigma = ((first[1] ** 2 + second[1] ** 2) / 2) ** 0.5
    return mu, sigma


def rate_pairs(winner: Skill, loser: Skill) -> tuple[Skill, Skill]:
    """New (mu, sigma) of two stable pairs after one beat the other: each pair rated as one
    player of its own (a team of one), so a pair's rating says how well those two play
    together, apart from their ratings as people."""
    (new_winner,), (new_loser,) = rate([[winner], [loser]], 0)
    return new_winner, new_loser

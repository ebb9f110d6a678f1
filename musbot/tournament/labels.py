"""The words of a bracket, in one language: what the picture and the text version share."""

from __future__ import annotations

from musbot.i18n import TOURNAMENT
from musbot.words import visible_name

from .brackets import bracket_size
from .model import Bracket, Fixture, MatchState, Pair, Source
from .settings import Format, KnockoutDraw
from .tournament import Tournament, group_label

FORMAT_KEYS = {Format.KNOCKOUT: "format_knockout", Format.DOUBLE: "format_double",
               Format.GROUPS: "format_groups", Format.ROUND_ROBIN: "format_round_robin",
               Format.SWISS: "format_swiss"}
"""A format's name in the catalogue (``TOURNAMENT.format_…``)."""

NAME_LIMIT = 40
"""Columns of a person's name, at most (the picture cuts further to fit its boxes)."""


class Words:
    def __init__(self, tournament: Tournament, lang: str) -> None:
        self.tournament = tournament
        self.lang = lang

    def __getitem__(self, key: str) -> str:
        return TOURNAMENT.template(key, self.lang)

    def format(self, key: str, **params: object) -> str:
        """A sentence with its values; a plural one in the form its count asks for
        («1 punto», «2 puntos»)."""
        return TOURNAMENT(key, self.lang, **params)

    def person(self, name: str | None) -> str:
        return visible_name(name, NAME_LIMIT, self["anonymous"]) if name else self["anonymous"]

    def people(self, pair: Pair | int) -> tuple[str, str]:
        if isinstance(pair, int):
            pair = self.tournament.pairs[pair]
        return self.person(pair.names[0]), self.person(pair.names[1])

    def pair(self, pair: Pair | int) -> str:
        first, second = self.people(pair)
        return self["pair"].format(first=first, second=second)

    def source(self, source: Source) -> str:
        if source.kind == "pair":
            return self.pair(int(source.ref or 0))
        if source.kind == "bye":
            return self["bye"]
        key = "winner_of" if source.kind == "winner" else "loser_of"
        return self[key].format(match=source.ref)

    def side(self, match: Fixture, side: int) -> str:
        """Who is on that side: the pair, or where it will come from."""
        pair = match.pairs[side]
        if pair is not None:
            return self.pair(pair)
        if match.state is MatchState.BYE:
            return self["bye"]
        return self.source(match.sources[side])

    def state(self, match: Fixture) -> str:
        """The mark a match's state shows (empty when its score says it all)."""
        marks = {MatchState.READY: self["to_play"], MatchState.PLAYING: self["playing"],
                 MatchState.WALKOVER: self["walkover_mark"],
                 MatchState.DISQUALIFIED: self["disqualified_mark"],
                 MatchState.BYE: self["bye"]}
        text = marks.get(match.state, "")
        if "bot_game" in match.flags:
            text = f"{text} · {self['bot_mark']}" if text else self["bot_mark"]
        if "both_late" in match.flags:
            text = f"{text} · {self['late_mark']}" if text else self["late_mark"]
        if "overtime" in match.flags:
            text = f"{text} · {self['time_mark']}" if text else self["time_mark"]
        return text

    def section(self, bracket: Bracket, group: int | None = None) -> str:
        fmt = self.tournament.settings.format
        if bracket is Bracket.WINNERS:
            return self["winners"] if fmt is Format.DOUBLE else self["knockout"]
        if bracket is Bracket.LOSERS:
            return self["losers"]
        if bracket is Bracket.FINAL:
            return self["final"]
        if bracket is Bracket.GROUP:
            return self["group"].format(label=group_label(group or 0))
        return self["standings"]

    def column(self, bracket: Bracket, number: int, last: int) -> str:
        """A column's heading: its round, named for the last three of a knockout."""
        if bracket is Bracket.LOSERS:
            return self["column"].format(number=number)
        if bracket is Bracket.FINAL:
            return self["grand_final"] if number == 1 else self["grand_final_reset"]
        names = {0: "round_final", 1: "round_semi", 2: "round_quarter"}
        if bracket is Bracket.WINNERS and last - number in names:
            return self[names[last - number]]
        return self["round"].format(number=number)

    def title(self) -> str:
        t = self.tournament
        return visible_name(t.settings.name, 60)

    def format_name(self) -> str:
        return self[FORMAT_KEYS[self.tournament.settings.format]]

    def draw_rule(self) -> str:
        """How the knockout after the groups is drawn (so players see why they meet whom):
        how many go through, the rule, and the byes it gives; empty for other formats."""
        t = self.tournament
        settings = t.settings
        if settings.format is not Format.GROUPS:
            return ""
        advance = t.plan.get("advance", settings.advance)
        if settings.knockout_draw is KnockoutDraw.SEEDED:
            text = self.format("draw_seeded", advance=advance)
        else:
            last = f"{advance}" if advance > 1 else "1"
            text = self.format("draw_crossed", advance=advance,
                               example=f"1A–{last}B, 1B–{last}A, 1C–{last}D")
        groups = t.plan.get("groups")
        if groups is not None and groups > 1:
            through = groups * advance
            byes = bracket_size(through) - through
            if byes:
                text += " " + self.format("draw_byes", count=byes)
        return text

"""The bracket in words, for screen readers and for anyone who cannot see the picture: the same
matches, scores, byes, walkovers and standings, one line each, in messages that fit Discord's
2,000 characters.

At most :data:`MAX_MESSAGES` messages (a channel takes five messages per five seconds). A field
too big for them is summarised: the standings' top rows, every match in play, then the decided
matches from the latest round back, as many as fit; a last line says how many were left out,
which the picture shows. Names are plain text; ``escape`` (the Discord adapter passes
``discord.utils.escape_markdown``) is applied to every name before the lengths are counted.
"""

from __future__ import annotations

from collections.abc import Callable

from .labels import Words
from .model import Bracket, Fixture, MatchState
from .settings import Format
from .tournament import Tournament

MESSAGE_LIMIT = 2000
MAX_MESSAGES = 5


def _plain(text: str) -> str:
    return text


class _Writer:
    def __init__(self, tournament: Tournament, lang: str, escape: Callable[[str], str]) -> None:
        self.words = Words(tournament, lang)
        self.escape = escape
        self.t = tournament

    def pair(self, pair: int) -> str:
        text = self.words.pair(pair)
        if self.t.pairs[pair].disqualified:
            text = f"{text} ({self.words['disqualified_mark']})"
        return self.escape(text)

    def side(self, match: Fixture, side: int) -> str:
        pair = match.pairs[side]
        return self.pair(pair) if pair is not None else self.escape(self.words.side(match, side))

    def match(self, match: Fixture) -> str:
        w = self.words
        if match.state is MatchState.BYE:
            present = match.pairs[match.winner or 0]
            return w["text_bye"].format(match=match.id,
                                        pair=self.pair(present) if present is not None else "?")
        if not match.decided:
            state = w.state(match) or w["to_play"]
            return w["text_match_open"].format(match=match.id, first=self.side(match, 0),
                                               second=self.side(match, 1), state=state)
        score = w["text_score"].format(first=match.games[0], second=match.games[1])
        line = w["text_match"].format(match=match.id, first=self.side(match, 0), score=score,
                                      second=self.side(match, 1))
        mark = w.state(match)
        if match.state is MatchState.WALKOVER:
            mark = w["walkover"] + (mark.removeprefix(w["walkover_mark"]))
        if match.state is MatchState.DISQUALIFIED and match.note:
            mark = w["disqualified"].format(reason=self.escape(match.note))
        return f"{line} ({mark})" if mark else line


def bracket_text(tournament: Tournament, lang: str = "es", *,
                 escape: Callable[[str], str] = _plain) -> list[str]:
    """The messages (module docstring); none before the draw."""
    if not tournament.pairs:
        return []
    writer = _Writer(tournament, lang, escape)
    w = writer.words
    head = [w["text_title"].format(name=escape(w.title()), format=w.format_name())]
    champion, finalist = tournament.champion, tournament.finalist
    if champion is not None:
        head.append(w["champion"].format(pair=writer.pair(champion.id)))
        if finalist is not None:
            head.append(w["finalist"].format(pair=writer.pair(finalist.id)))
    rule = w.draw_rule()  # why the pairs through meet whom
    if rule:
        head.append(rule)
    # (priority, position, line): lines are chosen by priority, shown by position.
    lines: list[tuple[int, int, str]] = []
    fmt = tournament.settings.format
    tables: list[tuple[str, list[str]]] = []
    if fmt is Format.GROUPS:
        for group in range(tournament.plan.get("groups", 0)):
            tables.append((w.section(Bracket.GROUP, group),
                           _rows(writer, tournament.standings(group), swiss=False)))
    elif fmt in (Format.ROUND_ROBIN, Format.SWISS):
        tables.append((w["standings"], _rows(writer, tournament.standings(),
                                             swiss=fmt is Format.SWISS)))
    position = 0
    for heading, rows in tables:
        position += 1
        lines.append((0, position, w["text_section"].format(section=heading)))
        for rank, row in enumerate(rows):
            position += 1
            lines.append((1 + rank, position, row))
    table_rows = position
    matches = [m for m in tournament.matches.values()
               if m.bracket not in (Bracket.GROUP, Bracket.LEAGUE, Bracket.SWISS)
               or not m.decided]
    latest = max((m.round for m in matches), default=0)
    sections: dict[tuple[Bracket, int], list[Fixture]] = {}
    for match in matches:
        if match.state is MatchState.PENDING and None in match.pairs:
            continue
        sections.setdefault((match.bracket, match.round), []).append(match)
    for (bracket, number), found in sections.items():
        position += 1
        last = max(m.round for m in tournament.matches.values() if m.bracket is bracket)
        heading = w.column(bracket, number, last)
        if bracket is not Bracket.FINAL:
            heading = f"{w.section(bracket)} · {heading}"
        open_here = any(not m.decided for m in found)
        lines.append((0 if open_here else 2 + latest - number, position,
                      w["text_section"].format(section=heading)))
        for match in found:
            position += 1
            priority = 0 if not match.decided else 2 + latest - number
            lines.append((priority, position, writer.match(match)))
    budget = MESSAGE_LIMIT * MAX_MESSAGES - sum(len(h) + 1 for h in head) - 200
    chosen = []
    used = 0
    for priority, pos, line in sorted(lines, key=lambda x: (x[0], x[1])):
        if used + len(line) + 1 > budget:
            continue
        chosen.append((pos, line, priority))
        used += len(line) + 1
    left_rows = sum(1 for _, pos, _ in lines if pos <= table_rows) \
        - sum(1 for pos, _, _ in chosen if pos <= table_rows)
    left_matches = (len(lines) - len(chosen)) - left_rows
    body = [line for _, line, _ in sorted(chosen)]
    if left_rows:
        body.append(w["text_rows_left_out"].format(count=left_rows))
    if left_matches:
        body.append(w.format("text_left_out", count=left_matches))
    return _split([*head, *body])


def _rows(writer: _Writer, table: list, *, swiss: bool) -> list[str]:
    w = writer.words
    found = []
    for place, row in enumerate(table, 1):
        if swiss:
            found.append(w.format("text_row_swiss", place=place, pair=writer.pair(row.pair),
                                  points=row.points, buchholz=row.buchholz or 0,
                                  games=f"{row.games_diff:+d}"))
        else:
            found.append(w["text_row"].format(place=place, pair=writer.pair(row.pair),
                                              won=row.won, lost=row.lost,
                                              games=f"{row.games_diff:+d}",
                                              tantos=f"{row.tantos_diff:+d}"))
    return found


def _split(lines: list[str]) -> list[str]:
    messages: list[str] = []
    current = ""
    for line in lines:
        line = line[:MESSAGE_LIMIT]
        if current and len(current) + 1 + len(line) > MESSAGE_LIMIT:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages

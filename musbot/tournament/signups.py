"""Sign-ups, the draw, and forgetting a person: the changes before a tournament's first
match."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime

from .core import Core
from .errors import TournamentError
from .model import EventKind, Pair, PairKey, Signup, Stage, TournamentEvent, is_odd, pair_key
from .settings import Seeding
from .timestamps import stamp

INVITES_PER_PERSON = 3
"""Partners one person may name in a tournament's sign-ups: each named person is notified
(once per tournament, whoever names them), so naming is budgeted, not a way to ping people."""


class SignUps(Core):
    """Who plays, and the draw that makes them pairs and matches."""

    def signed_pairs(self) -> list[tuple[int, int]]:
        """People who named each other, in sign-up order."""
        found = []
        for entry in self.entries.values():
            other = self.entries.get(entry.partner) if entry.partner is not None else None
            if other is not None and other.partner == entry.user_id \
                    and entry.user_id < other.user_id:
                found.append((entry.user_id, other.user_id))
        order = {user: i for i, user in enumerate(self.entries)}
        return sorted(found, key=lambda p: min(order[p[0]], order[p[1]]))

    def solos(self) -> list[int]:
        """People who will be drawn a partner: alone, or whose invitation is unanswered."""
        paired = {u for p in self.signed_pairs() for u in p}
        return [u for u in self.entries if u not in paired]

    def _open_for_signups(self, now: datetime) -> None:
        deadline = self.settings.deadline
        if self.phase is not Stage.SIGNUP or (deadline is not None and now > deadline):
            raise TournamentError("tournament_signups_closed")

    def sign_up(self, user_id: int, name: str, *, partner: int | None = None,
                now: datetime) -> list[TournamentEvent]:
        """Sign up alone (``partner`` None) or naming a partner; naming back someone who named
        you confirms the pair. Signing up again replaces one's entry (a new partner, a new
        name); the same entry again changes nothing."""
        self._open_for_signups(now)
        if partner == user_id:
            raise TournamentError("tournament_partner_self")
        name = " ".join(str(name).split())[:100] or str(user_id)
        old = self.entries.get(user_id)
        if old is not None and (old.name, old.partner) == (name, partner):
            return []
        named = self.invited.get(user_id, [])
        if partner is not None and partner not in named and len(named) >= INVITES_PER_PERSON:
            raise TournamentError("tournament_invites_spent", limit=INVITES_PER_PERSON)
        self.entries[user_id] = Signup(user_id, name, partner, stamp(now))
        events = [TournamentEvent(EventKind.SIGNED_UP, user=user_id)]
        other = self.entries.get(partner) if partner is not None else None
        if other is not None and other.partner == user_id:
            events.append(TournamentEvent(EventKind.PAIRED, user=partner))
        elif partner is not None and not any(partner in v for v in self.invited.values()):
            events.append(TournamentEvent(EventKind.INVITED, user=partner))  # told once, by anyone
        if partner is not None and partner not in named:
            self.invited[user_id] = [*named, partner]
        return self._changed(events)

    def withdraw(self, user_id: int, *, now: datetime) -> list[TournamentEvent]:
        """Leave before the draw. A partner who had confirmed stays signed up, to be drawn a
        partner unless they withdraw too or name someone else."""
        if self.phase is not Stage.SIGNUP:
            raise TournamentError("tournament_signups_closed")
        if user_id not in self.entries:
            raise TournamentError("tournament_not_signed_up")
        del self.entries[user_id]
        return self._changed([TournamentEvent(EventKind.WITHDRAWN, user=user_id)])

    # --- the draw --------------------------------------------------------------------------

    def _random(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}:{purpose}")

    def draw(self, *, now: datetime, ratings: Mapping[PairKey, float] | None = None
             ) -> list[TournamentEvent]:
        """Close the sign-ups and draw: pairs for those alone, then the seeding and the
        format's first matches. ``ratings`` are the pair ratings to seed by (display scale)."""
        if self.phase is not Stage.SIGNUP:
            raise TournamentError("tournament_already_drawn")
        couples = self.signed_pairs()
        solos = self.solos()
        self._random("partners").shuffle(solos)
        unpaired = [solos.pop()] if is_odd(len(solos)) else []
        couples += [(solos[i], solos[i + 1]) for i in range(0, len(solos), 2)]
        n = len(couples)
        if n < 2:
            raise TournamentError("tournament_too_few", count=n)
        limit = self._rules.max_pairs
        if n > limit:
            raise TournamentError("tournament_too_many", count=n, limit=limit)
        self._rules.check(self, n)
        order = list(range(n))
        self._random("seeding").shuffle(order)
        table = ratings or {}

        def rating(index: int) -> float | None:
            return table.get(pair_key(*couples[index]))

        if self.settings.seeding is Seeding.RATING:
            order.sort(key=lambda i: (rating(i) is None, -(rating(i) or 0.0)))
        self.pairs = []
        for seed, index in enumerate(order):
            first, second = couples[index]
            self.pairs.append(Pair(seed, (first, second),
                                   (self.entries[first].name, self.entries[second].name),
                                   rating(index)))
        self.unpaired = unpaired
        self.phase = Stage.RUNNING
        self.drawn_at = stamp(now)
        events = [TournamentEvent(EventKind.DRAWN)] + [
            TournamentEvent(EventKind.UNPAIRED, user=u) for u in unpaired]
        seeds = [p.id for p in self.pairs]
        self._rules.draw(self, seeds)
        self._refresh_all(now, events)
        return self._changed(events)

    def forget(self, user_id: int) -> bool:
        """``/mus olvidarme``: the person's sign-up goes, and in the draw their id and name are
        blanked (their pair's results stay, as league results do). True if they were here.
        The revision does not change: forgetting is not a step of the tournament, and storage
        applies it to every state it saves, whatever copy a runner holds."""
        found = False
        if self.entries.pop(user_id, None) is not None:
            found = True
        for entry in self.entries.values():
            if entry.partner == user_id:
                entry.partner = None
                found = True
        for pair in self.pairs:
            if user_id in pair.players:
                i = pair.players.index(user_id)
                players, names = list(pair.players), list(pair.names)
                players[i], names[i] = None, None
                pair.players = (players[0], players[1])
                pair.names = (names[0], names[1])
                found = True
        if user_id in self.unpaired:
            self.unpaired.remove(user_id)
            found = True
        if self.invited.pop(user_id, None) is not None:
            found = True
        for author, named in list(self.invited.items()):
            if user_id in named:
                self.invited[author] = [u for u in named if u != user_id]
                found = True
        return found

    def people(self) -> set[int]:
        """Everyone this state names: what forgetting a person must look through."""
        found = set(self.entries) | set(self.unpaired)
        found |= {e.partner for e in self.entries.values() if e.partner is not None}
        found |= {u for p in self.pairs for u in p.players if u is not None}
        found |= set(self.invited) | {u for named in self.invited.values() for u in named}
        return found

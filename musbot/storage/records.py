"""What the storage layer reads out of a docs/replay.md transcript and result, without the engine:
the ledger is stored as given, the órdagos are found in the action list."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from musbot.words import normalise


@dataclass(frozen=True, slots=True)
class OrdagoRecord:
    caller_seat: int
    accepter_seat: int | None
    """None when the órdago was refused."""
    lance: str | None
    """The lance, known for an accepted órdago (from its ledger step)."""
    winner_team: int
    """The team that won it: the board's best hand if accepted, the caller's team if refused."""


def find_ordagos(transcript: Mapping[str, Any], result: Mapping[str, Any]) -> list[OrdagoRecord]:
    """Each órdago and its answer. Nothing can raise an órdago (docs/rules.md §4), so the answers
    that follow it are 'no quiero'/'paso' (handing over to the partner) until a 'quiero' or the end
    of the lance."""
    actions = [(int(seat), normalise(str(text))) for seat, text in transcript.get("actions", ())]
    accepted_steps = [s for s in result.get("ledger", ()) if s.get("kind") == "ordago"]
    out: list[OrdagoRecord] = []
    for i, (caller, text) in enumerate(actions):
        if text != "ordago":
            continue
        accepter = None
        for seat, answer in actions[i + 1:]:
            if seat % 2 == caller % 2:
                break
            if answer == "quiero":
                accepter = seat
                break
            if answer not in ("no quiero", "paso"):
                break
        if accepter is not None and accepted_steps:
            step = accepted_steps[0]
            out.append(OrdagoRecord(caller, accepter, str(step["lance"]), int(step["pair"])))
        elif accepter is not None:
            # An accepted órdago with no ledger step: the hand was recorded unfinished.
            continue
        else:
            out.append(OrdagoRecord(caller, None, None, caller % 2))
    return out

"""A world's record as JSON lines in the shape the ``discord-look`` renderer reads: every call the
bot made (REST, interaction callbacks, webhooks; pictures included) and, among them, what people
typed and pressed as the gateway delivered it. ``tools/look_match.py`` records a whole match so;
any test can write its world with :func:`write_look` to see what its people saw."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .state import DM

if TYPE_CHECKING:
    from .fake import FakeDiscord
    from .recorder import Call

_MESSAGE = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?")
_INTERACTION = re.compile(r"/interactions/(\d+)/")


def look_lines(world: FakeDiscord) -> list[dict[str, Any]]:
    """The record, in the order things happened."""
    inputs = list(world.inputs)
    lines: list[dict[str, Any]] = []
    waiting = 0
    for seq, call in enumerate(world.recorder.calls):
        while waiting < len(inputs) and inputs[waiting][0] <= seq:
            lines.append(inputs[waiting][1])
            waiting += 1
        lines.append(_call(world, seq, call))
    lines += [event for _, event in inputs[waiting:]]
    return lines


def _call(world: FakeDiscord, seq: int, call: Call) -> dict[str, Any]:
    line: dict[str, Any] = {"seq": seq, "virt": call.at, "via": call.kind,
                            "method": call.method, "path": call.path, "status": call.status,
                            "payload": call.json}
    found = _MESSAGE.search(call.path)
    if found is not None:
        channel = world.channels.get(int(found.group(1)))
        line["channel_id"] = found.group(1)
        message = found.group(2)
        if message is None and isinstance(call.response, dict):
            message = call.response.get("id")
        if message is not None:
            line["message_id"] = str(message)
        if channel is not None and channel.type == DM:
            line["vis"], line["audience"] = "private", str(channel.recipient_id)
        else:
            line["vis"] = "public"
    interaction = _INTERACTION.search(call.path)
    if interaction is not None:
        line["interaction_id"] = interaction.group(1)
    if call.files:
        line["files"] = [f.filename for f in call.files]
        line["file_b64"] = [base64.b64encode(f.data).decode("ascii") for f in call.files]
    return line


def write_look(world: FakeDiscord, path: Path, *, scenario: str = "A") -> Path:
    """Writes the record to ``path`` (JSON lines), each line marked as of ``scenario`` (the
    renderer picks its moments by scenario: A, a table with bots; C, a league match)."""
    with path.open("w", encoding="utf-8") as out:
        for line in look_lines(world):
            out.write(json.dumps({"gen": scenario, **line}, ensure_ascii=False, default=str)
                      + "\n")
    return path


__all__ = ["look_lines", "write_look"]

"""What a person's Discord client lets them do, and nothing more: use a slash command the bot
synced (with options of the synced types, within their bounds), be offered the choices of an
option with autocomplete while typing it, press a button they can see
and that is enabled, fill in a modal the bot showed them. A test asking for anything else gets
a ``ValueError``: a real person could not have done it, so the bot need not survive it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .payloads import channel_payload, member_payload, user_payload
from .state import DM, FakeChannel, FakeInteraction, FakeMessage, World

STRING, INTEGER, BOOLEAN, USER, CHANNEL, NUMBER = 3, 4, 5, 6, 7, 10


def find_command(world: World, channel: FakeChannel, words: list[str]
                 ) -> tuple[dict[str, Any], list[dict[str, Any]], int | None]:
    """The synced command for ``words`` (e.g. ``["mus", "mesa"]``) as the client offers it in
    ``channel``: the top-level command, the subcommand path, and the guild id if it is a guild
    command."""
    pools: list[tuple[int | None, list[dict[str, Any]]]] = []
    if channel.guild_id is not None:
        pools.append((channel.guild_id, world.guild_commands.get(channel.guild_id, [])))
    pools.append((None, world.global_commands))
    for guild_id, commands in pools:
        for command in commands:
            if command.get("type", 1) == 1 and command["name"] == words[0]:
                if channel.type == DM and not _usable_in_dms(command):
                    raise ValueError(f"/{words[0]} is not offered in DMs")
                return command, _path(command, words), guild_id
    raise ValueError(f"/{words[0]} was never synced with Discord here: the client does not "
                     f"offer it (synced: {[c['name'] for _, cs in pools for c in cs]})")


def _usable_in_dms(command: Mapping[str, Any]) -> bool:
    contexts = command.get("contexts")
    if contexts is not None:
        return 1 in contexts
    return command.get("dm_permission", True) is not False


def _path(command: dict[str, Any], words: list[str]) -> list[dict[str, Any]]:
    node, path = command, []
    for word in words[1:]:
        subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
        found = next((o for o in subs if o["name"] == word), None)
        if found is None:
            raise ValueError(f"/{' '.join(words)}: no subcommand {word!r} "
                             f"(has {[o['name'] for o in subs]})")
        path.append(found)
        node = found
    if any(o.get("type") in (1, 2) for o in node.get("options") or []):
        raise ValueError(f"/{' '.join(words)} needs a subcommand")
    return path


def command_data(world: World, channel: FakeChannel, command: str, given: Mapping[str, Any],
                 *, user: int, focused: str | None = None) -> dict[str, Any]:
    """The ``data`` of ``user``'s application command interaction, with typed options and
    ``resolved`` users and channels. ``focused``: the option being typed in, for an
    autocomplete interaction (its value is the text typed so far; other options may be
    missing, required or not)."""
    words = command.split()
    top, path, guild_id = find_command(world, channel, words)
    leaf = path[-1] if path else top
    resolved: dict[str, dict[str, Any]] = {}
    options = []
    for spec in leaf.get("options") or []:
        if spec["name"] == focused:
            options.append(_typing(spec, given.get(spec["name"])))
        elif given.get(spec["name"]) is not None:
            options.append(_option(world, channel, spec, given[spec["name"]], resolved, user))
    known = {spec["name"] for spec in leaf.get("options") or []}
    if focused is not None and focused not in known:
        raise ValueError(f"/{command} has no option {focused!r} (has {sorted(known)})")
    for spec in leaf.get("options") or []:
        if focused is None and spec.get("required") and given.get(spec["name"]) is None:
            raise ValueError(f"/{command}: option {spec['name']!r} is required")
    unknown = set(given) - known
    if unknown:
        raise ValueError(f"/{command} has no option {sorted(unknown)} (has {sorted(known)})")
    for sub in reversed(path):
        options = [{"type": sub["type"], "name": sub["name"], "options": options}]
    data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1,
                            "options": options}
    if resolved:
        data["resolved"] = resolved
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


def _typing(spec: Mapping[str, Any], value: Any) -> dict[str, Any]:
    """The focused option of an autocomplete interaction: what has been typed, as a string
    whatever the option's type, unchecked (the person has not finished)."""
    if not spec.get("autocomplete"):
        raise ValueError(f"option {spec['name']!r} has no autocomplete: the client does not "
                         "ask the bot for choices")
    return {"type": spec["type"], "name": spec["name"], "value": str(value or ""),
            "focused": True}


def _option(world: World, channel: FakeChannel, spec: Mapping[str, Any], value: Any,
            resolved: dict[str, dict[str, Any]], user_id: int) -> dict[str, Any]:
    kind, name = spec["type"], spec["name"]
    if kind == STRING:
        value = str(value)
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            raise ValueError(f"option {name!r}: length out of bounds")
    elif kind in (INTEGER, NUMBER):
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                (kind == INTEGER and not float(value).is_integer()):
            raise ValueError(f"option {name!r} wants a number, got {value!r}")
        value = int(value) if kind == INTEGER else float(value)
        if (spec.get("min_value") is not None and value < spec["min_value"]) or \
                (spec.get("max_value") is not None and value > spec["max_value"]):
            raise ValueError(f"option {name!r}: {value} is out of bounds")
    elif kind == BOOLEAN:
        value = bool(value)
    elif kind == USER:
        user = world.user(int(value))
        resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
        if channel.guild_id is not None:
            guild = world.guilds[channel.guild_id]
            resolved.setdefault("members", {})[str(user.id)] = member_payload(
                world, guild, user, with_user=False, permissions=guild.member_permissions(user.id))
        value = str(user.id)
    elif kind == CHANNEL:
        target = world.channel(int(value))
        allowed = spec.get("channel_types")
        if allowed is not None and target.type not in allowed:
            raise ValueError(f"option {name!r}: channel type {target.type} not offered")
        # A resolved channel carries the invoking member's permissions there.
        home = world.guilds.get(target.guild_id) if target.guild_id is not None else None
        permissions = home.member_permissions(user_id) if home is not None else 0
        resolved.setdefault("channels", {})[str(target.id)] = \
            channel_payload(world, target) | {"permissions": str(permissions)}
        value = str(target.id)
    else:
        raise ValueError(f"option type {kind} is not modelled by the wire double")
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r}: {value!r} is not one of the choices")
    return {"type": kind, "name": name, "value": value}


def pressable(world: World, user_id: int, message_id: int, custom_id: str,
              values: list[str] | None) -> tuple[FakeMessage, dict[str, Any]]:
    """The message and component a press reaches, and the interaction ``data``."""
    msg = world.messages_by_id.get(message_id)
    if msg is None or msg.deleted:
        raise ValueError(f"message {message_id} does not exist (or was deleted)")
    if msg.ephemeral_for not in (None, user_id):
        raise ValueError(f"message {message_id} is ephemeral for someone else")
    channel = world.channels[msg.channel_id]
    if channel.deleted or (channel.guild_id is not None
                           and not world.guilds[channel.guild_id].present):
        raise ValueError(f"message {message_id} is in a channel the bot no longer sees")
    component = msg.component(custom_id)
    if component is None:
        raise ValueError(f"message {message_id} has no component {custom_id!r} "
                         f"(has {msg.custom_ids()})")
    if component.get("disabled"):
        raise ValueError(f"component {custom_id!r} is disabled")
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
    if component["type"] == 2:
        if values is not None:
            raise ValueError("a button takes no values")
    else:
        chosen = list(values or [])
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(chosen) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values")
        if component["type"] == 3:
            offered = [o["value"] for o in component.get("options") or []]
            if any(v not in offered for v in chosen):
                raise ValueError(f"select {custom_id!r} offers {offered}")
        data["values"] = chosen
    return msg, data


def modal_data(inter: FakeInteraction, user_id: int, values: Mapping[str, Any]
               ) -> dict[str, Any]:
    """A modal submit's ``data``: the modal's structure (Label-wrapped or legacy action rows)
    with the person's values, checked against required and length bounds."""
    if inter.modal is None:
        raise ValueError("the bot did not answer that interaction with a modal")
    if inter.modal_submitted:
        raise ValueError("that modal was already submitted")
    if user_id != inter.user_id:
        raise ValueError("only the person the modal was shown to can submit it")
    used: set[str] = set()
    components: list[dict[str, Any]] = []
    for child in inter.modal.get("components") or []:
        if child.get("type") == 18:
            components.append({"type": 18, "component": _filled(child["component"], values,
                                                                 used)})
        elif child.get("type") == 1:
            components.append({"type": 1, "components": [
                _filled(child["components"][0], values, used)]})
        else:
            components.append({"type": child.get("type")})
    unknown = set(values) - used
    if unknown:
        raise ValueError(f"the modal has no input {sorted(unknown)}")
    return {"custom_id": inter.modal["custom_id"], "components": components}


def _filled(component: Mapping[str, Any], values: Mapping[str, Any], used: set[str]
            ) -> dict[str, Any]:
    custom_id = component["custom_id"]
    used.add(custom_id)
    if component["type"] == 4:
        value = str(values.get(custom_id, component.get("value") or ""))
        if component.get("required", True) and not value:
            raise ValueError(f"input {custom_id!r} is required")
        if value and not component.get("min_length", 0) <= len(value) <= \
                component.get("max_length", 4000):
            raise ValueError(f"input {custom_id!r}: length out of bounds")
        return {"type": 4, "custom_id": custom_id, "value": value}
    chosen = values.get(custom_id, [])
    return {"type": component["type"], "custom_id": custom_id,
            "values": list(chosen) if isinstance(chosen, list | tuple) else [chosen]}

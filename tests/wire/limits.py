"""The limits Discord enforces on what a bot sends: messages, embeds, components, modals and
application commands. Each check raises the 400 Discord answers with (see :mod:`wire.errors`).

discord.py checks a few of these itself (a ``View`` refuses a sixth button in a row, a
``Modal`` a sixth child); most it leaves to Discord, and so did the old fakes: text lengths,
embed sizes, duplicate ``custom_id``s, command descriptions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import (
    CANNOT_SEND_EMPTY,
    WireError,
    bad_length,
    form_error,
    required,
    too_long,
)

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
ROW_WIDTH = 5
V2_TOTAL_MAX = 40
IS_COMPONENTS_V2 = 1 << 15
EPHEMERAL = 1 << 6
SELECT_TYPES = {3, 5, 6, 7, 8}


def check_length(path: str, value: Any, limit: int, *, need: bool = False) -> None:
    if value is None or value == "":
        if need:
            raise required(path)
        return
    if not isinstance(value, str):
        raise form_error(path, "BASE_TYPE_STRING", "Must be a string.")
    if len(value) > limit:
        raise too_long(path, limit)


def is_empty(payload: Mapping[str, Any], files: int = 0) -> bool:
    """Discord's «Cannot send an empty message»: no text (blank text counts as none), no embed,
    no component, no file, no sticker, no poll."""
    content = payload.get("content")
    return not ((isinstance(content, str) and content.strip()) or payload.get("embeds")
                or payload.get("components") or payload.get("attachments") or files
                or payload.get("sticker_ids") or payload.get("poll"))


def empty_message() -> WireError:
    return WireError(400, CANNOT_SEND_EMPTY, "Cannot send an empty message")


def check_message(payload: Mapping[str, Any], *, files: int = 0, partial: bool = False) -> None:
    """A message body (create, edit, interaction response or webhook). ``partial``: an edit,
    which may leave out what does not change (its result is checked for emptiness apart)."""
    if not partial and is_empty(payload, files):
        raise empty_message()
    flags = int(payload.get("flags") or 0)
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            raise form_error("content", "BASE_TYPE_STRING", "Must be a string.")
        if len(content) > CONTENT_MAX:
            raise too_long("content", CONTENT_MAX)
    embeds = payload.get("embeds")
    if embeds:
        check_embeds(embeds)
    if flags & IS_COMPONENTS_V2 and (content or embeds):
        raise form_error("content" if content else "embeds",
                         "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                         "The 'content' and 'embeds' fields cannot be used when using the "
                         "IS_COMPONENTS_V2 flag")
    components = payload.get("components")
    if components:
        check_components(components, v2=bool(flags & IS_COMPONENTS_V2))


def check_edit(current: Mapping[str, Any], body: Mapping[str, Any], *, files: int = 0) -> None:
    """An edit's body, and the message it leaves (``current``'s fields with the body's over
    them): Discord refuses an edit that would leave the message empty."""
    check_message(body, files=files, partial=True)
    if is_empty({**current, **body}, files):
        raise empty_message()


def check_embeds(embeds: Sequence[Mapping[str, Any]]) -> None:
    if len(embeds) > EMBEDS_MAX:
        raise too_long("embeds", EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        at = f"embeds.{i}"
        check_length(f"{at}.title", embed.get("title"), 256)
        check_length(f"{at}.description", embed.get("description"), 4096)
        footer = embed.get("footer") or {}
        check_length(f"{at}.footer.text", footer.get("text"), 2048, need="footer" in embed)
        author = embed.get("author") or {}
        check_length(f"{at}.author.name", author.get("name"), 256, need="author" in embed)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise too_long(f"{at}.fields", 25)
        for j, fld in enumerate(fields):
            check_length(f"{at}.fields.{j}.name", fld.get("name"), 256, need=True)
            check_length(f"{at}.fields.{j}.value", fld.get("value"), 1024, need=True)
            total += len(fld["name"]) + len(fld["value"])
        total += sum(len(x or "") for x in (embed.get("title"), embed.get("description"),
                                            footer.get("text"), author.get("name")))
    if total > EMBED_TOTAL_MAX:
        raise form_error("embeds", "MAX_EMBED_SIZE_EXCEEDED",
                         f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


def check_components(components: Sequence[Mapping[str, Any]], *, v2: bool = False) -> None:
    """Message components: action rows of at most five buttons or one select; every
    ``custom_id`` at most 100 characters and unique within the message."""
    seen: dict[str, str] = {}
    if not v2 and len(components) > ROWS_MAX:
        raise too_long("components", ROWS_MAX)
    count = 0
    for i, component in enumerate(components):
        if not v2 and component.get("type") != 1:
            raise form_error(f"components.{i}.type", "UNION_TYPE_CHOICES",
                             "Value of field \"type\" must be one of (1,).")
        count += _check_component(component, f"components.{i}", seen)
    if v2 and count > V2_TOTAL_MAX:
        raise form_error("components", "MAX_COMPONENTS_EXCEEDED",
                         f"Must be {V2_TOTAL_MAX} or fewer in total.")


def _custom_id(component: Mapping[str, Any], at: str, seen: dict[str, str]) -> None:
    custom_id = str(component.get("custom_id") or "")
    check_length(f"{at}.custom_id", custom_id, 100, need=True)
    if custom_id in seen:
        raise form_error(f"{at}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
                         "Component custom id cannot be duplicated")
    seen[custom_id] = at


def _check_component(component: Mapping[str, Any], at: str, seen: dict[str, str]) -> int:
    """Checks one component and what it holds; returns how many components that makes."""
    kind = component.get("type")
    if kind == 1:
        children = component.get("components") or []
        if not 1 <= len(children) <= ROW_WIDTH:
            raise bad_length(f"{at}.components", 1, ROW_WIDTH)
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if selects and len(children) > 1:
            raise form_error(f"{at}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                             "The specified component exceeds the maximum width")
        return 1 + sum(_check_component(c, f"{at}.components.{j}", seen)
                       for j, c in enumerate(children))
    if kind == 2:
        check_length(f"{at}.label", component.get("label"), 80)
        style = component.get("style")
        if style == 5:
            check_length(f"{at}.url", component.get("url"), 512, need=True)
            if "custom_id" in component:
                raise form_error(f"{at}.custom_id", "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                                 "A custom id is not allowed on a link button")
        elif style != 6:
            _custom_id(component, at, seen)
        return 1
    if kind in SELECT_TYPES:
        _custom_id(component, at, seen)
        check_length(f"{at}.placeholder", component.get("placeholder"), 150)
        options = component.get("options") or []
        if kind == 3 and not 1 <= len(options) <= 25:
            raise bad_length(f"{at}.options", 1, 25)
        for j, option in enumerate(options):
            check_length(f"{at}.options.{j}.label", option.get("label"), 100, need=True)
            check_length(f"{at}.options.{j}.value", option.get("value"), 100, need=True)
            check_length(f"{at}.options.{j}.description", option.get("description"), 100)
        return 1
    if kind == 4:
        raise form_error(f"{at}.type", "COMPONENT_TYPE_INVALID",
                         "Text inputs are only allowed in modals")
    # Components v2 containers (section 9, container 17) and leaves (text display 10,
    # thumbnail 11, gallery 12, file 13, separator 14).
    inner = list(component.get("components") or [])
    if component.get("accessory"):
        inner.append(component["accessory"])
    return 1 + sum(_check_component(c, f"{at}.components.{j}", seen)
                   for j, c in enumerate(inner))


def check_modal(data: Mapping[str, Any]) -> None:
    """A modal (interaction response type 9): title at most 45, one to five children, each a
    Label (type 18, discord.py 2.6+) around an input, a legacy action row holding one text
    input, or a text display."""
    check_length("data.title", data.get("title"), 45, need=True)
    check_length("data.custom_id", data.get("custom_id"), 100, need=True)
    children = data.get("components") or []
    if not 1 <= len(children) <= 5:
        raise bad_length("data.components", 1, 5)
    seen: dict[str, str] = {}
    for i, child in enumerate(children):
        at = f"data.components.{i}"
        kind = child.get("type")
        if kind == 18:
            check_length(f"{at}.label", child.get("label"), 45, need=True)
            check_length(f"{at}.description", child.get("description"), 100)
            inner = child.get("component")
            if not isinstance(inner, Mapping):
                raise required(f"{at}.component")
            _check_modal_input(inner, f"{at}.component", seen, in_label=True)
        elif kind == 1:
            inputs = child.get("components") or []
            if len(inputs) != 1:
                raise bad_length(f"{at}.components", 1, 1)
            _check_modal_input(inputs[0], f"{at}.components.0", seen, in_label=False)
        elif kind == 10:
            check_length(f"{at}.content", child.get("content"), 4000, need=True)
        else:
            raise form_error(f"{at}.type", "COMPONENT_TYPE_INVALID",
                             "This component type is not allowed in a modal")


def _check_modal_input(component: Mapping[str, Any], at: str, seen: dict[str, str], *,
                       in_label: bool) -> None:
    kind = component.get("type")
    if kind in SELECT_TYPES:
        if not in_label:
            raise form_error(f"{at}.type", "COMPONENT_TYPE_INVALID",
                             "Select menus in modals must be inside a label")
        _check_component(component, at, seen)
        return
    if kind == 19:  # file upload
        _custom_id(component, at, seen)
        return
    if kind != 4:
        raise form_error(f"{at}.type", "COMPONENT_TYPE_INVALID",
                         "This component type is not allowed in a modal")
    _custom_id(component, at, seen)
    label = component.get("label")
    if in_label:
        check_length(f"{at}.label", label, 45)
    else:
        check_length(f"{at}.label", label, 45, need=True)
    check_length(f"{at}.placeholder", component.get("placeholder"), 100)
    check_length(f"{at}.value", component.get("value"), 4000)
    if component.get("style") not in (1, 2):
        raise form_error(f"{at}.style", "UNION_TYPE_CHOICES",
                         "Value of field \"style\" must be one of (1, 2).")
    low, high = component.get("min_length"), component.get("max_length")
    if low is not None and not 0 <= low <= 4000:
        raise form_error(f"{at}.min_length", "NUMBER_TYPE_MAX", "int value should be <= 4000.")
    if high is not None and not 1 <= high <= 4000:
        raise form_error(f"{at}.max_length", "NUMBER_TYPE_MAX", "int value should be <= 4000.")


def check_commands(commands: Sequence[Mapping[str, Any]]) -> None:
    """A bulk overwrite of application commands: names (1-32, lowercase for slash commands),
    descriptions (1-100), at most 25 options or choices, required options first."""
    if len([c for c in commands if c.get("type", 1) == 1]) > 100:
        raise too_long("", 100)
    names: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        kind = int(command.get("type", 1))
        key = (kind, str(command.get("name")))
        if key in names:
            raise form_error(f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME",
                             f"Application command names must be unique: {key[1]}")
        names.add(key)
        _check_command_node(command, str(i), slash=kind == 1)


def _check_command_node(node: Mapping[str, Any], at: str, *, slash: bool) -> None:
    name = node.get("name")
    check_length(f"{at}.name", name, 32, need=True)
    if slash and name != str(name).lower():
        raise form_error(f"{at}.name", "APPLICATION_COMMAND_INVALID_NAME",
                         "Command name is invalid")
    if slash:
        check_length(f"{at}.description", node.get("description"), 100, need=True)
    options = node.get("options") or []
    if len(options) > 25:
        raise too_long(f"{at}.options", 25)
    seen: set[str] = set()
    optional_seen = False
    for j, option in enumerate(options):
        where = f"{at}.options.{j}"
        if option.get("name") in seen:
            raise form_error(f"{where}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                             "Option names must be unique")
        seen.add(option.get("name"))
        if option.get("type") in (1, 2):
            _check_command_node(option, where, slash=True)
            continue
        _check_command_node({**option, "options": []}, where, slash=True)
        if option.get("required"):
            if optional_seen:
                raise form_error(f"{where}.required",
                                 "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                 "Required options must be placed before non-required options")
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            raise too_long(f"{where}.choices", 25)
        for k, choice in enumerate(choices):
            check_length(f"{where}.choices.{k}.name", choice.get("name"), 100, need=True)
            if isinstance(choice.get("value"), str):
                check_length(f"{where}.choices.{k}.value", choice["value"], 100)


def check_choices(choices: Sequence[Mapping[str, Any]]) -> None:
    """An autocomplete answer (interaction response type 8): at most 25 choices, each with a
    name of 1-100 characters and a value (a string at most 100)."""
    if len(choices) > 25:
        raise too_long("data.choices", 25)
    for i, choice in enumerate(choices):
        check_length(f"data.choices.{i}.name", choice.get("name"), 100, need=True)
        if "value" not in choice:
            raise required(f"data.choices.{i}.value")
        if isinstance(choice["value"], str):
            check_length(f"data.choices.{i}.value", choice["value"], 100)

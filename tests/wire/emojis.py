"""An application's own emojis (``/applications/{application_id}/emojis``), as Discord keeps
and refuses them: a name of 2-32 letters, digits and underscores, unique in the application;
an image as a data URI of a PNG, JPEG, GIF, WebP or AVIF of at most 256 KiB; at most 2,000
emojis. They belong to the world, not to a connected bot: a bot that restarts (a new bot on
the same world) lists what the last one uploaded.

Refusals, in Discord's JSON error shape:

- a bad name or image: 400, 50035 «Invalid Form Body», the field's error nested under its name
  (``BASE_TYPE_REQUIRED``, ``BASE_TYPE_BAD_LENGTH``, ``STRING_TYPE_REGEX``, ``IMAGE_INVALID``,
  ``BINARY_TYPE_MAX_SIZE`` «File cannot be larger than 256.0 kb.»; a name taken,
  ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``, the code seen from Discord, its wording ours);
- the 2,001st emoji: 400, 30008 «Maximum number of emojis reached (2000)»;
- an unknown emoji: 404, 10014; another application's emojis: 403, 50001.

Discord limits these routes apart from the others (per application, undocumented figures); the
double does not model that limit: :meth:`wire.FakeDiscord.fail` makes a route answer 429, 403 or
5xx when a test needs it.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import errors
from .errors import WireError, form_error
from .payloads import user_payload
from .rest import NO_CONTENT, rest
from .routing import Reply, Request

if TYPE_CHECKING:
    from .fake import FakeDiscord

MAX_EMOJIS = 2000
IMAGE_MAX = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]+")
DATA_URI = re.compile(r"data:(image/(?:png|jpeg|jpg|gif|webp|avif));base64,(.*)", re.DOTALL)
SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"RIFF")
UNKNOWN_EMOJI = 10014
MAX_EMOJIS_REACHED = 30008


@dataclass
class FakeEmoji:
    id: int
    name: str
    image: bytes
    animated: bool = False


def emoji_payload(world: FakeDiscord, emoji: FakeEmoji) -> dict[str, Any]:
    return {"id": str(emoji.id), "name": emoji.name, "roles": [], "require_colons": True,
            "managed": False, "animated": emoji.animated, "available": True,
            "user": user_payload(world.bot_user)}


def _own(world: FakeDiscord, req: Request) -> None:
    if req.id("application_id") != world.application_id:
        raise WireError(403, errors.MISSING_ACCESS, "Missing Access")


def _emoji(world: FakeDiscord, req: Request) -> FakeEmoji:
    _own(world, req)
    found = world.app_emojis.get(req.id("emoji_id"))
    if found is None:
        raise WireError(404, UNKNOWN_EMOJI, "Unknown Emoji")
    return found


def check_name(world: FakeDiscord, name: Any, *, other_than: int | None = None) -> str:
    if name is None or name == "":
        raise errors.required("name")
    if not isinstance(name, str):
        raise form_error("name", "BASE_TYPE_STRING", "Must be a string.")
    if not 2 <= len(name) <= 32:
        raise errors.bad_length("name", 2, 32)
    if not NAME.fullmatch(name):
        raise form_error("name", "STRING_TYPE_REGEX",
                         "String value did not match validation regex.")
    if any(e.name == name and e.id != other_than for e in world.app_emojis.values()):
        raise form_error("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                         "Emoji name already taken.")
    return name


def check_image(image: Any) -> tuple[bytes, bool]:
    """The image's bytes and whether it is animated (a GIF), or the refusal Discord gives."""
    if image is None or image == "":
        raise errors.required("image")
    found = DATA_URI.fullmatch(image) if isinstance(image, str) else None
    if found is None:
        raise form_error("image", "IMAGE_INVALID", "Invalid image data")
    try:
        data = base64.b64decode(found.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise form_error("image", "IMAGE_INVALID", "Invalid image data") from None
    if len(data) > IMAGE_MAX:
        raise form_error("image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    if not data.startswith(SIGNATURES):
        raise form_error("image", "IMAGE_INVALID", "Invalid image data")
    return data, data.startswith(b"GIF")


@rest("GET /applications/{application_id}/emojis")
def list_emojis(world: FakeDiscord, req: Request) -> Reply:
    _own(world, req)
    return 200, {"items": [emoji_payload(world, e) for e in world.app_emojis.values()]}


@rest("GET /applications/{application_id}/emojis/{emoji_id}")
def get_emoji(world: FakeDiscord, req: Request) -> Reply:
    return 200, emoji_payload(world, _emoji(world, req))


@rest("POST /applications/{application_id}/emojis")
def create_emoji(world: FakeDiscord, req: Request) -> Reply:
    _own(world, req)
    body = req.body()
    name = check_name(world, body.get("name"))
    data, animated = check_image(body.get("image"))
    if len(world.app_emojis) >= MAX_EMOJIS:
        raise WireError(400, MAX_EMOJIS_REACHED,
                        f"Maximum number of emojis reached ({MAX_EMOJIS})")
    emoji = FakeEmoji(world.ids.next(), name, data, animated)
    world.app_emojis[emoji.id] = emoji
    return 201, emoji_payload(world, emoji)


@rest("PATCH /applications/{application_id}/emojis/{emoji_id}")
def edit_emoji(world: FakeDiscord, req: Request) -> Reply:
    emoji = _emoji(world, req)
    body = req.body()
    if "name" in body:
        emoji.name = check_name(world, body["name"], other_than=emoji.id)
    return 200, emoji_payload(world, emoji)


@rest("DELETE /applications/{application_id}/emojis/{emoji_id}")
def delete_emoji(world: FakeDiscord, req: Request) -> Reply:
    emoji = _emoji(world, req)
    del world.app_emojis[emoji.id]
    return NO_CONTENT

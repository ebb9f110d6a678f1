"""Interactions as Discord answers them: the initial response (``POST /interactions/{id}/
{token}/callback``: exactly one, within 3 s) and the interaction webhook (followups and
``messages/@original``: for 15 minutes). Also the fake webhook adapter that carries
discord.py's interaction calls here instead of to the network."""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any

from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from . import errors, limits
from .errors import UnsupportedRoute, WireError, form_error
from .payloads import is_ephemeral, message_payload
from .routing import Reply, Request, Router
from .state import LOADING, Answer, FakeInteraction, FakeMessage

if TYPE_CHECKING:
    from .fake import FakeDiscord

RESPONSE_WINDOW = 3.0
TOKEN_LIFETIME = 15 * 60.0
COMPONENT, MODAL_SUBMIT, APP_COMMAND, AUTOCOMPLETE = 3, 5, 2, 4

webhooks = Router()


@webhooks("POST /interactions/{webhook_id}/{webhook_token}/callback")
def callback(world: FakeDiscord, req: Request) -> Reply:
    inter = world.interactions.get(req.id("webhook_id"))
    if inter is None or inter.token != req.params["webhook_token"]:
        raise WireError(404, errors.UNKNOWN_INTERACTION, "Unknown interaction")
    body = req.body()
    kind = int(body.get("type", 0))
    try:
        answer = _respond(world, inter, kind, body.get("data") or {}, req)
    except WireError as refused:
        inter.attempts.append(Answer(world.now(), kind, body.get("data"), refused.status,
                                      refused.code))
        raise
    inter.attempts.append(Answer(world.now(), kind, body.get("data"), answer[0]))
    return answer


def _respond(world: FakeDiscord, inter: FakeInteraction, kind: int, data: dict[str, Any],
             req: Request) -> Reply:
    if inter.responses:
        raise WireError(400, errors.ALREADY_ACKNOWLEDGED,
                        "Interaction has already been acknowledged.")
    if world.now() - inter.created_at > RESPONSE_WINDOW:
        raise WireError(404, errors.UNKNOWN_INTERACTION, "Unknown interaction")
    on_message = inter.type == COMPONENT or (inter.type == MODAL_SUBMIT
                                             and inter.message_id is not None)
    msg: FakeMessage | None = None
    if inter.type == AUTOCOMPLETE and kind != 8:
        raise form_error("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                         "An autocomplete interaction is answered with choices only")
    if kind == 4:
        limits.check_message(data, files=len(req.files))
        msg = _new_message(world, inter, data, req, loading=False)
    elif kind == 5:
        msg = _new_message(world, inter, {"flags": data.get("flags")}, req, loading=True)
        inter.deferred_ephemeral = msg.ephemeral
    elif kind in (6, 7):
        if not on_message:
            raise form_error("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                             "This response type is only valid for component interactions")
        assert inter.message_id is not None
        msg = world.messages_by_id[inter.message_id]
        if kind == 7:
            limits.check_edit({"content": msg.content, "embeds": msg.embeds,
                               "components": msg.components}, data, files=len(req.files))
            world.edit(msg, data, req.files, via="interaction")
            _echo_update(world, msg)
    elif kind == 8:
        if inter.type != AUTOCOMPLETE:
            raise form_error("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                             "Autocomplete results answer autocomplete interactions only")
        limits.check_choices(data.get("choices") or [])
    elif kind == 9:
        if inter.type == MODAL_SUBMIT:
            raise form_error("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                             "A modal cannot answer a modal submit")
        limits.check_modal(data)
        inter.modal = dict(data)
    else:
        raise UnsupportedRoute(f"interaction callback type {kind} is not modelled")
    if msg is not None:
        inter.original_id = msg.id
    if req.query.get("with_response") not in ("1", 1, True, "true"):
        return 204, ""
    result: dict[str, Any] = {"interaction": {
        "id": str(inter.id), "type": inter.type,
        "response_message_loading": kind == 5,
        "response_message_ephemeral": bool(msg and msg.ephemeral)}}
    if msg is not None:
        result["interaction"]["response_message_id"] = str(msg.id)
        if kind != 6:
            result["resource"] = {"type": kind, "message": message_payload(world, msg)}
    return 200, result


def _new_message(world: FakeDiscord, inter: FakeInteraction, data: dict[str, Any],
                 req: Request, *, loading: bool) -> FakeMessage:
    channel = world.channels[inter.channel_id]
    ephemeral = is_ephemeral(data.get("flags"))
    msg = world.post(channel, world.bot_user.id, data, req.files,
                     ephemeral_for=inter.user_id if ephemeral else None,
                     interaction_id=inter.id, webhook_id=world.application_id,
                     type=20 if inter.type == APP_COMMAND else 0)
    if loading:
        msg.flags |= LOADING
    if not ephemeral:
        world.emit("MESSAGE_CREATE", message_payload(world, msg, gateway=True), channel)
    return msg


def _echo_update(world: FakeDiscord, msg: FakeMessage) -> None:
    if not msg.ephemeral:
        world.emit("MESSAGE_UPDATE", message_payload(world, msg, gateway=True),
                   world.channels[msg.channel_id])


def _interaction(world: FakeDiscord, req: Request) -> FakeInteraction:
    """The interaction behind a webhook token: unknown or older than 15 minutes → 401/50027;
    not answered yet → the webhook does not exist (404/10015)."""
    if req.id("webhook_id") != world.application_id:
        raise errors.unknown("webhook")
    inter = world.by_token.get(req.params["webhook_token"])
    if inter is None or world.now() - inter.created_at > TOKEN_LIFETIME:
        raise WireError(401, errors.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
    if not inter.responses:
        raise errors.unknown("webhook")
    return inter


def _target(world: FakeDiscord, inter: FakeInteraction, req: Request) -> FakeMessage:
    raw = req.params.get("message_id", "@original")
    wanted = inter.original_id if raw == "@original" else int(raw)
    if wanted is None or (wanted != inter.original_id and wanted not in inter.followup_ids):
        raise errors.unknown("message")
    msg = world.messages_by_id[wanted]
    if msg.deleted:
        raise errors.unknown("message")
    return msg


@webhooks("POST /webhooks/{webhook_id}/{webhook_token}")
def followup(world: FakeDiscord, req: Request) -> Reply:
    """A followup. The first one after a deferred («thinking») response fills that message,
    keeping the ephemerality chosen when deferring."""
    inter = _interaction(world, req)
    body = req.body()
    limits.check_message(body, files=len(req.files))
    original = inter.original
    if original is not None and original.loading and original.interaction_id == inter.id:
        world.edit(original, body, req.files, via="webhook")
        original.flags &= ~LOADING
        _echo_update(world, original)
        msg = original
    else:
        msg = _new_message(world, inter, body, req, loading=False)
        inter.followup_ids.append(msg.id)
    if str(req.query.get("wait", "0")).lower() in ("0", "false"):
        return 204, ""
    return 200, message_payload(world, msg)


@webhooks("GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
          "GET /webhooks/{webhook_id}/{webhook_token}/messages/@original")
def get_webhook_message(world: FakeDiscord, req: Request) -> Reply:
    inter = _interaction(world, req)
    return 200, message_payload(world, _target(world, inter, req))


@webhooks("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
          "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")
def edit_webhook_message(world: FakeDiscord, req: Request) -> Reply:
    inter = _interaction(world, req)
    msg = _target(world, inter, req)
    body = req.body()
    limits.check_edit({"content": msg.content, "embeds": msg.embeds,
                       "components": msg.components, "attachments": msg.attachments},
                      body, files=len(req.files))
    world.edit(msg, body, req.files, via="webhook")
    msg.flags &= ~LOADING
    _echo_update(world, msg)
    return 200, message_payload(world, msg)


@webhooks("DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
          "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original")
def delete_webhook_message(world: FakeDiscord, req: Request) -> Reply:
    inter = _interaction(world, req)
    msg = _target(world, inter, req)
    world.delete(msg)
    if not msg.ephemeral:
        channel = world.channels[msg.channel_id]
        data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        world.emit("MESSAGE_DELETE", data, channel)
    return 204, ""


class FakeWebhookAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter, answering from the world instead of the network."""

    def __init__(self, world: FakeDiscord) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.world = world

    async def request(self, route: Route, session: Any = None, *, payload: Any = None,
                      multipart: Any = None, proxy: Any = None, proxy_auth: Any = None,
                      files: Any = None, reason: str | None = None,
                      auth_token: str | None = None, params: Any = None) -> Any:
        return await self.world.recorder.webhook(route, payload=payload, multipart=multipart,
                                                 files=files, params=params)


# The context variable's default adapter serves every context where the double did not set
# its own (a task started before ``connect``, a clock alarm's callback): while any world is
# attached it is patched to forward to the world that issued the token, never the network.
_DEFAULT: AsyncWebhookAdapter = contextvars.Context().run(async_context.get)
_ATTACHED: list[FakeDiscord] = []


def _prune() -> None:
    """Forgets worlds whose bots were all closed without ``disconnect`` (a failed test's), so
    they cannot answer for the next test's world."""
    for world in list(_ATTACHED):
        if all(bot.is_closed() for bot in world.attached_bots()):
            for bot in world.attached_bots():
                world.detach(bot)
            if world in _ATTACHED:
                _ATTACHED.remove(world)


async def _forward(route: Route, session: Any = None, **kwargs: Any) -> Any:
    _prune()
    for world in _ATTACHED:
        if route.webhook_token in world.by_token or route.webhook_id in world.interactions:
            return await world.adapter.request(route, session, **kwargs)
    if len(_ATTACHED) == 1:
        return await _ATTACHED[0].adapter.request(route, session, **kwargs)
    raise UnsupportedRoute(f"webhook request {route.method} {route.path} outside any "
                           "attached FakeDiscord: refused, tests have no network")


def install_default(world: FakeDiscord) -> None:
    _prune()
    if world not in _ATTACHED:
        _ATTACHED.append(world)
    _DEFAULT.request = _forward  # type: ignore[method-assign]


def uninstall_default(world: FakeDiscord) -> None:
    if world in _ATTACHED:
        _ATTACHED.remove(world)
    if not _ATTACHED and "request" in vars(_DEFAULT):
        del _DEFAULT.request

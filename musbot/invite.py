"""``musbot invite``: the OAuth2 URL that adds the bot to a server, asking only for what it uses.

Permissions, and why each one (nothing else: no Manage Messages, the bot only deletes its own
messages; no External Emojis, the card suits are Unicode emoji):

- View Channels: see the channel a table is opened in;
- Send Messages, Send Messages in Threads: the game is spoken in the channel, or in a thread;
- Embed Links: the table message is an embed;
- Attach Files: the rating chart of ``/mus perfil``, a showdown's picture, the brackets;
- Read Message History: answering a typed move replies to that message;
- Create Public Threads: a tournament plays each match in a thread of its own;
- Create Private Threads: a tournament without spectators plays them in private threads, seen
  by the match's players and its organiser alone.

No Add Reactions: a typed move is acknowledged by the table message itself, within a second,
and a reaction per move would spend a call of the bot's budget on each (a typed ``!mus``
command is answered by a short reply that deletes itself).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from urllib.parse import urlencode

from musbot.console import cli_language, discord_id, id_problem
from musbot.i18n import CLI, SERVER

AUTHORIZE_URL = "https://discord.com/oauth2/authorize"
SCOPES = ("bot", "applications.commands")
CLIENT_ID_ENV = "DISCORD_CLIENT_ID"

PERMISSIONS: Mapping[str, int] = {
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}
"""Discord's permission bits, by discord.py's attribute names (a test checks them against it)."""

REQUIRED_PERMISSIONS = sum(PERMISSIONS.values())


class InvalidClientId(ValueError):
    """Not an application id: a Discord snowflake, 17 to 20 of the digits 0-9, at most 2⁶⁴ − 1
    (:func:`~musbot.console.id_problem` says which of these it is not)."""

    def __init__(self, text: str, key: str, params: dict[str, object]) -> None:
        super().__init__(text)
        self.key, self.params = key, params


def invite_url(client_id: int | str, permissions: int = REQUIRED_PERMISSIONS,
               guild_id: int | None = None) -> str:
    """The authorize URL with exactly the scopes ``bot applications.commands``; ``guild_id``
    preselects a server in Discord's dialog."""
    text = str(client_id).strip()
    problem = id_problem(text)
    if problem is not None:
        raise InvalidClientId(text, *problem)
    params: dict[str, str] = {"client_id": text, "permissions": str(int(permissions)),
                              "scope": " ".join(SCOPES)}
    if guild_id is not None:
        params["guild_id"] = str(guild_id)
    return f"{AUTHORIZE_URL}?{urlencode(params)}"


def add_invite_arguments(parser: argparse.ArgumentParser, lang: str | None = None) -> None:
    from musbot.config import add_env_file_option

    lang = lang or cli_language([])
    parser.add_argument("client_id", nargs="?", default=None, metavar=CLI("id", lang),
                        help=CLI("client_id", lang))
    parser.add_argument("--guild", type=discord_id(lang), default=None,
                        metavar=CLI("id", lang),
                        help=CLI("guild", lang))
    add_env_file_option(parser, lang)


def client_id_from(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> str | None:
    """The argument, else the environment, else the environment file (like ``musbot run``'s
    token). Raises :class:`~musbot.config.ConfigError` for an ``--env-file`` that is not there."""
    from musbot.config import env_file_from, env_values

    env_file = env_file_from(args)
    if args.client_id:
        return str(args.client_id)
    if environ.get(CLIENT_ID_ENV):
        return environ[CLIENT_ID_ENV]
    value = env_values(env_file).get(CLIENT_ID_ENV) if env_file is not None else None
    return value or None


def run_invite(args: argparse.Namespace) -> int:
    """Prints the URL (exit 0), or says where the client id comes from (exit 2)."""
    from musbot.config import ConfigError

    lang = getattr(args, "idioma", None) or cli_language()
    try:
        client_id = client_id_from(args)
    except ConfigError as problem:
        print(problem.message(lang), file=sys.stderr)
        return 2
    if client_id is None:
        print(SERVER("invite_no_client_id", lang), file=sys.stderr)
        return 2
    try:
        print(invite_url(client_id, guild_id=args.guild))
    except InvalidClientId as bad:
        reason = CLI(bad.key, lang, **bad.params)
        print(SERVER("invite_bad_client_id", lang, reason=reason), file=sys.stderr)
        return 2
    return 0

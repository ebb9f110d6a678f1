"""``musbot invite``: exactly the scopes and the permissions the bot uses."""

from __future__ import annotations

import argparse
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from musbot.invite import (
    PERMISSIONS,
    REQUIRED_PERMISSIONS,
    InvalidClientId,
    add_invite_arguments,
    invite_url,
    run_invite,
)

CLIENT = "123456789012345678"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_invite_arguments(parser)
    return parser.parse_args(argv)


def test_url_has_exactly_the_two_scopes_and_minimal_permissions() -> None:
    url = urlsplit(invite_url(CLIENT))
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    query = parse_qs(url.query)
    assert query["client_id"] == [CLIENT]
    assert query["scope"] == ["bot applications.commands"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert {name for name, on in granted if on} == {
        "read_messages", "send_messages", "send_messages_in_threads", "embed_links",
        "attach_files", "read_message_history", "create_public_threads",
        "create_private_threads"}
    assert granted.view_channel  # discord.py iterates it under its old name, read_messages
    assert not granted.manage_messages and not granted.administrator
    assert not granted.add_reactions, "a typed move is answered by the table message itself"


def test_bits_are_discords() -> None:
    assert discord.Permissions(REQUIRED_PERMISSIONS) == discord.Permissions(
        **dict.fromkeys(PERMISSIONS, True))


def test_guild_preselection_and_bad_ids() -> None:
    assert "guild_id=42" in invite_url(CLIENT, guild_id=42)
    for bad in ("", "abc", "12", "1234567890123456789012345"):
        with pytest.raises(InvalidClientId):
            invite_url(bad)


def test_cli_prefers_argument_then_environment(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("DISCORD_CLIENT_ID", "223456789012345678")
    assert run_invite(parse([CLIENT])) == 0
    assert f"client_id={CLIENT}" in capsys.readouterr().out
    assert run_invite(parse([])) == 0
    assert "client_id=223456789012345678" in capsys.readouterr().out
    monkeypatch.delenv("DISCORD_CLIENT_ID")
    env = tmp_path / ".env"
    env.write_text("DISCORD_CLIENT_ID=323456789012345678\n")
    assert run_invite(parse(["--env-file", str(env)])) == 0
    assert "client_id=323456789012345678" in capsys.readouterr().out


def test_cli_explains_a_missing_or_bad_id(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert run_invite(parse([])) == 2
    assert "DISCORD_CLIENT_ID" in capsys.readouterr().err
    assert run_invite(parse(["not-a-number"])) == 2
    assert "no es un id" in capsys.readouterr().err


@pytest.mark.parametrize(("given", "reason"), [
    ("9" * 29, "un id de Discord tiene de 17 a 20 cifras, y «" + "9" * 29 + "» tiene 29"),
    ("18446744073709551616", "un id de Discord es como mucho 18446744073709551615 (2⁶⁴ − 1), "
                             "no «18446744073709551616»"),
    ("١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨", "un id de Discord son solo las cifras 0 a 9, no "
                           "«١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨»"),
    ("1234567890123456", "un id de Discord tiene de 17 a 20 cifras, y «1234567890123456» tiene 16"),
    ("12345678901234567a", "un id de Discord son solo las cifras 0 a 9, no «12345678901234567a»"),
])
def test_a_bad_id_is_refused_with_its_real_reason(given: str, reason: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42: 29 nines were refused «(son solo cifras)», which they are; 2⁶⁴ and
    Arabic-Indic digits (``\\d`` matches them) made a URL Discord refuses."""
    args = parse([given])
    args.idioma = "es"
    assert run_invite(args) == 2
    assert capsys.readouterr().err == f"musbot invite: no es un id de aplicación: {reason}.\n"


def test_the_largest_and_smallest_ids_are_taken() -> None:
    for edge in ("18446744073709551615", "10000000000000000"):
        assert f"client_id={edge}" in invite_url(edge)

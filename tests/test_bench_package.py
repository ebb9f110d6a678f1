"""The benchmarks are a package of their own: the bot and its layers never import them."""

from __future__ import annotations

import subprocess
import sys


def test_the_runtime_does_not_import_the_benchmarks() -> None:
    code = (
        "import sys, pkgutil, importlib, cogs\n"
        "import musbot.bot, musbot.discordio, musbot.table, musbot.storage, musbot.terminal\n"
        "for m in pkgutil.iter_modules(cogs.__path__):\n"
        "    importlib.import_module(f'cogs.{m.name}')\n"
        "print(sorted(n for n in sys.modules if n.startswith('musbot.bench')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_the_memory_stand_ins_live_apart_from_the_product() -> None:
    import importlib.util

    assert importlib.util.find_spec("musbot.discordio.memory") is None
    assert importlib.util.find_spec("musbot.bench.memory") is None
    assert importlib.util.find_spec("musbot.testing.memory") is not None


def _loaded_by(argv: list[str]) -> list[str]:
    """Whether ``musbot ARGV`` loaded discord.py, and which bench modules (a fresh process)."""
    code = ("import sys, contextlib, io\nfrom musbot.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    with contextlib.suppress(SystemExit):\n"
            f"        main({argv!r})\n"
            "print('discord' in sys.modules, sorted(n for n in sys.modules"
            " if n.startswith(('musbot.bench', 'musbot.testing'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return done.stdout.strip().split(" ", 1)


def test_the_command_line_loads_the_benchmarks_only_for_bench() -> None:
    """Issue 45: ``musbot --help`` and every other command import no bench module (nor
    discord.py); ``musbot bench --help`` builds the benchmarks' options, their modules
    loaded then, and what they need of discord.py is imported when one runs."""
    for argv in (["--help"], ["play", "--help"], ["--idioma", "eu", "replay", "--help"],
                 ["db", "--help"]):
        assert _loaded_by(argv) == ["False", "[]"], argv
    loaded, modules = _loaded_by(["--idioma", "fr", "bench", "--help"])
    assert loaded == "False" and "'musbot.bench.budget'" in modules
    assert "musbot.testing" not in modules

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


def test_the_memory_stand_ins_live_with_the_benchmarks() -> None:
    import importlib.util

    assert importlib.util.find_spec("musbot.discordio.memory") is None
    assert importlib.util.find_spec("musbot.bench.memory") is not None


def test_the_command_line_starts_without_discord() -> None:
    """Every ``musbot`` command builds the whole parser, the benchmarks' included: what they
    need of discord.py and the table layer is imported when one runs."""
    code = ("import sys\nfrom musbot.cli import build_parser\nbuild_parser('es')\n"
            "print('discord' in sys.modules, 'musbot.bench.budget' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "True"]

"""Stand-ins of discord.py for harnesses that drive the real layers without a network: the
benchmarks use them (``musbot bench load|discord``). The bot, its cogs and its layers never
import this package (``tests/test_bench_package.py``); the tests' own double of Discord, which
answers as Discord does over HTTP, lives with the tests (``tests/wire``).

- :mod:`~musbot.testing.memory`: in-memory channels, messages and interactions that count
  every call by route and channel instead of sending it.
"""

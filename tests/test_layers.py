"""The architecture the tree tells (docs: STYLE, «For this project»), checked on the source: every
``import x`` and ``from x import y`` of every file, at module level or inside a function (a lazy
import counts like any other), read with ``ast`` rather than by importing anything.

The rules:

- **The engine** (``musbot/engine``) is pure: it imports only itself and the standard library
  modules in :data:`ENGINE_STDLIB` (so nothing of ``musbot.table``, ``musbot.storage``,
  ``musbot.i18n``, ``musbot.discordio``, ``musbot.ai``, ``discord`` or ``cogs``), has no ``async``
  code, calls none of ``open``, ``print``, ``input``, and uses ``os`` for ``os.urandom`` alone
  (the secure shuffle's entropy).
- **The tournament's core** (``musbot/tournament``) is pure (no I/O, no asyncio, no Discord, no
  storage); its runner, ``musbot/tournament/live``, is the adapter that the core never imports.
- **Small modules**: none in ``musbot/table`` or ``musbot/tournament`` over 400 lines.
- **The table layer** (``musbot/table``) imports nothing of ``discord``, ``musbot.discordio`` or
  ``cogs``: a terminal or a test drives a table without Discord.
- **The Discord adapters** (``cogs/`` and ``musbot/discordio``) hold no rule logic: they reach the
  game through the table layer and the grammar (``musbot.grammar``). Of the engine they import
  only from the package ``musbot.engine`` itself, never a submodule, and only the names in
  :data:`ADAPTER_ENGINE_NAMES`: the rules a table is opened with, the error classes, actions and
  their constructors; ``musbot/discordio`` may also read a seat's view (``SeatView``). Never a
  hand, a match, the evaluation tables or the señas logic.
- **No import circle** at run time, lazy imports included, among modules nor among packages
  (``musbot.table``, ``musbot.coach``…: a feature's modules import another's one way). The
  review (``musbot/coach``) reaches nothing of the table or of Discord, for mypy either.
  Counting the imports read by mypy alone (``if TYPE_CHECKING:``) too, only the circles of
  :data:`KNOWN_CIRCLES`, each with why.
- **The Discord adapter and the bot in layers** (:data:`DISCORD_LAYERS`): each module of
  ``musbot/discordio`` and ``musbot/bot`` imports only from layers below its own, for mypy too;
  ``musbot/discordio`` names nothing of the bot or the cogs.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

ENGINE_STDLIB = frozenset({
    "__future__", "typing", "collections", "collections.abc", "dataclasses", "enum",
    "functools", "itertools", "math", "random", "secrets", "struct", "os", "unicodedata",
})
"""Pure computation, plus the two sources of randomness the engine shuffles with."""

ADAPTER_ENGINE_NAMES = frozenset({
    "Rules",
    "MusError", "MalformedCommand", "IllegalAction", "NotYourTurn", "InvalidDeal", "InvalidRules",
    "Action", "ActionKind", "MUS", "NO_HAY_MUS", "PASO", "ENVIDO", "QUIERO", "NO_QUIERO",
    "ORDAGO", "MIN_ENVITE", "descarte", "envido", "mas",
})
DISCORDIO_ENGINE_NAMES = ADAPTER_ENGINE_NAMES | {"SeatView"}

KNOWN: dict[tuple[str, str], str] = {}
"""Breaches reported, not yet fixed, with why: each must still occur (a fixed one leaves)."""


@dataclass(frozen=True)
class Import:
    path: str
    """The importing file, relative to the repository."""
    line: int
    module: str
    """The module named: ``x`` of ``import x`` or of ``from x import y``, made absolute."""
    names: tuple[str, ...]
    """``y`` of ``from x import y``; empty for ``import x``."""

    def targets(self) -> list[str]:
        """Everything this import may load: the module, and ``x.y`` for each name (a name may be
        a submodule: ``from musbot import engine``)."""
        return [self.module, *(f"{self.module}.{name}" for name in self.names)]


def module_of(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path = ROOT) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module_of(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    rel = path.relative_to(root).as_posix()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(rel, node.lineno, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            found.append(Import(rel, node.lineno, module, tuple(a.name for a in node.names)))
    return found


def sources(*folders: str, root: Path = ROOT) -> list[Path]:
    return sorted(p for folder in folders for p in (root / folder).rglob("*.py"))


def within(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_imports_are_read_relative_and_lazy() -> None:
    """The reader itself: relative imports made absolute, a function's import found."""
    hand = {(i.module, i.names) for i in imports(ROOT / "musbot/engine/hand.py")}
    assert ("musbot.engine.errors", ("IllegalAction", "InvalidDeal", "NotYourTurn")) in hand
    engine = {(i.module, i.names) for i in imports(ROOT / "musbot/engine/__init__.py")}
    assert ("musbot.engine.rules", ("Rules",)) in engine
    load = {(i.module, i.names) for i in imports(ROOT / "musbot/bench/load.py")}
    assert ("musbot.table.persist", ("TablePersister",)) in load  # inside run_load


def test_the_engine_imports_only_itself_and_pure_stdlib() -> None:
    wrong = [f"{i.path}:{i.line} imports {i.module}" for p in sources("musbot/engine")
             for i in imports(p)
             if not within(i.module, "musbot.engine") and i.module not in ENGINE_STDLIB]
    assert not wrong, "\n".join(wrong)


def test_the_engine_does_no_io_and_no_asyncio() -> None:
    wrong = []
    for path in sources("musbot/engine"):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
                wrong.append(f"{rel}:{node.lineno} is async")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in {"open", "print", "input", "__import__"}:
                wrong.append(f"{rel}:{node.lineno} calls {node.func.id}")
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "os" and node.attr != "urandom":
                wrong.append(f"{rel}:{node.lineno} uses os.{node.attr}")
    assert not wrong, "\n".join(wrong)


TOURNAMENT_WORDS = ("labels.py", "text.py", "picture.py", "pages.py", "canvas.py")
"""The tournament's modules that word or draw it: they may read the i18n catalogues (and the
picture and its canvas, Matplotlib); the rest is the core."""


TOURNAMENT_LIVE = "musbot/tournament/live"
"""The tournament's runner: the adapter that plays the pure core on live tables (asyncio, the
tables, storage). It may import the core; the core never imports it."""


def test_the_tournament_core_is_pure() -> None:
    """No I/O, no asyncio, no Discord, no storage: only itself (not its runner,
    :data:`TOURNAMENT_LIVE`), the engine's rules and errors, and the standard library."""
    stdlib = ENGINE_STDLIB | {"random", "datetime"}
    live = ROOT / TOURNAMENT_LIVE
    wrong = []
    for path in sources("musbot/tournament"):
        if path.is_relative_to(live):
            continue
        words = path.name in TOURNAMENT_WORDS
        for i in imports(path):
            allowed = (within(i.module, "musbot.tournament", "musbot.engine")
                       and not within(i.module, "musbot.tournament.live")) \
                or i.module in stdlib \
                or (words and (within(i.module, "musbot.i18n", "musbot.words", "matplotlib")
                               or i.module in {"io"}))
            if not allowed:
                wrong.append(f"{i.path}:{i.line} imports {i.module}")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
                wrong.append(f"{path.name}:{node.lineno} is async")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in {"open", "print", "input", "__import__"}:
                wrong.append(f"{path.name}:{node.lineno} calls {node.func.id}")
    assert not wrong, "\n".join(wrong)


TABLE_INSIDES = frozenset({"state", "records", "match"})
"""What the tournament never reads of a table: its state, its match records, its engine match.
It hears of its tables through their notices (``musbot.table.notice.MatchNotice``) alone."""

TABLE_GETTERS = ("tables.get", "tables.open", "tables.adopt", "_own_table")
"""Calls whose answer is a live table."""


def table_reads(source: str) -> list[tuple[int, str]]:
    """(line, what) for every read of :data:`TABLE_INSIDES` of a table in ``source``: of a name
    that holds a table (named ``…table…``, annotated ``Table``, or bound to a call of
    :data:`TABLE_GETTERS`), of such a call itself, and any ``.state.records``/``.state.entry``
    (a table's state, whatever holds it)."""
    tree = ast.parse(source)
    tables: set[str] = set()

    def holds_table(node: ast.expr | None) -> bool:
        if node is None:
            return False
        if isinstance(node, ast.Name):
            return node.id in tables or "table" in node.id.lower()
        if isinstance(node, ast.Call):
            return ast.unparse(node.func).endswith(TABLE_GETTERS)
        if isinstance(node, (ast.IfExp, ast.BoolOp)):
            parts = [node.body, node.orelse] if isinstance(node, ast.IfExp) else node.values
            return any(holds_table(part) for part in parts)
        return False

    def table_type(annotation: ast.expr | None) -> bool:
        return annotation is not None and \
            any(isinstance(n, ast.Name) and n.id == "Table" for n in ast.walk(annotation))

    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and table_type(node.annotation):
            tables.add(node.arg)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                (table_type(node.annotation) or holds_table(node.value)):
            tables.add(node.target.id)
        elif isinstance(node, (ast.Assign, ast.NamedExpr)) and holds_table(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            tables |= {t.id for t in targets if isinstance(t, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        if node.attr in TABLE_INSIDES and holds_table(node.value):
            found.append((node.lineno, f"{ast.unparse(node.value)}.{node.attr}"))
        elif node.attr in ("records", "entry") and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "state":
            found.append((node.lineno, ast.unparse(node)))
    return sorted(set(found))


def test_the_tournament_reads_nothing_of_a_table_but_its_notices() -> None:
    """Issue 45: the runner consumes the table's «match over» notice, built under the table's
    lock from what it saved; it never reads a table's state, records or match itself."""
    wrong = [f"{path.relative_to(ROOT)}:{line} reads {what}"
             for path in sources("musbot/tournament")
             for line, what in table_reads(path.read_text(encoding="utf-8"))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("source", [
    "def f(table: Table):\n    return table.match.games_played\n",
    "def f(table: Table):\n    return table.state.records.bot_game\n",
    "def f(there: Table | None):\n    return there.state.entry\n",
    "def f(self):\n    t = self._own_table(cup, m)\n    return t.match\n",
    "def f(self):\n    return self.tables.get(place).state\n",
    "def f(self):\n    return self.tables.get(place) if place else None\n\n"
    "def g(self, restored: Table):\n    return restored.records\n",
    "def f(x):\n    return x.state.entry.match\n",
])
def test_a_table_read_by_the_tournament_is_seen(source: str) -> None:
    assert table_reads(source)


def test_a_tournament_match_read_is_not_a_table_read() -> None:
    assert table_reads("def f(t, match, event, notice):\n    return (match.state, event.match,"
                       " t.match(m).state, notice.bot_game, t.matches[m].state)\n") == []


def test_the_table_layer_knows_nothing_of_discord() -> None:
    wrong = [f"{i.path}:{i.line} imports {target}" for p in sources("musbot/table")
             for i in imports(p) for target in i.targets()
             if within(target, "discord", "musbot.discordio", "cogs")]
    assert not wrong, "\n".join(wrong)


def adapter_breaches(root: Path = ROOT) -> dict[tuple[str, str], int]:
    """(file, what it reaches) → line, for every engine import a Discord adapter may not make."""
    found = {}
    for folder, allowed in (("cogs", ADAPTER_ENGINE_NAMES),
                            ("musbot/discordio", DISCORDIO_ENGINE_NAMES)):
        for path in sources(folder, root=root):
            for i in imports(path, root=root):
                if i.module == "musbot.engine" and i.names:
                    for name in i.names:
                        if name not in allowed:
                            found[(i.path, f"musbot.engine.{name}")] = i.line
                    continue
                # The package by name (``import musbot.engine``, ``from musbot import engine``)
                # opens all of it; a submodule is an internal.
                reached = [t for t in i.targets() if within(t, "musbot.engine")]
                if reached:
                    found[(i.path, reached[0])] = i.line
    return found


def test_discord_adapters_reach_the_engine_only_for_rules_errors_and_actions() -> None:
    found = adapter_breaches()
    new = [f"{path}:{line} imports {what}" for (path, what), line in found.items()
           if (path, what) not in KNOWN]
    assert not new, "\n".join(new)
    fixed = [f"{path}: {what}" for path, what in KNOWN if (path, what) not in found]
    assert not fixed, "fixed: take these out of KNOWN\n" + "\n".join(fixed)


@pytest.mark.parametrize(("line", "breach"), [
    ("from musbot.engine import Hand", "musbot.engine.Hand"),
    ("from musbot.engine import Rules, tables", "musbot.engine.tables"),
    ("from musbot.engine.senas import senas_posibles", "musbot.engine.senas"),
    ("import musbot.engine.evaluation", "musbot.engine.evaluation"),
    ("import musbot.engine", "musbot.engine"),
    ("from musbot import engine", "musbot.engine"),
    ("from ..engine import Match", "musbot.engine.Match"),
])
def test_an_adapter_breach_is_seen(tmp_path: Path, line: str, breach: str) -> None:
    """The check itself catches each way of reaching into the engine, even from a function."""
    adapter = tmp_path / "musbot" / "discordio"
    adapter.mkdir(parents=True)
    (adapter / "x.py").write_text(f"def later() -> None:\n    {line}\n", encoding="utf-8")
    (tmp_path / "cogs").mkdir()
    assert list(adapter_breaches(tmp_path)) == [("musbot/discordio/x.py", breach)]


def test_allowed_adapter_imports_are_not_breaches(tmp_path: Path) -> None:
    (tmp_path / "cogs").mkdir()
    (tmp_path / "cogs" / "x.py").write_text(
        "from musbot.engine import MusError, Rules, descarte\nimport musbot.table\n",
        encoding="utf-8")
    (tmp_path / "musbot" / "discordio").mkdir(parents=True)
    assert adapter_breaches(tmp_path) == {}


def runtime_graph(root: Path = ROOT, *, type_checking: bool = False) -> dict[str, set[str]]:
    """Module → the project's modules it loads when run: every import, lazy ones included, but
    not those under ``if TYPE_CHECKING:`` (read by mypy only, never executed) unless
    ``type_checking``."""
    modules = {module_of(p, root): p for p in sources("musbot", "cogs", root=root)}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not type_checking and isinstance(node, ast.If) \
                    and "TYPE_CHECKING" in ast.unparse(node.test):
                node.body = []
        reached: set[str] = set()
        for found in imports_of(tree, module, path):
            named = [t for t in found.targets()[1:] if t in modules]
            reached.update(named or ([found.module] if found.module in modules else []))
        reached.discard(module)
        graph[module] = reached
    return graph


def imports_of(tree: ast.AST, module: str, path: Path) -> list[Import]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(path.name, node.lineno, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            named = node.module or ""
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                named = ".".join([*base, named] if named else base)
            found.append(Import(path.name, node.lineno, named, tuple(a.name for a in node.names)))
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_among_runtime_modules() -> None:
    assert circles(runtime_graph()) == []


def test_a_circle_is_seen_even_through_a_lazy_import(tmp_path: Path) -> None:
    """The check itself: a function's import closes a circle; a ``TYPE_CHECKING`` one does not."""
    package = tmp_path / "musbot"
    package.mkdir()
    (tmp_path / "cogs").mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("from musbot import b\n", encoding="utf-8")
    (package / "b.py").write_text("def later() -> None:\n    from musbot.a import x\n",
                                  encoding="utf-8")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from musbot.a import x\n", encoding="utf-8")
    (package / "d.py").write_text("from musbot import c\n", encoding="utf-8")
    assert circles(runtime_graph(tmp_path)) == [["musbot.a", "musbot.b"]]


LAYER_PACKAGES = ("musbot.tournament.live",)
"""Subpackages that are a layer of their own: the tournament runner (tables, storage, asyncio)
sits above the pure tournament core that storage saves."""


def package_of(module: str) -> str:
    """``musbot.table.render`` → ``musbot.table``; a top-level module is its own package
    (``musbot.wording``), as is each cog, and each of :data:`LAYER_PACKAGES`."""
    for layer in LAYER_PACKAGES:
        if within(module, layer):
            return layer
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph seen by package: an edge wherever one of a package's modules imports
    one of another's."""
    packages: dict[str, set[str]] = {package_of(m): set() for m in graph}
    for module, reached in graph.items():
        packages[package_of(module)].update(
            package_of(other) for other in reached if package_of(other) != package_of(module))
    return packages


def test_no_import_circle_among_packages() -> None:
    """One feature, one direction: no package reaches back into one that reaches it, lazily
    either. The review was such a circle (the coach named ``table.render``, the table asked
    the coach inside a function); now the table asks the coach, and the words both show are
    :mod:`musbot.wording`'s, below them both."""
    assert circles(package_graph(runtime_graph())) == []


def test_the_coach_reaches_nothing_of_the_table_or_discord() -> None:
    """The review (``musbot/coach``: its figures, its words, its book of hands, its worker, its
    command line) is below the table and the adapters that ask it: none of its modules reaches
    them, through any chain of imports, lazy or read by mypy alone."""
    graph = runtime_graph(type_checking=True)
    reached: set[str] = set()
    stack = [m for m in graph if within(m, "musbot.coach")]
    while stack:
        for other in graph[stack.pop()]:
            if other not in reached:
                reached.add(other)
                stack.append(other)
    wrong = sorted(m for m in reached
                   if within(m, "musbot.table", "musbot.discordio", "musbot.bot", "cogs"))
    assert not wrong, wrong


def test_a_circle_between_packages_is_seen(tmp_path: Path) -> None:
    """The check itself: two packages whose different modules import each other, one of them
    inside a function, are a circle, though no module imports itself back."""
    for package in ("table", "coach"):
        (tmp_path / "musbot" / package).mkdir(parents=True)
        (tmp_path / "musbot" / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "cogs").mkdir()
    (tmp_path / "musbot" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "musbot" / "coach" / "text.py").write_text(
        "from musbot.table.render import words\n", encoding="utf-8")
    (tmp_path / "musbot" / "table" / "render.py").write_text("words = 1\n", encoding="utf-8")
    (tmp_path / "musbot" / "table" / "book.py").write_text(
        "def ask() -> None:\n    from musbot.coach import text\n", encoding="utf-8")
    graph = runtime_graph(tmp_path)
    assert circles(graph) == []
    assert circles(package_graph(graph)) == [["musbot.coach", "musbot.table"]]


KNOWN_CIRCLES: dict[frozenset[str], str] = {
    frozenset({"musbot.ai.base", "musbot.ai.normal", "musbot.ai.reading"}):
        "ai/base.py names reading.OpponentModel for mypy only; another engineer is changing "
        "musbot/ai (issue 45)",
    frozenset({f"musbot.table.{m}" for m in (
        "clockwork", "ending", "entry", "halts", "lobby", "notice", "publish", "readings",
        "result",
        "runner", "saved", "state", "typed_words", "texts", "transport", "upkeep", "view")}):
        "the table's helpers name runner.Table and state.TableState for mypy only (no circle "
        "at run time; the runner builds the match notice from the state it runs)",
}
"""Circles closed only by ``TYPE_CHECKING`` imports, outside the layers below, with why: each
must still occur (a fixed one leaves)."""


def test_type_checking_circles_are_only_the_known_ones() -> None:
    """Counting what mypy reads too: a circle left out of :data:`KNOWN_CIRCLES` is new."""
    found = {frozenset(group): group for group in circles(runtime_graph(type_checking=True))}
    new = [found[group] for group in found if group not in KNOWN_CIRCLES]
    assert not new, new
    fixed = [sorted(group) for group in KNOWN_CIRCLES if group not in found]
    assert not fixed, f"fixed: take these out of KNOWN_CIRCLES {fixed}"


DISCORD_LAYERS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (what, frozenset(modules)) for what, modules in (
        ("words and Discord's limits", {
            "musbot.discordio.texts", "musbot.discordio.markup", "musbot.discordio.locales",
            "musbot.discordio.guard", "musbot.discordio.governor",
            "musbot.discordio.card_emojis", "musbot.discordio.translator",
            "musbot.discordio.drawing"}),
        ("the one error path, the bookkeeping after a call", {
            "musbot.discordio.failures", "musbot.discordio.bookkeeping"}),
        ("what every button shares", {"musbot.discordio.callbacks"}),
        ("the discard buttons", {"musbot.discordio.discard"}),
        ("the table's buttons", {"musbot.discordio.ui"}),
        ("a page as an embed; one person's messages", {
            "musbot.discordio.embeds", "musbot.discordio.messenger"}),
        ("the boards", {"musbot.discordio.boards"}),
        ("access, the idle tables", {"musbot.discordio.access", "musbot.discordio.idle"}),
        ("the transport", {"musbot.discordio.transport"}),
        ("DMs, the tournament's venue", {"musbot.discordio.direct", "musbot.discordio.venue"}),
        ("the shards' relay", {"musbot.discordio.relay"}),
        ("the package's face", {"musbot.discordio"}),
        ("the bot's storage start-up", {"musbot.bot.storage"}),
        ("the bot", {"musbot.bot.client"}),
        ("the launcher", {"musbot.bot.launcher"}),
        ("the bot package's face", {"musbot.bot"}),
    ))
"""The Discord adapter and the bot, from the bottom up: a module imports only from layers
below its own, at run time, lazily or for mypy alike."""


def layer_breaches(root: Path = ROOT) -> list[str]:
    """Every import (``TYPE_CHECKING`` and lazy ones included) among the modules of
    :data:`DISCORD_LAYERS` that does not point to a lower layer, and every module of
    ``musbot/discordio`` or ``musbot/bot`` no layer holds."""
    rank = {module: i for i, (_, modules) in enumerate(DISCORD_LAYERS) for module in modules}
    graph = runtime_graph(root, type_checking=True)
    wrong = [f"{module} is in no layer" for module in sorted(graph)
             if within(module, "musbot.discordio", "musbot.bot") and module not in rank]
    for module in sorted(graph):
        if module not in rank:
            continue
        for target in sorted(graph[module]):
            if target in rank and rank[target] >= rank[module]:
                wrong.append(f"{module} ({DISCORD_LAYERS[rank[module]][0]}) imports {target} "
                             f"({DISCORD_LAYERS[rank[target]][0]})")
            elif within(module, "musbot.discordio") and within(target, "musbot.bot", "cogs"):
                wrong.append(f"{module} imports {target}")
    return wrong


def test_the_discord_adapter_and_the_bot_import_only_downwards() -> None:
    """No circle among them, not even one closed for mypy by a ``TYPE_CHECKING`` import: each
    part is given what it uses when it is built, and names it by a module below its own."""
    wrong = layer_breaches()
    assert not wrong, "\n".join(wrong)


def test_a_type_checking_import_upwards_is_seen(tmp_path: Path) -> None:
    """The check itself: ``access`` naming the transport for mypy is a breach, as is a module
    placed in no layer."""
    package = tmp_path / "musbot" / "discordio"
    package.mkdir(parents=True)
    (tmp_path / "cogs").mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "transport.py").write_text("from .access import Access\n", encoding="utf-8")
    (package / "access.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from .transport import DiscordTransport\n", encoding="utf-8")
    (package / "elsewhere.py").write_text("", encoding="utf-8")
    assert layer_breaches(tmp_path) == [
        "musbot.discordio.elsewhere is in no layer",
        "musbot.discordio.access (access, the idle tables) imports musbot.discordio.transport "
        "(the transport)",
    ]


@pytest.mark.parametrize("package", ["musbot/table", "musbot/tournament"])
def test_no_module_of_the_table_or_tournament_package_is_over_400_lines(package: str) -> None:
    """A module that grows past this holds more than one responsibility: split it by one."""
    long = {p.relative_to(ROOT).as_posix(): n for p in sources(package)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long, long


def test_no_module_outside_the_engine_is_over_600_lines() -> None:
    """Issue 45: past this a module holds more than one responsibility (the engine's tables and
    state machine excepted: one thing each, measured as one); the table and the tournament
    packages hold to 400 (above)."""
    long = {p.relative_to(ROOT).as_posix(): n for p in sources("musbot")
            if not p.relative_to(ROOT).as_posix().startswith("musbot/engine/")
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long


SHARED_CLASS_NAMES: dict[str, str] = {}
"""Class names defined twice in ``musbot/`` on purpose, each with why (none today: the
tournament's ``Stage``, ``Signup``, ``Fixture``, ``TournamentEvent`` and ``PairStanding`` were its
``Phase``, ``Entry``, ``Match``, ``Event`` and ``Standing``, the names of the engine's, the
table's and storage's own classes)."""


def class_homes(root: Path = ROOT) -> dict[str, list[str]]:
    """Each class name in ``musbot/`` (nested classes included), with the modules defining it."""
    homes: dict[str, list[str]] = {}
    for path in sources("musbot", root=root):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                homes.setdefault(node.name, []).append(path.relative_to(root).as_posix())
    return homes


def shared_class_names(root: Path = ROOT) -> dict[str, list[str]]:
    return {name: where for name, where in class_homes(root).items()
            if len(where) > 1 and name not in SHARED_CLASS_NAMES}


def test_no_two_classes_of_the_package_share_a_name() -> None:
    """Issue 45: one class per name, so that a name read in a traceback, a grep or an import says
    which class it is."""
    assert shared_class_names() == {}
    homes = class_homes()
    assert all(len(homes.get(name, ())) > 1 for name in SHARED_CLASS_NAMES), \
        "an exception no longer shared: take it out of SHARED_CLASS_NAMES"


def test_a_shared_class_name_is_seen(tmp_path: Path) -> None:
    for module in ("engine/match.py", "tournament/model.py"):
        path = tmp_path / "musbot" / module
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("class Other:\n    pass\n\n\nclass Match:\n    pass\n", encoding="utf-8")
    assert shared_class_names(tmp_path) == {
        "Other": ["musbot/engine/match.py", "musbot/tournament/model.py"],
        "Match": ["musbot/engine/match.py", "musbot/tournament/model.py"]}

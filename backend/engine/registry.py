"""Game names → game objects.

Games are imported lazily so that loading one game never pays for another.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, cast

from .core import Game

# name -> "module:attribute" of a Game instance
_GAMES: dict[str, str] = {
    "dorasure": "backend.games.dorasure.game:GAME",
    "dorn": "backend.games.dorn.game:GAME",
}


class UnknownGame(KeyError):
    pass


def register(name: str, target: str) -> None:
    """Add a game by "module:attribute" (tests' toy games, plugins)."""
    _GAMES[name] = target
    get_game.cache_clear()


def register_spec(spec: str) -> None:
    """Games from a setting: ``"name=module:attr,name2=module:attr"`` (DRAGONTABLE_EXTRA_GAMES)."""
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, target = item.partition("=")
        register(name.strip(), target.strip())


def game_names() -> list[str]:
    return sorted(_GAMES)


@cache
def get_game(name: str) -> Game[Any]:
    try:
        target = _GAMES[name]
    except KeyError:
        raise UnknownGame(name) from None
    module_name, attr = target.split(":")
    return cast("Game[Any]", getattr(importlib.import_module(module_name), attr))

"""Which playbook plays which game: the one module that knows every game's bot play.

Apart from playbook.py (what a playbook is), so that each game's play can import that without
the two importing each other (tests/engine/test_import_cycles.py).
"""

from __future__ import annotations

from . import dorasure_play, dorn_play
from .playbook import Playbook

PLAYBOOKS: dict[str, Playbook] = {"dorasure": dorasure_play.PLAYBOOK, "dorn": dorn_play.PLAYBOOK}


def playbook(game_name: str) -> Playbook:
    """The playbook of a game; only random bots can play a game without one."""
    try:
        return PLAYBOOKS[game_name]
    except KeyError:
        raise KeyError(f"no bot playbook for {game_name!r}: only random bots can play it") from None

"""Bots (issue 12): seats played by the program, from what the seat sees and nothing more.

``make_bot(level, game)`` gives a bot of level ``random``, ``steady`` or ``strong``; every bot
answers ``decide(view, seat, legal, events, rng, budget)`` with one of ``legal``.  The package
is pure like the engine (no I/O, clock or global random: the clock comes with the budget).
docs/bots.md describes the levels and how to write a new one.
"""

from .interface import Bot, Budget, NotAView
from .levels import LEVELS, make_bot
from .table import BotGame, UnlistedAction, play_bots

__all__ = ["LEVELS", "Bot", "BotGame", "Budget", "NotAView", "UnlistedAction", "make_bot", "play_bots"]

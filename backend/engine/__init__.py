"""The pure, game-agnostic engine: the game contract, RNG, replay, board geometry."""

# Before any module of the package is imported: ``rng`` compiled by mypyc when a build of these
# very sources is present, else from its .py (backend/native.py).
from backend import native

native.select()

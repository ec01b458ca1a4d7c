"""Dorn: one Dornkeeper against up to five hero seats on a square-grid labyrinth."""

# Before any module of the package is imported: the modules compiled by mypyc when a build of
# these very sources is present, else every one from its .py (backend/native.py).
from backend import native

native.select()

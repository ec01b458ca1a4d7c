"""Dorasure: the co-op dragon-hunting board game (rules engine)."""

# Before any module of the package is imported: the modules compiled by mypyc when a build of
# these very sources is present, else every one from its .py (backend/native.py).
from backend import native

native.select()

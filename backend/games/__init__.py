"""One package per game; each exposes ``GAME`` from its ``game`` module (see engine/registry.py)."""

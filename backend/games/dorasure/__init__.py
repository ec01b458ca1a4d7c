"""Dorasure: the co-op dragon-hunting board game (rules engine)."""

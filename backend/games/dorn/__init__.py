"""Dorn: one Dornkeeper against up to five hero seats on a square-grid labyrinth."""

"""Dorn's rules, one module per part of the rulebook."""

"""Dragontable: an authoritative game server for Dorasure and Dorn."""

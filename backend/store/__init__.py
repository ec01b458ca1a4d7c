"""Persistence: SQLAlchemy models, engine/session setup and the repository (the only SQL)."""

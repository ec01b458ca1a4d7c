"""REST: players, games, tables (create, list, join, leave, start, export), health."""

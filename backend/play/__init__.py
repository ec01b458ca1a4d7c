"""Live tables: the serial master, connections, timers, the bus and the WebSocket route."""

# Before any module of the package is imported: the modules compiled by mypyc when a build of
# these very sources is present, else every one from its .py (backend/native.py).
from backend import native

native.select()

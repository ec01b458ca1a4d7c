"""Live tables: the serial master, connections, timers, the bus and the WebSocket route."""

"""The barbu server: connections, lobby, rooms (Barbu tables), seats and their controllers, the store.

Start one with ``BarbuServer(ServerConfig(...))`` (an async context manager) or ``barbu serve``.
"""

from server.app import BarbuServer, run_server
from server.config import ServerConfig
from server.room import Room
from server.store import RoomRow, Store, StoreError, StoreUnavailable

__all__ = [
    "BarbuServer",
    "Room",
    "RoomRow",
    "ServerConfig",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "run_server",
]

"""What this process decided a moment ago, kept for a few seconds so that the next request
like it need not decide again: the sessions checked (``accounts.services.CheckedSessions``)
and the fast lane's passes (``games.fast_lane``)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """Decisions by key, each good for the ``seconds`` its reader allows, least recently used
    out past ``size``; ``forget`` empties the store at once (what they rest on changed here).

    ``generation`` moves on at every ``forget``: a decision read before a change but filed
    after the change emptied the store would outlive it, so ``put`` keeps a decision only if
    the generation is still the one taken before it was read."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.held: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self.lock = threading.Lock()
        self.generation = 0

    def get(self, key: K, seconds: float) -> V | None:
        """What was filed under ``key`` less than ``seconds`` ago, else None."""
        if seconds <= 0:
            return None
        with self.lock:
            held = self.held.get(key)
            if held is None:
                return None
            if time.monotonic() - held[0] > seconds:
                del self.held[key]
                return None
            return held[1]

    def put(self, key: K, value: V, generation: int) -> None:
        """File ``value`` under ``key``, unless the store was emptied since ``generation``."""
        with self.lock:
            if generation != self.generation:
                return
            self.held[key] = (time.monotonic(), value)
            self.held.move_to_end(key)
            while len(self.held) > self.size:
                self.held.popitem(last=False)

    def forget(self) -> None:
        with self.lock:
            self.generation += 1
            self.held.clear()

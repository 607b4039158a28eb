"""A GPU runtime's device, opened once per process (runtime/cuda.py, runtime/opencl.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

D = TypeVar("D")


class OpenedOnce(Generic[D]):
    """The device `make()` gives, made at the first `open()` and kept. Where making it raises
    `unavailable` (no runtime or no device here), that exception is kept and raised again by every
    later `open()`: `--target auto` asks once per process."""

    def __init__(self, make: Callable[[], D], unavailable: type[Exception]):
        self._make = make
        self._unavailable = unavailable
        self._device: D | None = None
        self._failure: Exception | None = None

    def forget(self) -> None:
        """Start afresh: the next `open()` makes the device again."""
        self._device, self._failure = None, None

    def open(self) -> D:
        if self._device is None:
            if self._failure is not None:
                raise self._failure
            try:
                self._device = self._make()
            except self._unavailable as exc:
                self._failure = exc
                raise
        return self._device

    def available(self) -> bool:
        """Whether `open()` gives a device."""
        try:
            self.open()
        except self._unavailable:
            return False
        return True

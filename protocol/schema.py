"""Validation of wire maps into message dataclasses, driven by the dataclasses' type hints.

A message class is a frozen dataclass with a class attribute ``TYPE`` (its ``type`` field on the wire).
Field types may be ``int``, ``float`` (an int is accepted), ``str``, ``bool``, ``dict[str, Any]``,
``list[str]``, ``list[dict[str, Any]]``, ``Any``, or any of those ``| None``. Constraints sit in the field
metadata: ``max_len`` / ``min_len`` (strings and lists), ``min`` / ``max`` (numbers), ``choices`` (strings).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, ClassVar, TypeVar, Union

from protocol.errors import ProtocolError

M = TypeVar("M", bound="Message")


@dataclasses.dataclass(frozen=True)
class Message:
    """Base of every protocol message; ``TYPE`` is the wire ``type``."""

    TYPE: ClassVar[str] = ""

    def to_wire(self) -> dict[str, Any]:
        """The message as a msgpack-ready map: ``type`` first, then every field (``None`` as nil)."""
        wire: dict[str, Any] = {"type": self.TYPE}
        for f in dataclasses.fields(self):
            wire[f.name] = getattr(self, f.name)
        return wire


_HINTS: dict[type[Message], dict[str, Any]] = {}


def _hints(cls: type[Message]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(tp))
    if tp is type(None):
        return "nil"
    if tp is Any:
        return "any"
    names = {int: "integer", float: "number", str: "string", bool: "boolean", dict: "map", list: "array"}
    return names.get(origin or tp, str(tp))


def _matches(value: Any, tp: Any) -> bool:
    """Whether ``value`` is of wire type ``tp`` (see the module docstring for the types supported)."""
    if tp is Any:
        return True
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return any(_matches(value, a) for a in typing.get_args(tp))
    if tp is type(None):
        return value is None
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    if origin is dict:
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    if origin is list:
        (item,) = typing.get_args(tp)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    raise TypeError(f"unsupported wire type {tp!r}")


def _check_constraints(name: str, value: Any, meta: typing.Mapping[str, Any]) -> None:
    if value is None:
        return
    if isinstance(value, str | list | dict):
        if "max_len" in meta and len(value) > meta["max_len"]:
            raise ProtocolError("bad-message", f"{name} is longer than {meta['max_len']}", field=name)
        if "min_len" in meta and len(value) < meta["min_len"]:
            raise ProtocolError("bad-message", f"{name} is shorter than {meta['min_len']}", field=name)
    if "choices" in meta and value not in meta["choices"]:
        allowed = ", ".join(str(c) for c in meta["choices"] if c is not None)
        raise ProtocolError("bad-message", f"{name} must be one of {allowed}, not {value!r}", field=name)
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "min" in meta and value < meta["min"]:
            raise ProtocolError("bad-message", f"{name} must be at least {meta['min']}", field=name)
        if "max" in meta and value > meta["max"]:
            raise ProtocolError("bad-message", f"{name} must be at most {meta['max']}", field=name)


def parse_message(cls: type[M], wire: dict[str, Any]) -> M:
    """Validate ``wire`` (already known to be of ``cls.TYPE``) into an instance of ``cls``.

    Raises:
        ProtocolError: ``bad-message`` naming the field that is missing, of the wrong type, out of range
            or not expected.
    """
    hints = _hints(cls)
    values: dict[str, Any] = {}
    known = {"type"}
    for f in dataclasses.fields(cls):
        known.add(f.name)
        tp = hints[f.name]
        if f.name not in wire:
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            if has_default:
                continue
            raise ProtocolError("bad-message", f"{cls.TYPE}: missing field {f.name}", field=f.name)
        value = wire[f.name]
        if not _matches(value, tp):
            raise ProtocolError("bad-message", f"{cls.TYPE}: {f.name} must be {_type_name(tp)}", field=f.name)
        _check_constraints(f.name, value, f.metadata)
        values[f.name] = float(value) if tp in (float, float | None) and value is not None else value
    extra = sorted(set(wire) - known)
    if extra:
        raise ProtocolError("bad-message", f"{cls.TYPE}: unexpected field {extra[0]}", field=extra[0])
    return cls(**values)

"""Validation of wire maps into message dataclasses, driven by the dataclasses' type hints.

A message class is a frozen dataclass with a class attribute ``TYPE`` (its ``type`` field on the wire).
Field types may be ``int``, ``float`` (an int is accepted), ``str``, ``bool``, ``dict[str, V]`` (every
value of type ``V``), ``list[T]``, ``Any``, or unions of those (``| None``). Constraints sit in the field
metadata: ``keys`` (maps: the type of each named key's value, so a map's inner fields are checked like
fields; keys not named are left to the layer that reads the map), ``max_len`` / ``min_len`` (strings and lists), ``min`` / ``max`` (numbers, which must also be finite),
``choices`` (strings), ``printable`` (strings: no control or format characters, ``str.isprintable``; at
least one visible character; no combining mark first nor more than ``MAX_MARKS_IN_A_ROW`` in a row).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
import unicodedata
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
        for f in _fields(type(self)):
            wire[f.name] = getattr(self, f.name)
        return wire


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    tp: Any
    metadata: typing.Mapping[str, Any]
    required: bool
    is_float: bool


_FIELDS: dict[type[Message], tuple[_Field, ...]] = {}


def _fields(cls: type[Message]) -> tuple[_Field, ...]:
    """The fields of message class ``cls`` with their resolved types (computed once per class)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _FIELDS[cls] = tuple(
            _Field(
                f.name,
                hints[f.name],
                f.metadata,
                f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
                hints[f.name] in (float, float | None),
            )
            for f in dataclasses.fields(cls)
        )
    return found


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
        _, item = typing.get_args(tp)
        return isinstance(value, dict) and all(
            isinstance(k, str) and _matches(v, item) for k, v in value.items()
        )
    if origin is list:
        (item,) = typing.get_args(tp)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    raise TypeError(f"unsupported wire type {tp!r}")


#: Combining marks allowed one after another: enough for any script's accents and vowel signs (Khmer stacks
#: two or three), not for a tower of marks drawn over the lines above and below.
MAX_MARKS_IN_A_ROW = 4


#: Letters that draw nothing: the Hangul fillers and the blank Braille pattern (not spaces to ``isspace``).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _looks_like_text(value: str) -> bool:
    """Whether ``value`` shows as text: a visible character, no mark first, no long run of marks."""
    run = 0
    visible = False
    for i, char in enumerate(value):
        if unicodedata.category(char).startswith("M"):
            run += 1
            if i == 0 or run > MAX_MARKS_IN_A_ROW:
                return False
        else:
            run = 0
            visible = visible or not (char.isspace() or char in BLANKS)
    return visible


def _check_keys(kind: str, name: str, value: dict[str, Any], keys: typing.Mapping[str, Any]) -> None:
    """Each key of map field ``name`` that ``keys`` names holds a value of its type (``bad-message``)."""
    for key, tp in keys.items():
        if key in value and not _matches(value[key], tp):
            raise ProtocolError("bad-message", f"{kind}: {name}.{key} must be {_type_name(tp)}", field=name)


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
    if meta.get("printable") and isinstance(value, str) and not value.isprintable():
        raise ProtocolError(
            "bad-message", f"{name} must be printable text (no control or direction characters)", field=name
        )
    if meta.get("printable") and isinstance(value, str) and not _looks_like_text(value):
        raise ProtocolError(
            "bad-message",
            f"{name} must show as text: a visible character, no combining mark first, "
            f"at most {MAX_MARKS_IN_A_ROW} marks in a row",
            field=name,
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError("bad-message", f"{name} must be a finite number", field=name)
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
    values: dict[str, Any] = {}
    fields = _fields(cls)
    for f in fields:
        if f.name not in wire:
            if f.required:
                raise ProtocolError("bad-message", f"{cls.TYPE}: missing field {f.name}", field=f.name)
            continue
        value = wire[f.name]
        if not _matches(value, f.tp):
            raise ProtocolError(
                "bad-message", f"{cls.TYPE}: {f.name} must be {_type_name(f.tp)}", field=f.name
            )
        if f.metadata:
            _check_constraints(f.name, value, f.metadata)
            if "keys" in f.metadata and isinstance(value, dict):
                _check_keys(cls.TYPE, f.name, value, f.metadata["keys"])
        values[f.name] = float(value) if f.is_float and value is not None else value
    if len(wire) > len(values) + 1:
        known = {f.name for f in fields} | {"type"}
        extra = sorted(set(wire) - known)
        if extra:
            raise ProtocolError("bad-message", f"{cls.TYPE}: unexpected field {extra[0]}", field=extra[0])
    return cls(**values)

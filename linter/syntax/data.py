"""Plain data classes, written out: the bases of the AST, findings, rules and
the engine's records.

These classes used to be made by ``attrs``.  Importing attrs (with the
``inspect`` and ``typing`` it pulls in) and having it write and compile the
methods of some thirty classes at every start took about a fifth of a cold
run on the real project, more than checking it.  A class here states its
fields once, as ``__slots__``, and writes its ``__init__`` by hand (compiled
once into the bytecode cache, and as fast as it gets for the hundreds of
thousands of spans a large project makes); the bases give what attrs gave:

- :class:`Data`: ``__repr__`` in attrs' form (``Span(line=1, column=2, ...)``)
  and, for ``replace``, the list of fields; equality is identity (attrs'
  ``eq=False``);
- :class:`Record`: equality field by field (same class only), unhashable,
  as a mutable attrs class;
- :class:`Frozen`: equality and hash field by field, and assigning a field
  raises :class:`FrozenError` (an ``AttributeError``), as ``attrs.frozen``.

``replace(obj, **changes)`` is ``attrs.evolve``: a copy with some fields
changed.  Fields are ``__slots__`` in declaration order, base class first,
and ``__init__`` takes them in that order and by those names.
"""

from __future__ import annotations


class FrozenError(AttributeError):
    """A field of a frozen instance was assigned."""


class Data:
    # Instances may be weakly referred to (a WeakSet or WeakKeyDictionary of
    # nodes), as attrs' slotted classes allow.
    __slots__ = ("__weakref__",)
    # Every field, base classes first (set for each subclass).
    _fields: tuple = ()
    # Fields left out of the repr.
    _no_repr: tuple = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name not in names and not name.startswith("__"):
                    names.append(name)
        cls._fields = tuple(names)

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields if n not in self._no_repr)
        return f"{type(self).__name__}({shown})"

    def _values(self) -> tuple:
        return tuple(getattr(self, n) for n in self._fields)


class Record(Data):
    __slots__ = ()

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None  # mutable: unhashable, as attrs makes it


class Frozen(Record):
    __slots__ = ()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, *self._values()))

    def __setattr__(self, name, value):
        raise FrozenError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name):
        raise FrozenError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    # copy and pickle go through __setstate__, which may set the fields.
    def __getstate__(self):
        return self._values()

    def __setstate__(self, state):
        for name, value in zip(self._fields, state):
            object.__setattr__(self, name, value)


def replace(obj, **changes):
    """A copy of *obj* with *changes* (``attrs.evolve``)."""
    cls = type(obj)
    for name in changes:
        if name not in cls._fields:
            raise TypeError(f"{cls.__name__} has no field {name}")
    return cls(*[changes[n] if n in changes else getattr(obj, n) for n in cls._fields])

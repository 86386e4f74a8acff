"""The rule options of RULES.md as one frozen value.

>>> Rules()
Rules()
>>> r = Rules(napola=True, target=21)
>>> r
Rules(napola=True, target=21)
>>> r.tokens()
['napola', 'target=21']
>>> Rules.from_tokens(['napola', 'target=21']) == r
True
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Iterable

from .errors import RulesError

# bit values shared with the kernel (ext/rules.pxi)
_FLAG_BITS = {
    "asso_piglia_tutto": 1,
    "ace_sweep_is_scopa": 2,
    "re_bello": 4,
    "napola": 8,
    "fewest_cards": 16,
}
_PRIMIERA_ZERO_BIT = 32


@dataclass(frozen=True)
class Rules:
    """Rule options; the defaults are basic two-player Scopa."""

    asso_piglia_tutto: bool = False
    ace_sweep_is_scopa: bool = False
    re_bello: bool = False
    napola: bool = False
    fewest_cards: bool = False
    primiera_missing_suit: str = "disqualify"
    redeal_three_kings: bool = True
    target: int = 11

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool) and not isinstance(value, bool):
                raise RulesError(f"rule {f.name} must be True or False, not {value!r}")
        if self.primiera_missing_suit not in ("disqualify", "zero"):
            raise RulesError(
                f"primiera_missing_suit must be 'disqualify' or 'zero', not {self.primiera_missing_suit!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise RulesError(f"target must be a whole number of points, 1 or more, not {self.target!r}")
        bits = sum(bit for name, bit in _FLAG_BITS.items() if getattr(self, name))
        bits |= _PRIMIERA_ZERO_BIT if self.primiera_missing_suit == "zero" else 0
        object.__setattr__(self, "_flags", bits)

    @property
    def flags(self) -> int:
        """The options that change play or scoring, as the kernel's bit set."""
        return self._flags  # type: ignore[attr-defined]

    def changes(self) -> dict:
        """The options that differ from the defaults."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}

    def __repr__(self) -> str:
        return "Rules(" + ", ".join(f"{k}={v!r}" for k, v in self.changes().items()) + ")"

    def tokens(self) -> list[str]:
        """The non-default options as notation tokens: ``napola``, ``target=21``, ``redeal_three_kings=0``."""
        out = []
        for name, value in self.changes().items():
            if value is True:
                out.append(name)
            elif value is False:
                out.append(f"{name}=0")
            else:
                out.append(f"{name}={value}")
        return out

    @classmethod
    def from_tokens(cls, tokens: Iterable[str]) -> "Rules":
        """Read option tokens (``name``, ``name=1``/``0``/``true``/``false``, ``name=value``)."""
        types = {f.name: f.type for f in fields(cls)}
        values: dict = {}
        for token in tokens:
            name, _, text = token.partition("=")
            name = name.strip().replace("-", "_")
            if name not in types:
                raise RulesError(f"unknown rule option {name!r}; known: {', '.join(types)}")
            if types[name] in ("bool", bool):
                if not text or text.lower() in ("1", "true", "yes", "on"):
                    values[name] = True
                elif text.lower() in ("0", "false", "no", "off"):
                    values[name] = False
                else:
                    raise RulesError(f"rule option {name} takes 0 or 1, not {text!r}")
            elif name == "target":
                try:
                    values[name] = int(text)
                except ValueError:
                    raise RulesError(f"target must be a whole number, not {text!r}") from None
            else:
                values[name] = text
        return cls(**values)

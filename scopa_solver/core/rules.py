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

from .. import kernel
from ..errors import RulesError, excerpt



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
                raise RulesError(f"rule {f.name} must be True or False, not {excerpt(value)}")
        if self.primiera_missing_suit not in ("disqualify", "zero"):
            raise RulesError(
                f"primiera_missing_suit must be 'disqualify' or 'zero', not {excerpt(self.primiera_missing_suit)}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise RulesError(f"target must be a whole number of points, 1 or more, not {excerpt(self.target)}")
        bits = sum(bit for name, bit in kernel.RULE_BITS.items() if getattr(self, name, False) is True)
        bits |= kernel.RULE_BITS["primiera_zero"] if self.primiera_missing_suit == "zero" else 0
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
        if isinstance(tokens, str):
            tokens = tokens.split()
        for token in tokens:
            if not isinstance(token, str):
                raise RulesError(f"a rule option is text like 'napola' or 'target=21', not {excerpt(token)}")
            name, _, text = token.partition("=")
            name = name.strip().replace("-", "_")
            if name not in types:
                raise RulesError(f"unknown rule option {excerpt(name)}; known: {', '.join(types)}")
            if types[name] in ("bool", bool):
                if not text or text.lower() in ("1", "true", "yes", "on"):
                    values[name] = True
                elif text.lower() in ("0", "false", "no", "off"):
                    values[name] = False
                else:
                    raise RulesError(f"rule option {name} takes 0 or 1, not {excerpt(text)}")
            elif name == "target":
                if not (text.isascii() and text.isdigit() and len(text) <= 6):
                    raise RulesError(f"target must be a whole number of points, not {excerpt(text)}")
                values[name] = int(text)
            else:
                values[name] = text
        return cls(**values)

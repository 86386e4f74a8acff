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

The family (docs/FAMILY.md): `players` (2, 3, 4 or 6), `game` ("scopa", "scopone",
"scientifico"; the last two need 4 players), `partnerships`, `capture` ("standard" or
"fifteen", Scopa a 15), `optional_capture` (only with capture="fifteen"), `last_sweep_counts`.

>>> r = Rules(players=4, game="scopone")
>>> r.tokens(), r.sides, r.deals, r.hand_size, r.table_start, r.is_standard
(['players=4', 'game=scopone'], (0, 1, 0, 1), 1, 9, 4, False)
>>> Rules(players=3).sides, Rules(players=4, partnerships=False).sides, Rules().is_standard
((0, 1, 2), (0, 1, 2, 3), True)
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Iterable

from .. import kernel
from ..errors import RulesError, excerpt



PLAYERS = (2, 3, 4, 6)
GAMES = ("scopa", "scopone", "scientifico")
CAPTURES = ("standard", "fifteen")
_DEALS = {2: 6, 3: 4, 4: 3, 6: 2}       # deals of 3 cards per round: 4 + deals * 3N = 40
_FAMILY = ("players", "game", "partnerships", "capture", "optional_capture", "last_sweep_counts")


@dataclass(frozen=True)
class Rules:
    """Rule options; the defaults are basic two-player Scopa.

    The family options are fields too (after the others, so positional use keeps its meaning);
    their tokens print first, naming the game. `partnerships` (default True) pairs opposite
    seats with 4 players and makes two teams of three with 6; False makes every player a side
    of their own. With 2 or 3 players every player is a side anyway, so False is refused there
    (a RulesError) rather than accepted as a no-op that would print a second spelling of the
    same game."""

    asso_piglia_tutto: bool = False
    ace_sweep_is_scopa: bool = False
    re_bello: bool = False
    napola: bool = False
    fewest_cards: bool = False
    primiera_missing_suit: str = "disqualify"
    redeal_three_kings: bool = True
    target: int = 11
    players: int = 2
    game: str = "scopa"
    partnerships: bool = True
    capture: str = "standard"
    optional_capture: bool = False
    last_sweep_counts: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool) and not isinstance(value, bool):
                raise RulesError(f"rule {f.name} must be True or False, not {excerpt(value)}")
        if type(self.players) is not int or self.players not in PLAYERS:
            raise RulesError(f"players must be 2, 3, 4 or 6, not {excerpt(self.players)}")
        if self.game not in GAMES:
            raise RulesError(f"game must be 'scopa', 'scopone' or 'scientifico', not {excerpt(self.game)}")
        if self.game != "scopa" and self.players != 4:
            raise RulesError(f"game={self.game} is played by 4 players, not {self.players} (add players=4)")
        if not self.partnerships and self.players < 4:
            raise RulesError(f"partnerships=0 applies to 4 or 6 players; with {self.players} "
                             "every player is a side already")
        if self.capture not in CAPTURES:
            raise RulesError(f"capture must be 'standard' or 'fifteen', not {excerpt(self.capture)}")
        if self.optional_capture and self.capture != "fifteen":
            raise RulesError("optional_capture applies only to Scopa a 15 (capture=fifteen)")
        if self.asso_piglia_tutto and self.capture == "fifteen":
            raise RulesError("asso_piglia_tutto cannot be combined with capture=fifteen (Scopa a 15)")
        if self.primiera_missing_suit not in ("disqualify", "zero"):
            raise RulesError(
                f"primiera_missing_suit must be 'disqualify' or 'zero', not {excerpt(self.primiera_missing_suit)}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise RulesError(f"target must be a whole number of points, 1 or more, not {excerpt(self.target)}")
        bits = sum(bit for name, bit in kernel.RULE_BITS.items() if getattr(self, name, False) is True)
        bits |= kernel.RULE_BITS["primiera_zero"] if self.primiera_missing_suit == "zero" else 0
        bits |= kernel.RULE_BITS.get("fifteen", 0) if self.capture == "fifteen" else 0
        object.__setattr__(self, "_flags", bits)

    @property
    def flags(self) -> int:
        """The options that change play or scoring, as the kernel's bit set."""
        # set by __post_init__ through object.__setattr__ (frozen), not a dataclass field
        return self._flags  # type: ignore[attr-defined,no-any-return]

    # -- what the options imply ---------------------------------------------------------------

    @property
    def is_standard(self) -> bool:
        """Two-player Scopa, standard capture, no `last_sweep_counts`: the game the opponent
        model, EPIMC, the endgame equilibrium and the learning labels are built for (every game
        is solved, suggested and played alike)."""
        return self.players == 2 and self.capture == "standard" and not self.last_sweep_counts

    @property
    def name(self) -> str:
        """The game's name for people: "Scopa", "Scopone scientifico", "Scopa a 15, 3 players"...

        >>> Rules().name, Rules(players=4, game="scopone").name, Rules(players=6).name
        ('Scopa', 'Scopone', 'Scopa, 6 players in 2 teams of 3')
        """
        name = {"scopa": "Scopa", "scopone": "Scopone", "scientifico": "Scopone scientifico"}[self.game]
        if self.capture == "fifteen":
            name += " a 15"
        if self.game == "scopa" and self.players > 2:
            teams = {4: " in 2 teams of 2", 6: " in 2 teams of 3"}.get(self.players, "") if self.partnerships else ""
            name += f", {self.players} players{teams}"
        return name

    @property
    def sides(self) -> tuple[int, ...]:
        """The side of each seat, sides numbered in order of their first seat:
        (0, 1, 0, 1) for 4-player partnerships, (0, 1, 2) for 3 players."""
        if self.partnerships and self.players in (4, 6):
            return tuple(seat % 2 for seat in range(self.players))
        return tuple(range(self.players))

    @property
    def side_count(self) -> int:
        return max(self.sides) + 1

    @property
    def deals(self) -> int:
        """Deals per round, the first included: 6, 4, 3 or 2 deals of 3 cards; one for Scopone."""
        return 1 if self.game != "scopa" else _DEALS[self.players]

    @property
    def hand_size(self) -> int:
        """Cards a hand gets in a deal: 3; 9 in Scopone, 10 in scientifico."""
        return {"scopa": 3, "scopone": 9, "scientifico": 10}[self.game]

    @property
    def table_start(self) -> int:
        """Cards face up on the table at the start of a round: 4; none in scientifico."""
        return 0 if self.game == "scientifico" else 4

    def changes(self) -> dict[str, Any]:
        """The options that differ from the defaults (the game's options first)."""
        order = sorted(fields(self), key=lambda f: (f.name not in _FAMILY, _FAMILY.index(f.name)
                                                    if f.name in _FAMILY else 0))
        return {f.name: getattr(self, f.name) for f in order if getattr(self, f.name) != f.default}

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
        values: dict[str, Any] = {}
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
            elif name == "players":
                if not (text.isascii() and text.isdigit() and len(text) <= 2):
                    raise RulesError(f"players must be 2, 3, 4 or 6, not {excerpt(text)}")
                values[name] = int(text)
            else:
                values[name] = text
        return cls(**values)

"""Bots by name, the one language of the command line and the benchmarks: ``random``,
``greedy`` (``greedy:scopa=8,sweepable=4``), ``pimc`` (``pimc:300``), ``infer`` / ``model``
(``model:0.5``), ``epimc`` (``epimc:d=2,n=30``), ``oracle``, and ``EARLY/LATE`` (``greedy/pimc``).

>>> make_bot("pimc:300").worlds, make_bot("greedy/oracle").name
(300, 'Greedy/Oracle')
>>> make_bot("pimc:300:match").objective, make_bot("oracle:match").name
('match', 'Oracle(match)')
"""
from __future__ import annotations

from typing import Optional

from ..kernel.limit import Limit
from .bots import Bot, decision_seconds
from ..core.rules import Rules
from ..errors import ScopaError, excerpt

__all__ = ["make_bot", "BOT_NAMES"]


BOT_NAMES = ("random", "greedy", "pimc", "infer", "model", "epimc", "oracle")


def make_bot(spec: str, limit: Optional[Limit] = None, *, worlds: Optional[int] = None, seed: Optional[int] = 0,
             rules: Optional[Rules] = None) -> Bot:
    """The one reader of bot names (the CLI's and the benchmarks'). A bot by name: random, greedy
    (greedy:scopa=8,sweepable=4 for other weights), pimc (`worlds` per decision, or pimc:N for
    N), model (PIMC with the opponent model: inference of its hand and its modelled reply,
    `InferenceBot`; model:T for the model's temperature T, 0.5 by default), infer (the same with
    the inference only: `reply=False`; infer:T), epimc (the opponent model with the
    perfect-information solve postponed by 3 plies, `EPIMCBot`; epimc:d=D,t=T,n=N,e=E,x=1,q=H,p=P,l=L
    for depth D, temperature T, N worlds instead of `worlds`, depth E once the worlds are
    enumerated, the last deal solved exactly, the endgame equilibrium at the last-but-one deal
    once at most H cards are hidden from the public (12: every play of that deal), opponent moves
    below probability P not followed, depth L in the last deal) or oracle; EARLY/LATE (say
    greedy/pimc) plays EARLY until the last three deals and LATE in them. ``:match`` after pimc
    (pimc:match, pimc:300:match) or oracle (oracle:match) plays to win the match
    (``objective="match"``: told the score before each round, `Bot.start_round`).
    A name it does not know is a `ScopaError`; so is, with the `rules` of a family game, a bot
    that plays two-player Scopa only (model, infer, epimc: the opponent model).
    `worlds` None: 50, or, for pimc with the `rules` of a family game, that game's default
    (`PIMCBot`: `FAMILY_WORLDS` worlds of `FAMILY_WORLD_NODES` nodes each).
    `limit`: every searching bot's per-decision `Limit` (its `time` the decision's budget; the
    oracle, exact, has none). None: `Limit(time=decision_seconds(rules), threads=1)`, the
    game's share of a player's wait on one thread; a `Limit` given is taken as it is
    (`Limit()`: no budget, every core)."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot name is text, not {type(spec).__name__}")
    if limit is None:
        limit = Limit(time=decision_seconds(rules), threads=1)
    from .bots import GreedyBot, OracleBot, PhaseBot, PIMCBot, RandomBot
    from .inference import InferenceBot
    if "/" in spec:
        early, _, late = spec.partition("/")
        return PhaseBot(make_bot(early, limit, worlds=worlds, seed=seed, rules=rules),
                        make_bot(late, limit, worlds=worlds, seed=seed, rules=rules))
    kind, _, arg = spec.strip().lower().partition(":")
    objective = "value"
    if kind in ("pimc", "oracle") and (arg == "match" or arg.endswith(":match")):
        objective, arg = "match", arg[:-len("match")].rstrip(":")
    if worlds is None and not (kind == "pimc" and rules is not None and rules.players > 2):
        worlds = 50
    if kind not in BOT_NAMES or (arg and kind in ("random", "oracle")):
        raise ScopaError(f"unknown bot {excerpt(spec)}: choose {', '.join(BOT_NAMES)} (pimc:N for N worlds per "
                         f"move, model:T or infer:T for the opponent model's temperature T, epimc:d=D,t=T,n=N "
                         f"for the non-fused search's depth, temperature and worlds, greedy:NAME=W,... "
                         f"for other weights, EARLY/LATE for one bot before the last three deals and another "
                         f"in them)")
    if kind in ("infer", "model", "epimc") and rules is not None and not rules.is_standard:
        raise ScopaError(f"bot {excerpt(spec)}: the opponent model plays two-player Scopa only, not "
                         f"{' '.join(rules.tokens())}; choose random, greedy, pimc or oracle")
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "greedy":
        return GreedyBot(**_weights(arg)) if arg else GreedyBot()
    if kind == "oracle":
        return OracleBot(objective=objective)
    if kind == "epimc":
        return _epimc(spec, arg, worlds, seed or 0, limit)
    if kind in ("infer", "model"):
        reply = kind == "model"
        worlds = 50 if worlds is None else worlds       # (set above already: not pimc)
        if not arg:
            return InferenceBot(limit, worlds=worlds, seed=seed or 0, reply=reply)
        try:
            return InferenceBot(limit, worlds=worlds, seed=seed or 0, temperature=float(arg), reply=reply)
        except ValueError:
            raise ScopaError(f"{kind}:T needs a positive temperature, not {excerpt(arg)}") from None
    if arg:
        if not arg.isdigit() or int(arg) < 1:
            raise ScopaError(f"pimc:N needs a positive number of worlds, not {excerpt(arg)}")
        worlds = int(arg)
    return PIMCBot(limit, worlds=worlds, seed=seed or 0, objective=objective)


def _options(spec: str, arg: str, names: dict, meaning: str) -> dict:
    """KEY=VALUE,... options of a bot name: {name: value} by `names` (key: (name, type));
    `meaning` lists them in the error for an unknown one."""
    options: dict = {}
    for item in filter(None, arg.split(",")):
        key, _, value = item.partition("=")
        if key.strip() not in names:
            raise ScopaError(f"bot {excerpt(spec)}: unknown option {excerpt(item)} ({meaning})")
        name, kind = names[key.strip()]
        try:
            options[name] = kind(value)
        except ValueError:
            raise ScopaError(f"bot {excerpt(spec)}: {excerpt(item)} needs a number") from None
    return options


def _epimc(spec: str, arg: str, worlds: Optional[int], seed: int, limit: Limit) -> Bot:
    """epimc:d=D,t=T,n=N,... as an `EPIMCBot`."""
    from .epimc import EPIMCBot, EPIMCDepths
    names = {"d": ("depth", int), "t": ("temperature", float), "n": ("worlds", int),
             "e": ("enumerated_depth", int), "x": ("exact_last", int), "q": ("endgame", int),
             "p": ("prune", float), "l": ("last_depth", int)}
    options = {"worlds": worlds, **_options(spec, arg, names, (
        "d=depth, t=temperature, n=worlds, e=depth once the worlds are enumerated, x=1: the last deal exact, "
        "q=H: the endgame equilibrium once at most H cards are hidden, p=P: opponent moves below probability P "
        "not followed, l=L: depth L in the last deal"))}
    if "endgame" in options:
        from ..imperfect.equilibrium import EquilibriumEndgame
        try:
            options["endgame"] = EquilibriumEndgame(Limit(threads=limit.threads), max_hidden=options["endgame"])
        except ValueError as error:
            raise ScopaError(f"bot {excerpt(spec)}: q=H needs a positive number of hidden cards ({error})") from None
    depths = {field: options.pop(name) for name, field in (("depth", "sampled"), ("enumerated_depth", "enumerated"),
                                                          ("last_depth", "last"), ("prune", "prune")) if name in options}
    try:
        return EPIMCBot(limit, seed=seed, depths=EPIMCDepths(**depths), **options)
    except ValueError as error:
        raise ScopaError(f"bot {excerpt(spec)}: {error}") from None


def _weights(arg: str) -> dict[str, float]:
    """greedy:NAME=W,... as GreedyBot keyword arguments."""
    from .bots import GreedyBot
    known = tuple(GreedyBot().weights)
    weights = {}
    for item in arg.split(","):
        name, _, value = item.partition("=")
        try:
            weights[name.strip()] = float(value)
        except ValueError:
            raise ScopaError(f"greedy:NAME=W,... needs numbers, not {excerpt(item)}") from None
    unknown = [name for name in weights if name not in known]
    if unknown:
        raise ScopaError(f"unknown GreedyBot weight {excerpt(unknown[0])}: choose {', '.join(known)}")
    return weights


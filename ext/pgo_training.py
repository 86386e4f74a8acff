"""The training run of the profile-guided build (see setup.py): the searches the kernel spends
its time on, on seeded random deals.

setup.py runs this file with the path of the instrumented kernel. It runs inside the build
environment, so it uses the standard library and that one module only."""
import importlib.machinery
import importlib.util
import random
import sys


def load(path: str):
    loader = importlib.machinery.ExtensionFileLoader("scopa_solver._kernel", path)
    spec = importlib.util.spec_from_file_location("scopa_solver._kernel", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def new_round(rng: random.Random, rules: int, players: int = 2, per_hand: int = 3,
              sides: tuple = (0, 1)) -> tuple:
    """A shuffled deck dealt as a round starts (the kernel's position tuple, see ext/api.pxi):
    each seat from the leader its cards, the table (none when the hands take 10), the stock in
    deals of 3 a seat."""
    cards = list(range(40))
    rng.shuffle(cards)

    def mask(cs):
        return sum(1 << c for c in cs)

    dealer = rng.randrange(players)
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands = [0] * players
    for k, seat in enumerate(order):
        hands[seat] = mask(cards[k * per_hand:(k + 1) * per_hand])
    at = per_hand * players
    table = 0 if per_hand == 10 else mask(cards[at:at + 4])
    at += 0 if per_hand == 10 else 4
    deals = []
    while at < 40:
        deal = [0] * players
        for seat in order:
            deal[seat] = mask(cards[at:at + 3])
            at += 3
        deals.append(tuple(deal))
    return (players, tuple(hands), table, (0,) * players, (0,) * players, order[0], dealer, -1,
            tuple(deals), rules, sides)


def advance(kernel, rng: random.Random, pos: tuple, deals_left: int) -> tuple:
    """Random play up to the start of the deal with `deals_left` deals still in the stock."""
    while len(pos[8]) > deals_left or bin(pos[1][0] | pos[1][1]).count("1") != 6:
        pos = kernel.play(pos, rng.choice(kernel.legal_moves(pos)))[0]
    return pos


def play_down(kernel, rng: random.Random, pos: tuple, cards_left: int) -> tuple:
    """Random play until at most `cards_left` cards are in the hands and the stock."""
    while sum(bin(m).count("1") for m in list(pos[1]) + [m for d in pos[8] for m in d]) > cards_left:
        pos = kernel.play(pos, rng.choice(kernel.legal_moves(pos)))[0]
    return pos


def main(path: str) -> None:
    kernel = load(path)
    best, pv, every_move, _ = kernel.WANT_FLAGS
    rng = random.Random(2026)
    searcher = kernel.Searcher(64.0)
    for i in range(200):
        # mostly the default rules, now and then every variant switch
        rules = 0 if i % 16 else rng.randrange(64)
        pos = new_round(rng, rules)
        searcher.search(pos, best | pv)
        later = [advance(kernel, rng, pos, k) for k in (4, 2, 1, 0)]
        searcher.search_many(later, best | pv)
        searcher.search_many(later[2:], every_move)
        searcher.search_many(later[2:], 0)
    pos = new_round(rng, 0)
    searcher.search(pos, every_move)
    # the other games: four players in partnerships, three alone (paranoid and max^n), scientifico
    # late in the round, Scopa a 15
    fifteen = kernel.RULE_BITS["fifteen"]
    for i in range(6):
        searcher.search(new_round(rng, 0, 4, 3, (0, 1, 0, 1)), best | pv)
        searcher.search(play_down(kernel, rng, new_round(rng, 0, 3, 3, (0, 1, 2)), 27), best | pv)
        searcher.search(play_down(kernel, rng, new_round(rng, 0, 3, 3, (0, 1, 2)), 18), best | pv,
                        objective="maxn")
        searcher.search(play_down(kernel, rng, new_round(rng, 0, 4, 10, (0, 1, 0, 1)), 20), best | pv)
        searcher.search(new_round(rng, fifteen), best | pv)


if __name__ == "__main__":
    main(sys.argv[1])

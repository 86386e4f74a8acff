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


def new_round(rng: random.Random, rules: int) -> tuple:
    """A shuffled deck dealt as a round starts (the kernel's position tuple, see ext/family_api.pxi)."""
    cards = list(range(40))
    rng.shuffle(cards)

    def mask(cs):
        return sum(1 << c for c in cs)

    dealer = rng.randrange(2)
    hands = [0, 0]
    hands[1 - dealer], hands[dealer] = mask(cards[0:3]), mask(cards[3:6])
    deals = []
    for i in range(10, 40, 6):          # 3 cards to the non-dealer, then 3 to the dealer
        deal = [0, 0]
        deal[1 - dealer], deal[dealer] = mask(cards[i:i + 3]), mask(cards[i + 3:i + 6])
        deals.append(tuple(deal))
    return (2, tuple(hands), mask(cards[6:10]), (0, 0), (0, 0), 1 - dealer, dealer, -1, tuple(deals), rules, (0, 1))


def advance(kernel, rng: random.Random, pos: tuple, deals_left: int) -> tuple:
    """Random play up to the start of the deal with `deals_left` deals still in the stock."""
    while len(pos[8]) > deals_left or bin(pos[1][0] | pos[1][1]).count("1") != 6:
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


if __name__ == "__main__":
    main(sys.argv[1])

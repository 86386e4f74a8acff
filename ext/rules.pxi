# The rules as C structs, for every game of the family (2, 3, 4 and 6 players, partnerships,
# Scopone, scientifico, Scopa a 15): the variant switches, the mutable state of a round and its
# fixed part. Seats 0..players-1 in playing order; each seat belongs to a side (sides numbered
# 0.. in order of their first seat); captures stay in the capturing seat's pile and score for
# its side.

cdef enum:
    RULE_ASSO_PIGLIA_TUTTO = 1
    RULE_ACE_SWEEP_IS_SCOPA = 2
    RULE_RE_BELLO = 4
    RULE_NAPOLA = 8
    RULE_FEWEST_CARDS = 16
    RULE_PRIMIERA_ZERO = 32
    RULE_FIFTEEN = 64              # Scopa a 15: a card of value v takes one or more cards summing to 15 - v
    RULE_OPTIONAL_CAPTURE = 128    # a card that could capture may also be laid down
    RULE_LAST_SWEEP_COUNTS = 256   # the round's very last play scores its sweep too
    RULE_ALL = 511

cdef enum:
    MAX_SEATS = 6
    MAX_HAND = 10                 # scientifico: 10 cards each
    MAX_DEALS = 6                 # deals still in the stock (two players: at most 5)
    MAX_PLIES = 42                # cards that can still be played (40), with room
    # Most legal moves of one node: 10 cards in hand against the largest table that leaves,
    # worst case computed exhaustively over hand compositions: 11,894 (standard rule, 10-card
    # hands) and 7,726 (Scopa a 15); round up.
    MAX_MOVES = 16384

ctypedef struct State:
    uint64_t hand[MAX_SEATS]
    uint64_t in_hands       # union of the hands
    uint64_t table
    uint64_t pile[MAX_SEATS]
    uint64_t zkey           # Zobrist key of the cards in hands (by seat) and on the table
    int16_t table_value     # sum of the capture values on the table (no sum can exceed it)
    int8_t scopas[MAX_SEATS]
    int8_t to_move
    int8_t dealer
    int8_t last_capturer    # -1: nobody yet
    int8_t deals_left

ctypedef struct Game:
    # The fixed part of a round: rules, seats, sides and the stock, dealt from the end of the array
    # (deal[deals_left - 1] is the next deal, one mask per seat).
    int rules
    int players
    int nsides
    int8_t side[MAX_SEATS]
    int8_t next_seat[MAX_SEATS]
    uint64_t deal[MAX_DEALS][MAX_SEATS]
    uint64_t deal_cards[MAX_DEALS]     # union of each deal
    uint64_t deal_key[MAX_DEALS]       # Zobrist key of each deal's cards in the hands they go to

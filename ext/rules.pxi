# The rules as C structs: the variant switches, the mutable state of a round and its fixed future.

cdef enum:
    RULE_ASSO_PIGLIA_TUTTO = 1
    RULE_ACE_SWEEP_IS_SCOPA = 2
    RULE_RE_BELLO = 4
    RULE_NAPOLA = 8
    RULE_FEWEST_CARDS = 16
    RULE_PRIMIERA_ZERO = 32
    RULE_ALL = 63                  # every bit the two-player engine knows (its fast path)
    # the family engine's too
    RULE_FIFTEEN = 64              # Scopa a 15: a card of value v takes one or more cards summing to 15 - v
    RULE_OPTIONAL_CAPTURE = 128    # a card that could capture may also be laid down
    RULE_LAST_SWEEP_COUNTS = 256   # the round's very last play scores its sweep too
    FAMILY_RULE_ALL = 511

ctypedef struct State:
    uint64_t hand[2]
    uint64_t table
    uint64_t pile[2]
    uint64_t zkey          # Zobrist key of the cards in hands and on the table
    int16_t table_value    # sum of the capture values on the table (no sum can exceed it)
    int8_t scopas[2]
    int8_t to_move
    int8_t dealer
    int8_t last_capturer   # -1: nobody has captured yet
    int8_t deals_left      # deals still in the stock

ctypedef struct Game:
    # What does not change during a round: the rules and the stock, dealt from the end of the array:
    # deal[deals_left - 1] is the next deal, [0] to the non-dealer and [1] to the dealer.
    int rules
    uint64_t deal[MAX_DEALS][2]

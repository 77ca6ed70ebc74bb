/* Compiled kernels of the search's hot paths: a determinized Barbu hand's legal masks, trick winners,
 * scoring, rollout rules and exact endgame, and the exact deal sampler's draw (docs/rules/barbu.md).
 *
 * Each function mirrors one piece of the pure-Python engine exactly; engine/barbu/search/kernels.py and
 * sample.py are the callers: kernels.pack makes the flat tuple read_state() reads, and the pure code runs
 * when this module is missing. Every random draw comes from splitmix64 with exact bounded draws, written
 * alike in engine/barbu/search/rng.py, so both paths give the same result for the same seed on every
 * machine (tests/test_kernels.py holds them to it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Contract codes: the index in engine.barbu.rules.CONTRACTS. */
enum { NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS, DOMINOES };
/* Trump duty codes: the index in rules.TRUMP_DUTY. Lead rule codes: kernels.LEAD_RULES. */
enum { FOLLOW_ONLY, RUFF, OVERTRUMP };
enum { LEAD_FREE, LEAD_KING, LEAD_STRICT, LEAD_BROKEN };

#define SUIT(s) (((uint64_t)0x1FFF) << (13 * (s)))
#define HEARTS 1
#define HEARTS_MASK SUIT(HEARTS)
#define KH_BIT ((uint64_t)1 << (13 + 11))
#define AH_BIT ((uint64_t)1 << (13 + 12))
#define QUEENS_MASK (((uint64_t)1 << 10) | ((uint64_t)1 << 23) | ((uint64_t)1 << 36) | ((uint64_t)1 << 49))
#define STATE_LEN 36
#define DECK ((((uint64_t)1) << 52) - 1)

typedef struct {
    uint64_t hands[4];
    int contract, trump, duty, lead_rule, hearts_broken, leader, to_move;
    int trick_len, trick[4], tricks;
    uint64_t played;
    long scores[4];
    int early_end;
    uint64_t playable;
    int low[4], high[4];
    int finished;
    long points[4];
    int over;
} State;

/* ------------------------------------------------------------------ random draws */

static inline uint64_t next64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A draw uniform in [0, k), 1 <= k < 2**32: Lemire's multiply and reject, exact. */
static inline uint32_t below(uint64_t *s, uint32_t k) {
    uint64_t m = (next64(s) >> 32) * (uint64_t)k;
    uint32_t low = (uint32_t)m;
    if (low < k) {
        uint32_t t = (uint32_t)(-k) % k;
        while (low < t) {
            m = (next64(s) >> 32) * (uint64_t)k;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A draw uniform in [0, total), 1 <= total < 2**63: the top bits of a draw, rejected until below total. */
static uint64_t below64(uint64_t *s, uint64_t total) {
    if (total == 1)
        return 0;
    int bits = 64 - __builtin_clzll(total - 1);
    if (bits == 0)
        bits = 1;
    for (;;) {
        uint64_t r = next64(s) >> (64 - bits);
        if (r < total)
            return r;
    }
}

/* rng.Rng.shuffle: Fisher-Yates from the last item down, successive steps' indices the mixed-radix digits
 * of one draw below the product of their ranges (kept below 2**63), least significant first. */
static void shuffle(uint64_t *s, int *items, int n) {
    int i = n - 1;
    while (i > 0) {
        int first = i;
        uint64_t total = 1;
        while (i > 0 && total <= (((uint64_t)1 << 63) - 1) / (uint64_t)(i + 1)) {
            total *= (uint64_t)(i + 1);
            i--;
        }
        uint64_t r = below64(s, total);
        for (int t = first; t > i; t--) {
            int j = (int)(r % (uint64_t)(t + 1));
            r /= (uint64_t)(t + 1);
            int tmp = items[t];
            items[t] = items[j];
            items[j] = tmp;
        }
    }
}

/* ------------------------------------------------------------------ bit helpers */

static inline int top(uint64_t m) { return 63 - __builtin_clzll(m); }
static inline int bottom(uint64_t m) { return __builtin_ctzll(m); }
static inline uint64_t above_card(int c) { return ~(((uint64_t)1 << (c + 1)) - 1); }

/* The card of the highest rank in mask (any suit; the first suit on ties), as rollout._highest_rank. */
static int highest_rank(uint64_t mask) {
    int best = -1, rank = -1;
    for (int s = 0; s < 4; s++) {
        uint64_t m = mask & SUIT(s);
        if (m) {
            int c = top(m);
            if (c - 13 * s > rank) {
                best = c;
                rank = c - 13 * s;
            }
        }
    }
    return best;
}

/* The card of the lowest rank in mask (any suit; the first suit on ties), as rollout._lowest_rank. */
static int lowest_rank(uint64_t mask) {
    int best = -1, rank = 13;
    for (int s = 0; s < 4; s++) {
        uint64_t m = mask & SUIT(s);
        if (m) {
            int c = bottom(m);
            if (c - 13 * s < rank) {
                best = c;
                rank = c - 13 * s;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------------------ the rules (hand.py) */

/* Hand.trick_mask: the cards seat may play to the trick. */
static uint64_t trick_mask(const State *st, int seat) {
    uint64_t hand = st->hands[seat];
    if (st->trick_len == 0) {
        int rule = st->lead_rule;
        if (rule == LEAD_FREE)
            return hand;
        if (rule == LEAD_KING)
            return hand == KH_BIT ? hand : hand & ~KH_BIT;
        uint64_t others = hand & ~HEARTS_MASK;
        if (!others || (rule == LEAD_BROKEN && st->hearts_broken))
            return hand;
        return others;
    }
    int led = st->trick[0] / 13;
    uint64_t follow = hand & SUIT(led);
    int trump = st->trump;
    if (follow) {
        if (trump == led && st->duty == OVERTRUMP) {
            int best = -1;
            for (int i = 0; i < st->trick_len; i++)
                if (st->trick[i] / 13 == led && st->trick[i] > best)
                    best = st->trick[i];
            uint64_t over = follow & above_card(best);
            return over ? over : follow;
        }
        return follow;
    }
    if (trump < 0 || st->duty == FOLLOW_ONLY)
        return hand;
    uint64_t trumps = hand & SUIT(trump);
    if (!trumps)
        return hand;
    if (st->duty == OVERTRUMP) {
        int best = -1;
        for (int i = 0; i < st->trick_len; i++)
            if (st->trick[i] / 13 == trump && st->trick[i] > best)
                best = st->trick[i];
        if (best >= 0) {
            uint64_t over = trumps & above_card(best);
            return over ? over : trumps;
        }
    }
    return trumps;
}

/* Hand.legal_mask for the seat to move in the play. */
static uint64_t legal_mask(const State *st, int seat) {
    if (st->contract == DOMINOES)
        return st->hands[seat] & st->playable;
    return trick_mask(st, seat);
}

/* hand.trick_winner: the seat winning the four cards led by leader. */
static int trick_winner(const int *trick, int leader, int trump) {
    int best = 0, best_card = trick[0], best_suit = trick[0] / 13;
    for (int i = 1; i < 4; i++) {
        int c = trick[i], suit = c / 13;
        if (suit == best_suit) {
            if (c > best_card) {
                best = i;
                best_card = c;
            }
        } else if (suit == trump) {
            best = i;
            best_card = c;
            best_suit = suit;
        }
    }
    return (leader + best) % 4;
}

/* Hand._trick_score. */
static long trick_score(int contract, uint64_t taken, int number) {
    switch (contract) {
    case NO_TRICKS:
        return -2;
    case TRUMPS:
        return 5;
    case NO_QUEENS:
        return -6L * __builtin_popcountll(taken & QUEENS_MASK);
    case NO_HEARTS:
        return -2L * __builtin_popcountll(taken & HEARTS_MASK) - ((taken & AH_BIT) ? 4 : 0);
    case BARBU:
        return (taken & KH_BIT) ? -20 : 0;
    default: /* NO_LAST_TWO */
        return number == 11 ? -10 : number == 12 ? -20 : 0;
    }
}

/* Hand._ends_early. */
static int ends_early(const State *st) {
    switch (st->contract) {
    case NO_QUEENS:
        return (st->played & QUEENS_MASK) == QUEENS_MASK;
    case NO_HEARTS:
        return (st->played & HEARTS_MASK) == HEARTS_MASK;
    case BARBU:
        return (st->played & KH_BIT) != 0;
    default:
        return 0;
    }
}

static void finish_trick(State *st) {
    int led = st->trick[0] / 13;
    int winner = trick_winner(st->trick, st->leader, st->trump);
    uint64_t taken = 0;
    for (int i = 0; i < 4; i++)
        taken |= (uint64_t)1 << st->trick[i];
    if (led != HEARTS && (taken & HEARTS_MASK))
        st->hearts_broken = 1;
    int number = st->tricks++;
    st->scores[winner] += trick_score(st->contract, taken, number);
    st->trick_len = 0;
    if (number == 12 || (st->early_end && ends_early(st))) {
        st->over = 1;
        st->to_move = -1;
        return;
    }
    st->leader = st->to_move = winner;
}

static void next_domino_seat(State *st, int seat) {
    int nxt = (seat + 1) % 4;
    while (!st->hands[nxt])
        nxt = (nxt + 1) % 4;
    st->to_move = nxt;
}

/* Hand._domino after the card left the hand. */
static void domino(State *st, int seat, int c) {
    int suit = c / 13, rank = c % 13;
    uint64_t playable = st->playable & ~((uint64_t)1 << c);
    int lo = st->low[suit], hi = st->high[suit];
    if (lo < 0) {
        lo = hi = rank;
        if (rank > 0)
            playable |= (uint64_t)1 << (c - 1);
        if (rank < 12)
            playable |= (uint64_t)1 << (c + 1);
    } else if (rank < lo) {
        lo = rank;
        if (rank > 0)
            playable |= (uint64_t)1 << (c - 1);
    } else {
        hi = rank;
        if (rank < 12)
            playable |= (uint64_t)1 << (c + 1);
    }
    st->low[suit] = lo;
    st->high[suit] = hi;
    st->playable = playable;
    if (!st->hands[seat]) {
        int place = ++st->finished;
        st->scores[seat] += st->points[place - 1];
        if (place == 3) {
            for (int s = 0; s < 4; s++)
                if (st->hands[s])
                    st->scores[s] += st->points[3];
            st->finished = 4;
            st->over = 1;
            st->to_move = -1;
            return;
        }
    }
    next_domino_seat(st, seat);
}

/* Hand.play_card. */
static void play_card(State *st, int seat, int c) {
    uint64_t bit = (uint64_t)1 << c;
    st->hands[seat] ^= bit;
    st->played |= bit;
    if (st->contract == DOMINOES) {
        domino(st, seat, c);
        return;
    }
    st->trick[st->trick_len++] = c;
    if (st->trick_len < 4) {
        st->to_move = (seat + 1) % 4;
        return;
    }
    finish_trick(st);
}

/* ------------------------------------------------------------------ the rollout rules (rollout.py) */

static int discard(int contract, uint64_t mask) {
    if (contract == BARBU) {
        if (mask & KH_BIT)
            return bottom(KH_BIT);
        if (mask & AH_BIT)
            return bottom(AH_BIT);
    } else if (contract == NO_HEARTS) {
        if (mask & HEARTS_MASK)
            return top(mask & HEARTS_MASK);
    } else if (contract == NO_QUEENS && (mask & QUEENS_MASK)) {
        return top(mask & QUEENS_MASK);
    }
    return highest_rank(mask);
}

/* rollout.choose_card: the rollout's card from the legal cards mask (at least two). */
static int choose_card(const State *st, uint64_t mask) {
    int contract = st->contract;
    if (st->trick_len == 0) {
        if (contract == TRUMPS || (contract == NO_LAST_TWO && st->tricks < 9))
            return highest_rank(mask);
        return lowest_rank(mask);
    }
    int led = st->trick[0] / 13;
    uint64_t led_mask = SUIT(led);
    int win = -1;
    for (int i = 0; i < st->trick_len; i++)
        if (st->trick[i] / 13 == led && st->trick[i] > win)
            win = st->trick[i];
    if (contract == TRUMPS) {
        int trump = st->trump, best_trump = -1;
        for (int i = 0; i < st->trick_len; i++)
            if (st->trick[i] / 13 == trump && st->trick[i] > best_trump)
                best_trump = st->trick[i];
        if (mask & led_mask) {
            if (best_trump >= 0 && led != trump)
                return bottom(mask);
            uint64_t above = mask & above_card(win);
            if (!above)
                return bottom(mask);
            return st->trick_len == 3 ? bottom(above) : top(above);
        }
        uint64_t trumps = mask & SUIT(trump);
        if (trumps) {
            if (best_trump >= 0) {
                uint64_t over = trumps & above_card(best_trump);
                return over ? bottom(over) : bottom(trumps);
            }
            return bottom(trumps);
        }
        return lowest_rank(mask);
    }
    if (!(mask & led_mask))
        return discard(contract, mask);
    if (contract == NO_LAST_TWO && st->tricks < 9)
        return top(mask);
    uint64_t below_win = mask & (((uint64_t)1 << win) - 1);
    return below_win ? top(below_win) : top(mask);
}

/* rollout.solve_exact: the contract scores when every seat, from here to the hand's end, plays the card
 * that maximises its own hand result (weights[seat] . scores); the lowest such card on ties. */
static void solve_exact(const State *st, const long weights[4][4], long out[4]) {
    int seat = st->to_move;
    const long *w = weights[seat];
    long best = 0;
    int have = 0;
    for (uint64_t m = trick_mask(st, seat); m; m &= m - 1) {
        State child = *st;
        long scores[4];
        play_card(&child, seat, bottom(m));
        if (child.over)
            memcpy(scores, child.scores, sizeof scores);
        else
            solve_exact(&child, weights, scores);
        long value = w[0] * scores[0] + w[1] * scores[1] + w[2] * scores[2] + w[3] * scores[3];
        if (!have || value > best) {
            have = 1;
            best = value;
            memcpy(out, scores, sizeof scores);
        }
    }
}

static inline int cards_left(const State *st) {
    return __builtin_popcountll(st->hands[0] | st->hands[1] | st->hands[2] | st->hands[3]);
}

/* rollout.playout: the hand to its end with the rollout rules (Dominoes: a random fitting card); in a
 * trick contract, once exact cards or fewer are left (exact > 0), the rest solved by solve_exact.
 * Returns 0, or -1 when Dominoes' rows and the hands disagree (a round of passes: no real hand has one). */
static int playout(State *st, uint64_t seed, int exact, const long weights[4][4]) {
    if (st->contract == DOMINOES) {
        int passes = 0;
        while (!st->over) {
            int seat = st->to_move;
            uint64_t mask = st->hands[seat] & st->playable;
            if (!mask) {
                if (++passes > 4)
                    return -1;
                next_domino_seat(st, seat);
                continue;
            }
            passes = 0;
            uint32_t n = below(&seed, (uint32_t)__builtin_popcountll(mask));
            while (n--)
                mask &= mask - 1;
            play_card(st, seat, bottom(mask));
        }
        return 0;
    }
    while (!st->over) {
        if (exact > 0 && cards_left(st) <= exact) {
            long scores[4];
            solve_exact(st, weights, scores);
            memcpy(st->scores, scores, sizeof scores);
            st->over = 1;
            return 0;
        }
        int seat = st->to_move;
        uint64_t mask = trick_mask(st, seat);
        play_card(st, seat, (mask & (mask - 1)) ? choose_card(st, mask) : top(mask));
    }
    return 0;
}

/* ------------------------------------------------------------------ Python glue */

static int read_u64(PyObject *item, uint64_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(item);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

static int read_int(PyObject *item, long *out) {
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* The state from kernels.pack's tuple (its layout is documented there). */
static int read_state(PyObject *tuple, State *st) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != STATE_LEN) {
        PyErr_SetString(PyExc_ValueError, "a packed hand is a tuple of 36 ints (kernels.pack)");
        return -1;
    }
    long v[STATE_LEN];
    for (int i = 0; i < STATE_LEN; i++) {
        if (i < 4 || i == 16 || i == 22) {
            uint64_t u;
            if (read_u64(PyTuple_GET_ITEM(tuple, i), &u) < 0)
                return -1;
            if (i < 4)
                st->hands[i] = u;
            else if (i == 16)
                st->played = u;
            else
                st->playable = u;
            v[i] = 0;
        } else if (read_int(PyTuple_GET_ITEM(tuple, i), &v[i]) < 0) {
            return -1;
        }
    }
    st->contract = (int)v[4];
    st->trump = (int)v[5];
    st->duty = (int)v[6];
    st->lead_rule = (int)v[7];
    st->hearts_broken = (int)v[8];
    st->leader = (int)v[9];
    st->to_move = (int)v[10];
    st->trick_len = (int)v[11];
    for (int i = 0; i < 3; i++)
        st->trick[i] = (int)v[12 + i];
    st->trick[3] = -1;
    st->tricks = (int)v[15];
    for (int s = 0; s < 4; s++) {
        st->scores[s] = v[17 + s];
        st->low[s] = (int)v[23 + s];
        st->high[s] = (int)v[27 + s];
        st->points[s] = v[32 + s];
    }
    st->early_end = (int)v[21];
    st->finished = (int)v[31];
    st->over = 0;
    /* Every index and shift below stays in range: the kernels never read or write outside their arrays. */
    int ok = st->contract >= 0 && st->contract <= DOMINOES && st->trick_len >= 0 && st->trick_len <= 3 &&
             st->to_move >= 0 && st->to_move <= 3 && st->leader >= 0 && st->leader <= 3 && st->trump >= -1 &&
             st->trump <= 3 && st->duty >= 0 && st->duty <= OVERTRUMP && st->lead_rule >= 0 &&
             st->lead_rule <= LEAD_BROKEN && st->finished >= 0 && st->finished <= 2 && st->tricks >= 0 &&
             st->tricks <= 12 && (st->played & ~DECK) == 0 && (st->playable & ~DECK) == 0;
    for (int s = 0; s < 4 && ok; s++)
        ok = (st->hands[s] & ~DECK) == 0 && st->low[s] >= -1 && st->low[s] <= 12 && st->high[s] >= -1 &&
             st->high[s] <= 12;
    for (int i = 0; i < st->trick_len && ok; i++)
        ok = st->trick[i] >= 0 && st->trick[i] < 52;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a packed hand in its play (kernels.pack)");
        return -1;
    }
    return 0;
}

/* Whether the hand can be played to its end: every card in exactly one hand or played, and in a trick
 * contract each seat holding the cards it still owes the tricks (so every seat to move has a card). */
static int complete(const State *st) {
    uint64_t all = st->played;
    for (int s = 0; s < 4; s++) {
        if (all & st->hands[s])
            return 0;
        all |= st->hands[s];
    }
    if (all != DECK)
        return 0;
    if (st->contract == DOMINOES)
        return 1;
    for (int i = 0; i < 4; i++) {
        int seat = (st->leader + i) % 4;
        int owed = 13 - st->tricks - (i < st->trick_len ? 1 : 0);
        if (__builtin_popcountll(st->hands[seat]) != owed)
            return 0;
    }
    return st->to_move == (st->leader + st->trick_len) % 4;
}

static int read_seat(PyObject *obj, int *seat) {
    long s = PyLong_AsLong(obj);
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (s < 0 || s > 3) {
        PyErr_SetString(PyExc_ValueError, "a seat is 0..3");
        return -1;
    }
    *seat = (int)s;
    return 0;
}

static PyObject *py_legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    State st;
    int seat;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "legal_mask(packed, seat)");
        return NULL;
    }
    if (read_state(args[0], &st) < 0 || read_seat(args[1], &seat) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(legal_mask(&st, seat));
}

static PyObject *py_rollout_card(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    State st;
    uint64_t mask;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "rollout_card(packed, mask)");
        return NULL;
    }
    if (read_state(args[0], &st) < 0 || read_u64(args[1], &mask) < 0)
        return NULL;
    if (st.contract == DOMINOES || (mask & (mask - 1)) == 0) {
        PyErr_SetString(PyExc_ValueError, "rollout_card is for a trick contract's choice of two cards or more");
        return NULL;
    }
    return PyLong_FromLong(choose_card(&st, mask));
}

static PyObject *py_trick_winner(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long v[6];
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "trick_winner(c0, c1, c2, c3, leader, trump)");
        return NULL;
    }
    for (int i = 0; i < 6; i++)
        if (read_int(args[i], &v[i]) < 0)
            return NULL;
    int trick[4] = {(int)v[0], (int)v[1], (int)v[2], (int)v[3]};
    return PyLong_FromLong(trick_winner(trick, (int)v[4], (int)v[5]));
}

/* playout(packed, deal, first, seed, exact, weights): the hand packed, every seat s given deal[s] more
 * cards, first (a card, or -1) played by the seat to move, then played to its end (the last exact cards
 * solved, weights the 16 ints of each seat's hand result by the four contract scores, seat by seat);
 * returns the four contract scores. */
static PyObject *py_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    State st;
    long first, exact;
    uint64_t seed;
    long weights[4][4];
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "playout(packed, deal, first, seed, exact, weights)");
        return NULL;
    }
    if (read_state(args[0], &st) < 0)
        return NULL;
    PyObject *deal = args[1];
    if (!PyTuple_Check(deal) && !PyList_Check(deal)) {
        PyErr_SetString(PyExc_TypeError, "deal: four card masks");
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(deal) != 4) {
        PyErr_SetString(PyExc_ValueError, "deal: four card masks");
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        uint64_t m;
        if (read_u64(PySequence_Fast_GET_ITEM(deal, s), &m) < 0)
            return NULL;
        st.hands[s] |= m;
    }
    if (read_int(args[2], &first) < 0)
        return NULL;
    seed = PyLong_AsUnsignedLongLongMask(args[3]);
    if (PyErr_Occurred())
        return NULL;
    if (read_int(args[4], &exact) < 0)
        return NULL;
    if (!PyTuple_Check(args[5]) || PyTuple_GET_SIZE(args[5]) != 16) {
        PyErr_SetString(PyExc_ValueError, "weights: a tuple of 16 ints");
        return NULL;
    }
    for (int i = 0; i < 16; i++)
        if (read_int(PyTuple_GET_ITEM(args[5], i), &weights[i / 4][i % 4]) < 0)
            return NULL;
    if (exact < 0 || exact > 12) {
        PyErr_SetString(PyExc_ValueError, "exact: at most 12 cards are solved exactly (kernels.MAX_EXACT)");
        return NULL;
    }
    if (!complete(&st)) {
        PyErr_SetString(PyExc_ValueError, "the hand and the deal do not hold every unplayed card once");
        return NULL;
    }
    if (first >= 0) {
        if (first > 51 || !((legal_mask(&st, st.to_move) >> first) & 1)) {
            PyErr_SetString(PyExc_ValueError, "first: a card the seat to move may play");
            return NULL;
        }
        play_card(&st, st.to_move, (int)first);
    }
    if (playout(&st, seed, (int)exact, weights) < 0) {
        PyErr_SetString(PyExc_ValueError, "the Dominoes rows do not match the cards played");
        return NULL;
    }
    return Py_BuildValue("(llll)", st.scores[0], st.scores[1], st.scores[2], st.scores[3]);
}

/* sample(total, weights, splits, types, seed): sample.DealSampler's draw. weights are the cumulative
 * weights of the count matrices splits; types are (seats mask, cards mask) pairs, splits[i] the counts of
 * split i, type by type, seat by seat in increasing order. Returns the four seats' masks. */
static PyObject *py_sample(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "sample(total, weights, splits, types, seed)");
        return NULL;
    }
    uint64_t total, seed;
    if (read_u64(args[0], &total) < 0)
        return NULL;
    PyObject *weights = args[1], *splits = args[2], *types = args[3];
    if (!PyTuple_Check(weights) || !PyTuple_Check(splits) || !PyTuple_Check(types) || total == 0 ||
        total >= ((uint64_t)1 << 63) || PyTuple_GET_SIZE(weights) != PyTuple_GET_SIZE(splits)) {
        PyErr_SetString(PyExc_ValueError, "sample: the tables of a DealSampler");
        return NULL;
    }
    seed = PyLong_AsUnsignedLongLongMask(args[4]);
    if (PyErr_Occurred())
        return NULL;
    uint64_t r = below64(&seed, total);
    /* bisect_right(weights, r): the first split whose cumulative weight exceeds r. */
    Py_ssize_t lo = 0, hi = PyTuple_GET_SIZE(weights);
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        uint64_t w;
        if (read_u64(PyTuple_GET_ITEM(weights, mid), &w) < 0)
            return NULL;
        if (r < w)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo >= PyTuple_GET_SIZE(splits)) {
        PyErr_SetString(PyExc_ValueError, "sample: weights do not reach the total");
        return NULL;
    }
    PyObject *split = PyTuple_GET_ITEM(splits, lo);
    if (!PyTuple_Check(split)) {
        PyErr_SetString(PyExc_ValueError, "sample: a split is a tuple of counts");
        return NULL;
    }
    uint64_t out[4] = {0, 0, 0, 0};
    Py_ssize_t k = 0, nsplit = PyTuple_GET_SIZE(split);
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(types); t++) {
        PyObject *type = PyTuple_GET_ITEM(types, t);
        uint64_t seats, bits;
        if (!PyTuple_Check(type) || PyTuple_GET_SIZE(type) != 2 ||
            read_u64(PyTuple_GET_ITEM(type, 0), &seats) < 0 || read_u64(PyTuple_GET_ITEM(type, 1), &bits) < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "sample: a type is (seats, cards)");
            return NULL;
        }
        int cards[52], n = 0;
        for (uint64_t m = bits & (((uint64_t)1 << 52) - 1); m; m &= m - 1)
            cards[n++] = bottom(m);
        if (__builtin_popcountll(seats) == 1) {
            out[bottom(seats)] |= bits;
            k += 1;
            continue;
        }
        shuffle(&seed, cards, n);
        int i = 0;
        for (int s = 0; s < 4; s++) {
            if (!((seats >> s) & 1))
                continue;
            long count;
            if (k >= nsplit || read_int(PyTuple_GET_ITEM(split, k), &count) < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "sample: a split too short for its types");
                return NULL;
            }
            k++;
            for (long c = 0; c < count && i < n; c++)
                out[s] |= (uint64_t)1 << cards[i++];
        }
    }
    return Py_BuildValue("[KKKK]", (unsigned long long)out[0], (unsigned long long)out[1],
                         (unsigned long long)out[2], (unsigned long long)out[3]);
}

/* ------------------------------------------------------------------ Baker's Dozen (search_open.py) */

#define OPEN_COLS 13
#define TO_FOUNDATION (-3) /* column_moves.ANY_FOUNDATION */

typedef struct {
    unsigned char cols[OPEN_COLS][52];
    int len[OPEN_COLS];
    uint64_t colh[OPEN_COLS];
    int where[52];
    int nextv[4];
    int on_found;
    const unsigned char *z;
} Open;

/* rules.VALUE and rules.card_of: Ace 1 .. King 13. */
static inline int value_of(int c) { return c % 13 == 12 ? 1 : c % 13 + 2; }
static inline int card_of(int suit, int value) { return suit * 13 + (value == 1 ? 12 : value - 2); }

/* search_open._Z[depth * 52 + card], from the native-order bytes the caller passes. */
static inline uint64_t zob(const Open *o, int depth, int c) {
    uint64_t v;
    memcpy(&v, o->z + 8 * (depth * 52 + c), 8);
    return v;
}

/* The parts of search_open.Facts children needs: cards lying above a lower card of their suit, whether
 * the top is one, each suit's lowest value (99: none). */
typedef struct {
    int misplaced, top_misplaced, low[4];
} Facts;

static void column_facts(const Open *o, int i, Facts *f) {
    int low[4] = {99, 99, 99, 99};
    f->misplaced = f->top_misplaced = 0;
    for (int d = 0; d < o->len[i]; d++) {
        int c = o->cols[i][d], v = value_of(c), suit = c / 13;
        if (low[suit] < v) {
            f->misplaced++;
            if (d == o->len[i] - 1)
                f->top_misplaced = 1;
        } else {
            low[suit] = v;
        }
    }
    memcpy(f->low, low, sizeof low);
}

/* OpenSearch._above_wanted. */
static int above_wanted(const Open *o) {
    int above = 0;
    for (int suit = 0; suit < 4; suit++)
        if (o->nextv[suit] <= 13) {
            int w = o->where[card_of(suit, o->nextv[suit])];
            above += o->len[w >> 8] - 1 - (w & 255);
        }
    return above;
}

/* OpenSearch.score. */
static int open_score(const Open *o) {
    int out = 52 - o->on_found + above_wanted(o);
    for (int i = 0; i < OPEN_COLS; i++) {
        Facts f;
        column_facts(o, i, &f);
        out += f.misplaced;
    }
    return out;
}

/* OpenSearch.do: column src's top card onto column dst, or up (dst TO_FOUNDATION). */
static void open_do(Open *o, int src, int dst) {
    int c = o->cols[src][--o->len[src]];
    o->colh[src] ^= zob(o, o->len[src], c);
    if (dst >= 0) {
        int d = o->len[dst]++;
        o->cols[dst][d] = (unsigned char)c;
        o->colh[dst] ^= zob(o, d, c);
        o->where[c] = dst << 8 | d;
    } else {
        o->on_found++;
        o->nextv[c / 13] = value_of(c) + 1;
    }
}

/* OpenSearch.safe: the column whose top may go up safely, or -1. */
static int open_safe(const Open *o) {
    int low = 99;
    for (int s = 0; s < 4; s++)
        if (o->nextv[s] < low)
            low = o->nextv[s];
    if (low > 13)
        return -1;
    for (int suit = 0; suit < 4; suit++)
        if (o->nextv[suit] == low) {
            int w = o->where[card_of(suit, low)], i = w >> 8;
            if (o->len[i] == (w & 255) + 1)
                return i;
        }
    return -1;
}

typedef unsigned __int128 u128;

static u128 open_key(const Open *o) {
    u128 k = 0;
    for (int i = 0; i < OPEN_COLS; i++)
        k += o->colh[i];
    return k;
}

static PyObject *key_object(u128 k) {
    uint64_t hi = (uint64_t)(k >> 64), lo = (uint64_t)k;
    if (!hi)
        return PyLong_FromUnsignedLongLong(lo);
    unsigned char bytes[16];
    for (int i = 0; i < 16; i++)
        bytes[i] = (unsigned char)(k >> (8 * i));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, 16, 1, 0);
#endif
}

/* Append (key, steps, won, score) to out unless key is in seen; steals steps. 0, or -1 on an error. */
static int add_child(PyObject *out, PyObject *seen, u128 k, PyObject *steps, int won, int score) {
    PyObject *key = key_object(k);
    if (!key || !steps) {
        Py_XDECREF(key);
        Py_XDECREF(steps);
        return -1;
    }
    int met = PyDict_Contains(seen, key);
    if (met < 0 || met) {
        Py_DECREF(key);
        Py_DECREF(steps);
        return met < 0 ? -1 : 0;
    }
    PyObject *child = Py_BuildValue("(NNOi)", key, steps, won ? Py_True : Py_False, score);
    if (!child)
        return -1;
    int r = PyList_Append(out, child);
    Py_DECREF(child);
    return r;
}

static int read_open(PyObject *const *args, Open *o) {
    PyObject *cols = args[0], *colh = args[1], *nextv = args[2], *where = args[3], *z = args[8];
    if (!PyList_Check(cols) || PyList_GET_SIZE(cols) != OPEN_COLS || !PyList_Check(colh) ||
        PyList_GET_SIZE(colh) != OPEN_COLS || !PyList_Check(nextv) || PyList_GET_SIZE(nextv) != 4 ||
        !PyList_Check(where) || PyList_GET_SIZE(where) != 52 || !PyBytes_Check(z) ||
        PyBytes_GET_SIZE(z) != 52 * 52 * 8) {
        PyErr_SetString(PyExc_ValueError, "open_children: an OpenSearch's columns, hashes, wanted values, places");
        return -1;
    }
    o->z = (const unsigned char *)PyBytes_AS_STRING(z);
    for (int i = 0; i < OPEN_COLS; i++) {
        PyObject *col = PyList_GET_ITEM(cols, i);
        if (!PyBytes_Check(col) || PyBytes_GET_SIZE(col) > 52) {
            PyErr_SetString(PyExc_ValueError, "open_children: a column is bytes of at most 52 cards");
            return -1;
        }
        o->len[i] = (int)PyBytes_GET_SIZE(col);
        memcpy(o->cols[i], PyBytes_AS_STRING(col), (size_t)o->len[i]);
        for (int d = 0; d < o->len[i]; d++)
            if (o->cols[i][d] >= 52) {
                PyErr_SetString(PyExc_ValueError, "open_children: a card is 0..51");
                return -1;
            }
        if (read_u64(PyList_GET_ITEM(colh, i), &o->colh[i]) < 0)
            return -1;
    }
    for (int s = 0; s < 4; s++) {
        long v;
        if (read_int(PyList_GET_ITEM(nextv, s), &v) < 0)
            return -1;
        if (v < 1 || v > 14) {
            PyErr_SetString(PyExc_ValueError, "open_children: a wanted value is 1..14");
            return -1;
        }
        o->nextv[s] = (int)v;
    }
    for (int c = 0; c < 52; c++) {
        long w;
        if (read_int(PyList_GET_ITEM(where, c), &w) < 0)
            return -1;
        o->where[c] = (int)w;
    }
    /* The wanted cards' places are read as columns and depths: they must be cards in play. */
    for (int suit = 0; suit < 4; suit++)
        if (o->nextv[suit] <= 13) {
            int w = o->where[card_of(suit, o->nextv[suit])];
            if (w < 0 || (w >> 8) >= OPEN_COLS || (w & 255) >= o->len[w >> 8]) {
                PyErr_SetString(PyExc_ValueError, "open_children: a wanted card is not in a column");
                return -1;
            }
        }
    long on_found;
    if (read_int(args[4], &on_found) < 0)
        return -1;
    o->on_found = (int)on_found;
    return 0;
}

/* open_children(cols, colh, nextv, where, on_found, bases, kings, seen, z, moves, moves_up): exactly
 * OpenSearch.children(seen) of the position those fields hold (see there), in the same order. */
static PyObject *py_open_children(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Open o;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError,
                        "open_children(cols, colh, nextv, where, on_found, bases, kings, seen, z, moves, moves_up)");
        return NULL;
    }
    if (read_open(args, &o) < 0)
        return NULL;
    PyObject *bases = args[5], *seen = args[7], *rows = args[9], *ups = args[10];
    int kings = PyObject_IsTrue(args[6]);
    if (kings < 0)
        return NULL;
    if (!PyTuple_Check(bases) || PyTuple_GET_SIZE(bases) != 52 || !PyDict_Check(seen) || !PyTuple_Check(rows) ||
        PyTuple_GET_SIZE(rows) != OPEN_COLS || !PyTuple_Check(ups) || PyTuple_GET_SIZE(ups) != OPEN_COLS) {
        PyErr_SetString(PyExc_ValueError, "open_children: bases by card, the seen keys, the move tables");
        return NULL;
    }
    for (int i = 0; i < OPEN_COLS; i++) {
        PyObject *row = PyTuple_GET_ITEM(rows, i), *up = PyTuple_GET_ITEM(ups, i);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != OPEN_COLS || !PyTuple_Check(up) ||
            PyTuple_GET_SIZE(up) != 1) {
            PyErr_SetString(PyExc_ValueError, "open_children: the move tables are search_open._MOVE, _MOVE_UP");
            return NULL;
        }
    }
    Facts known[OPEN_COLS];
    int at[53], wanted_in[OPEN_COLS] = {0}, wanted[52] = {0};
    for (int k = 0; k < 53; k++)
        at[k] = -1;
    int here = 52 - o.on_found + above_wanted(&o);
    for (int j = 0; j < OPEN_COLS; j++) {
        column_facts(&o, j, &known[j]);
        here += known[j].misplaced;
        if (o.len[j])
            at[o.cols[j][o.len[j] - 1]] = j;
        else if (kings && at[52] < 0)
            at[52] = j;
    }
    u128 colsum = open_key(&o);
    int low = 99;
    for (int suit = 0; suit < 4; suit++) {
        if (o.nextv[suit] < low)
            low = o.nextv[suit];
        if (o.nextv[suit] <= 13) {
            int c = card_of(suit, o.nextv[suit]);
            wanted[c] = 1;
            wanted_in[o.where[c] >> 8]++;
        }
    }
    /* The moves made in full below, after every other: (source, destination). */
    int slow[2 * 52 * 4][2], nslow = 0;
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    for (int i = 0; i < OPEN_COLS; i++) {
        int size = o.len[i];
        if (!size)
            continue;
        int c = o.cols[i][size - 1], suit = c / 13, value = value_of(c);
        if (value == o.nextv[suit]) {
            slow[nslow][0] = i;
            slow[nslow++][1] = TO_FOUNDATION;
        }
        /* A King has no card to go onto; slot 52 of at is the empty column it may go to. */
        int targets[52], ntargets = 0;
        if (value != 13) {
            PyObject *b = PyTuple_GET_ITEM(bases, c);
            if (!PyTuple_Check(b) || PyTuple_GET_SIZE(b) > 52) {
                PyErr_SetString(PyExc_ValueError, "open_children: a card's bases are a tuple of cards");
                goto fail;
            }
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(b); k++) {
                long card;
                if (read_int(PyTuple_GET_ITEM(b, k), &card) < 0)
                    goto fail;
                if (card < 0 || card > 51) {
                    PyErr_SetString(PyExc_ValueError, "open_children: a base is a card 0..51");
                    goto fail;
                }
                targets[ntargets++] = (int)card;
            }
        } else if (size > 1) {
            targets[ntargets++] = 52;
        }
        PyObject *row = PyTuple_GET_ITEM(rows, i);
        if (size > 1 && value_of(o.cols[i][size - 2]) == low && o.nextv[o.cols[i][size - 2] / 13] == low) {
            for (int t = 0; t < ntargets; t++)
                if (at[targets[t]] >= 0) {
                    slow[nslow][0] = i;
                    slow[nslow++][1] = at[targets[t]];
                }
            continue;
        }
        uint64_t hs = o.colh[i];
        u128 key_here = colsum - hs + (hs ^ zob(&o, size - 1, c));
        int score_here = here - known[i].top_misplaced - wanted_in[i] + wanted[c];
        for (int t = 0; t < ntargets; t++) {
            int j = at[targets[t]];
            if (j < 0)
                continue;
            uint64_t ht = o.colh[j];
            u128 key = key_here - ht + (ht ^ zob(&o, o.len[j], c));
            int score = score_here + wanted_in[j] + (known[j].low[suit] < value ? 1 : 0);
            PyObject *steps = PyTuple_GET_ITEM(row, j);
            Py_INCREF(steps);
            if (add_child(out, seen, key, steps, 0, score) < 0)
                goto fail;
        }
    }
    for (int m = 0; m < nslow; m++) {
        Open t = o;
        int src = slow[m][0], dst = slow[m][1], n = 0;
        PyObject *first = dst >= 0 ? PyTuple_GET_ITEM(PyTuple_GET_ITEM(rows, src), dst)
                                   : PyTuple_GET_ITEM(ups, src);
        PyObject *made[53];
        made[n++] = PyTuple_GET_ITEM(first, 0);
        open_do(&t, src, dst);
        int k;
        while ((k = open_safe(&t)) >= 0) {
            made[n++] = PyTuple_GET_ITEM(PyTuple_GET_ITEM(ups, k), 0);
            open_do(&t, k, TO_FOUNDATION);
        }
        PyObject *steps = PyTuple_New(n);
        if (!steps)
            goto fail;
        for (int x = 0; x < n; x++) {
            Py_INCREF(made[x]);
            PyTuple_SET_ITEM(steps, x, made[x]);
        }
        int won = t.on_found == 52;
        if (add_child(out, seen, open_key(&t), steps, won, won ? 0 : open_score(&t)) < 0)
            goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"legal_mask", (PyCFunction)(void (*)(void))py_legal_mask, METH_FASTCALL, "Hand.legal_mask of the packed hand."},
    {"rollout_card", (PyCFunction)(void (*)(void))py_rollout_card, METH_FASTCALL, "rollout.choose_card."},
    {"trick_winner", (PyCFunction)(void (*)(void))py_trick_winner, METH_FASTCALL, "hand.trick_winner."},
    {"playout", (PyCFunction)(void (*)(void))py_playout, METH_FASTCALL, "A rollout to the hand's end."},
    {"sample", (PyCFunction)(void (*)(void))py_sample, METH_FASTCALL, "DealSampler's draw."},
    {"open_children", (PyCFunction)(void (*)(void))py_open_children, METH_FASTCALL, "OpenSearch.children."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._kernels", "Compiled kernels of the Barbu search and the solitaire solver (see engine/compiled.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }

"""Builtin PAU methods, part b: numbers and arithmetic, lists of numbers."""

METHODS = [
    {
        "id": "nonzero_digit_product",
        "tags": ["easy", "numbers", "digits", "smoke"],
        "description": "Returns the product of the non-zero decimal digits of the absolute value of the integer; zero digits are skipped, so 0 (which has no non-zero digit) gives 1.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    product = 1
    for ch in str(abs(arg0)):
        if ch != "0":
            product *= int(ch)
    return product
""",
        "train_inputs": ["(234,)", "(105,)", "(7,)"],
        "test_inputs": [
            "(0,)",
            "(-46,)",
            "(1000,)",
            "(999,)",
            "(12345,)",
            "(-5,)",
            "(10,)",
            "(808,)",
            "(111111,)",
            "(20202,)",
            "(98765,)",
            "(3003,)",
            "(-1,)",
        ],
    },
    {
        "id": "signed_digit_alternation",
        "tags": ["medium", "numbers", "digits"],
        "description": "Adds and subtracts the decimal digits of the absolute value alternately, starting with + on the most significant digit (d1 - d2 + d3 - ...). If the input is negative the result is negated.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    total = 0
    for i, ch in enumerate(str(abs(arg0))):
        if i % 2 == 0:
            total += int(ch)
        else:
            total -= int(ch)
    if arg0 < 0:
        return -total
    return total
""",
        "train_inputs": ["(1234,)", "(918,)", "(-52,)"],
        "test_inputs": [
            "(0,)",
            "(7,)",
            "(-7,)",
            "(19,)",
            "(91,)",
            "(1111,)",
            "(-1234,)",
            "(50505,)",
            "(909090,)",
            "(123456789,)",
            "(-806,)",
            "(10,)",
            "(1000001,)",
        ],
    },
    {
        "id": "additive_persistence",
        "tags": ["easy", "numbers", "digits"],
        "description": "Counts how many times the digits of the non-negative integer must be summed (replacing the number by its digit sum each time) before a single-digit number remains; single-digit inputs give 0. Negative input raises ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    steps = 0
    n = arg0
    while n >= 10:
        n = sum(int(ch) for ch in str(n))
        steps += 1
    return steps
""",
        "train_inputs": ["(38,)", "(5,)", "(199,)"],
        "test_inputs": [
            "(0,)",
            "(9,)",
            "(10,)",
            "(19,)",
            "(99,)",
            "(100,)",
            "(999999999999,)",
            "(19999999999999999999999,)",
            "(-3,)",
            "(123456,)",
            "(55,)",
            "(1000000,)",
            "(89,)",
        ],
    },
    {
        "id": "multiplicative_root_and_steps",
        "tags": ["medium", "numbers", "digits"],
        "description": "Repeatedly replaces the non-negative integer by the product of its decimal digits until it has a single digit; returns the tuple (number of replacements, final digit). Single-digit inputs give (0, n); negative input raises ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    steps = 0
    n = arg0
    while n >= 10:
        product = 1
        for ch in str(n):
            product *= int(ch)
        n = product
        steps += 1
    return (steps, n)
""",
        "train_inputs": ["(39,)", "(4,)", "(77,)"],
        "test_inputs": [
            "(0,)",
            "(9,)",
            "(10,)",
            "(25,)",
            "(679,)",
            "(277777788888899,)",
            "(-12,)",
            "(111,)",
            "(99,)",
            "(1234,)",
            "(3,)",
            "(68889,)",
            "(50,)",
        ],
    },
    {
        "id": "divisor_count_and_sum",
        "tags": ["easy", "numbers", "divisibility"],
        "description": "Returns the tuple (number of positive divisors, sum of positive divisors) of the integer, counting 1 and the number itself. Raises ValueError when the integer is below 1 or above 10,000,000.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 1 or arg0 > 10_000_000:
        raise ValueError("arg0 must be between 1 and 10,000,000")


def test_func(arg0):
    validate_input_args(arg0)
    count = 0
    total = 0
    d = 1
    while d * d <= arg0:
        if arg0 % d == 0:
            other = arg0 // d
            count += 1
            total += d
            if other != d:
                count += 1
                total += other
        d += 1
    return (count, total)
""",
        "train_inputs": ["(12,)", "(7,)", "(16,)"],
        "test_inputs": [
            "(1,)",
            "(0,)",
            "(2,)",
            "(36,)",
            "(97,)",
            "(100,)",
            "(360,)",
            "(10000000,)",
            "(10000001,)",
            "(-4,)",
            "(49,)",
            "(30,)",
            "(9999991,)",
        ],
    },
    {
        "id": "abundance_class",
        "tags": ["medium", "numbers", "divisibility"],
        "description": "Compares the sum of the proper divisors (all positive divisors except the number itself) with the number and returns (label, sum minus number), where label is 'perfect' when they are equal, 'abundant' when the sum is larger and 'deficient' otherwise; 1 gives ('deficient', -1). Raises ValueError for inputs below 1 or above 10,000,000.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 1 or arg0 > 10_000_000:
        raise ValueError("arg0 must be between 1 and 10,000,000")


def _proper_divisor_sum(n):
    total = 0
    d = 1
    while d * d <= n:
        if n % d == 0:
            total += d + n // d
            if d * d == n:
                total -= d
        d += 1
    return total - n


def test_func(arg0):
    validate_input_args(arg0)
    excess = _proper_divisor_sum(arg0) - arg0
    if excess == 0:
        return ("perfect", 0)
    if excess > 0:
        return ("abundant", excess)
    return ("deficient", excess)
""",
        "train_inputs": ["(12,)", "(6,)", "(15,)"],
        "test_inputs": [
            "(1,)",
            "(2,)",
            "(28,)",
            "(496,)",
            "(8128,)",
            "(18,)",
            "(945,)",
            "(49,)",
            "(97,)",
            "(0,)",
            "(10000001,)",
            "(5040,)",
            "(16,)",
        ],
    },
    {
        "id": "prime_factor_notation",
        "tags": ["medium", "numbers", "primes"],
        "description": "Returns the prime factorisation as a string of ascending primes joined by ' * ', writing a repeated prime as 'p^k' (e.g. 360 -> '2^3 * 3^2 * 5'). Integers below 2 (including negatives) are returned as their plain decimal string; inputs above 10,000,000 raise ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 > 10_000_000:
        raise ValueError("arg0 must be at most 10,000,000")


def test_func(arg0):
    validate_input_args(arg0)
    if arg0 < 2:
        return str(arg0)
    parts = []
    n = arg0
    p = 2
    while p * p <= n:
        k = 0
        while n % p == 0:
            n //= p
            k += 1
        if k == 1:
            parts.append(str(p))
        elif k > 1:
            parts.append(str(p) + "^" + str(k))
        p += 1
    if n > 1:
        parts.append(str(n))
    return " * ".join(parts)
""",
        "train_inputs": ["(360,)", "(13,)", "(1024,)"],
        "test_inputs": [
            "(1,)",
            "(0,)",
            "(-12,)",
            "(2,)",
            "(4,)",
            "(6,)",
            "(97,)",
            "(210,)",
            "(9999991,)",
            "(10000000,)",
            "(10000001,)",
            "(3125,)",
            "(8575,)",
            "(2310,)",
        ],
    },
    {
        "id": "prime_factor_multiplicity_total",
        "tags": ["medium", "numbers", "primes"],
        "description": "Counts the prime factors of the positive integer with multiplicity (12 = 2*2*3 gives 3); 1 gives 0. Raises ValueError for inputs below 1 or above 10,000,000.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 1 or arg0 > 10_000_000:
        raise ValueError("arg0 must be between 1 and 10,000,000")


def test_func(arg0):
    validate_input_args(arg0)
    n = arg0
    count = 0
    p = 2
    while p * p <= n:
        while n % p == 0:
            n //= p
            count += 1
        p += 1
    if n > 1:
        count += 1
    return count
""",
        "train_inputs": ["(12,)", "(7,)", "(64,)"],
        "test_inputs": [
            "(1,)",
            "(2,)",
            "(30,)",
            "(36,)",
            "(1024,)",
            "(999,)",
            "(9699690,)",
            "(9999991,)",
            "(0,)",
            "(10000001,)",
            "(-8,)",
            "(49,)",
            "(100,)",
        ],
    },
    {
        "id": "next_prime_strictly_after",
        "tags": ["easy", "numbers", "primes"],
        "description": "Returns the smallest prime strictly greater than the integer (so a prime input gives the following prime, and anything below 2 gives 2). Raises ValueError for inputs above 10,000,000.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 > 10_000_000:
        raise ValueError("arg0 must be at most 10,000,000")


def _is_prime(n):
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def test_func(arg0):
    validate_input_args(arg0)
    candidate = max(arg0 + 1, 2)
    while not _is_prime(candidate):
        candidate += 1
    return candidate
""",
        "train_inputs": ["(10,)", "(13,)", "(0,)"],
        "test_inputs": [
            "(-5,)",
            "(1,)",
            "(2,)",
            "(3,)",
            "(24,)",
            "(89,)",
            "(113,)",
            "(1000,)",
            "(9999990,)",
            "(10000000,)",
            "(10000001,)",
            "(7,)",
            "(523,)",
        ],
    },
    {
        "id": "surrounding_primes",
        "tags": ["medium", "numbers", "primes"],
        "description": "Returns (largest prime strictly below n, smallest prime strictly above n); n itself is never used even when prime, and the first item is None when n <= 2. Raises ValueError for n above 10,000,000.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 > 10_000_000:
        raise ValueError("arg0 must be at most 10,000,000")


def _is_prime(n):
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def test_func(arg0):
    validate_input_args(arg0)
    below = None
    if arg0 > 2:
        below = arg0 - 1
        while not _is_prime(below):
            below -= 1
    above = max(arg0 + 1, 2)
    while not _is_prime(above):
        above += 1
    return (below, above)
""",
        "train_inputs": ["(10,)", "(13,)", "(100,)"],
        "test_inputs": [
            "(2,)",
            "(3,)",
            "(1,)",
            "(-7,)",
            "(4,)",
            "(24,)",
            "(90,)",
            "(127,)",
            "(1000,)",
            "(10000000,)",
            "(10000001,)",
            "(8,)",
            "(200,)",
        ],
    },
    {
        "id": "balanced_ternary_text",
        "tags": ["hard", "numbers", "bases"],
        "description": "Writes the integer in balanced ternary (digits -1, 0, 1 with place values 1, 3, 9, ...), most significant digit first, using '+' for 1, '0' for 0 and '-' for -1; zero gives '0' and negative numbers work too (e.g. 2 -> '+-', -2 -> '-+').",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    if arg0 == 0:
        return "0"
    n = arg0
    out = []
    while n != 0:
        r = n % 3
        if r == 0:
            out.append("0")
            n //= 3
        elif r == 1:
            out.append("+")
            n = (n - 1) // 3
        else:
            out.append("-")
            n = (n + 1) // 3
    return "".join(reversed(out))
""",
        "train_inputs": ["(5,)", "(1,)", "(9,)"],
        "test_inputs": [
            "(0,)",
            "(2,)",
            "(-2,)",
            "(3,)",
            "(-1,)",
            "(8,)",
            "(13,)",
            "(-13,)",
            "(100,)",
            "(-100,)",
            "(242,)",
            "(6561,)",
            "(40,)",
        ],
    },
    {
        "id": "longest_one_bit_run",
        "tags": ["easy", "numbers", "bases"],
        "description": "Returns the length of the longest run of consecutive 1 bits in the binary representation of the non-negative integer; 0 gives 0. Negative input raises ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    best = 0
    run = 0
    for bit in bin(arg0)[2:]:
        if bit == "1":
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best
""",
        "train_inputs": ["(7,)", "(13,)", "(32,)"],
        "test_inputs": [
            "(0,)",
            "(1,)",
            "(2,)",
            "(14,)",
            "(255,)",
            "(256,)",
            "(1775,)",
            "(-1,)",
            "(5,)",
            "(1023,)",
            "(12345678,)",
            "(8190,)",
            "(43690,)",
        ],
    },
    {
        "id": "binary_mirror_mismatches",
        "tags": ["hard", "numbers", "bases"],
        "description": "Writes the non-negative integer in binary without leading zeros and counts the mirrored position pairs (first with last, second with second-to-last, ...) whose bits differ, i.e. the fewest bit flips that make the binary string a palindrome; 0 gives 0. Negative input raises ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    bits = bin(arg0)[2:]
    count = 0
    for i in range(len(bits) // 2):
        if bits[i] != bits[-1 - i]:
            count += 1
    return count
""",
        "train_inputs": ["(6,)", "(9,)", "(12,)"],
        "test_inputs": [
            "(0,)",
            "(1,)",
            "(2,)",
            "(3,)",
            "(4,)",
            "(5,)",
            "(16,)",
            "(18,)",
            "(255,)",
            "(256,)",
            "(1000,)",
            "(-6,)",
            "(43690,)",
        ],
    },
    {
        "id": "collatz_peak",
        "tags": ["medium", "numbers", "sequences"],
        "description": "Follows the Collatz rule from the positive integer (halve when even, 3n+1 when odd) until reaching 1 and returns the largest value visited, including the start. Raises ValueError for inputs below 1 or above 1,000,000.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 1 or arg0 > 1_000_000:
        raise ValueError("arg0 must be between 1 and 1,000,000")


def test_func(arg0):
    validate_input_args(arg0)
    n = arg0
    peak = n
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        peak = max(peak, n)
    return peak
""",
        "train_inputs": ["(6,)", "(8,)", "(27,)"],
        "test_inputs": [
            "(1,)",
            "(2,)",
            "(3,)",
            "(7,)",
            "(16,)",
            "(97,)",
            "(255,)",
            "(1000,)",
            "(1000000,)",
            "(1000001,)",
            "(0,)",
            "(703,)",
            "(15,)",
        ],
    },
    {
        "id": "round_to_ten_ties_even",
        "tags": ["medium", "numbers", "rounding"],
        "description": "Rounds the integer to the nearest multiple of 10; exact ties (last digit 5) go to the neighbouring multiple whose tens count is even, so 25 -> 20, 35 -> 40, -15 -> -20 and -25 -> -20.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    tens, rest = divmod(arg0, 10)
    if rest < 5:
        return tens * 10
    if rest > 5:
        return (tens + 1) * 10
    if tens % 2 == 0:
        return tens * 10
    return (tens + 1) * 10
""",
        "train_inputs": ["(23,)", "(47,)", "(25,)"],
        "test_inputs": [
            "(0,)",
            "(5,)",
            "(15,)",
            "(35,)",
            "(-15,)",
            "(-25,)",
            "(-4,)",
            "(-6,)",
            "(94,)",
            "(96,)",
            "(105,)",
            "(115,)",
            "(1234567,)",
        ],
    },
    {
        "id": "most_frequent_digit",
        "tags": ["easy", "numbers", "digits"],
        "description": "Returns the decimal digit (as an int) that occurs most often in the absolute value of the integer; when several digits tie, the smallest of them is returned.",
        "code": """
from collections import Counter


def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    counts = Counter(str(abs(arg0)))
    best = max(counts.values())
    return min(int(d) for d, c in counts.items() if c == best)
""",
        "train_inputs": ["(1223,)", "(5,)", "(998877,)"],
        "test_inputs": [
            "(0,)",
            "(-7007,)",
            "(1000,)",
            "(123456789,)",
            "(9,)",
            "(91919,)",
            "(50,)",
            "(-333221,)",
            "(4444,)",
            "(8080808,)",
            "(12,)",
            "(777111,)",
        ],
    },
    {
        "id": "kaprekar_step",
        "tags": ["hard", "numbers", "digits"],
        "description": "Pads the integer (0 to 9999) with leading zeros to four digits and returns the number formed by its digits in descending order minus the number formed by them in ascending order (e.g. 3524 -> 5432 - 2345 = 3087, 1 -> 1000 - 1 = 999). Raises ValueError outside 0..9999.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0 or arg0 > 9999:
        raise ValueError("arg0 must be between 0 and 9999")


def test_func(arg0):
    validate_input_args(arg0)
    digits = sorted(str(arg0).zfill(4))
    ascending = int("".join(digits))
    descending = int("".join(reversed(digits)))
    return descending - ascending
""",
        "train_inputs": ["(3524,)", "(6174,)", "(1111,)"],
        "test_inputs": [
            "(0,)",
            "(1,)",
            "(21,)",
            "(999,)",
            "(9998,)",
            "(9999,)",
            "(10000,)",
            "(-1,)",
            "(2111,)",
            "(1000,)",
            "(495,)",
            "(8352,)",
        ],
    },
    {
        "id": "happy_steps",
        "tags": ["hard", "numbers", "sequences"],
        "description": "Repeatedly replaces the positive integer by the sum of the squares of its decimal digits; returns how many replacements it takes to reach 1 (0 for 1 itself), or -1 if a value repeats before 1 is reached. Raises ValueError for inputs below 1.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 1:
        raise ValueError("arg0 must be positive")


def test_func(arg0):
    validate_input_args(arg0)
    seen = set()
    n = arg0
    steps = 0
    while n != 1:
        if n in seen:
            return -1
        seen.add(n)
        n = sum(int(ch) ** 2 for ch in str(n))
        steps += 1
    return steps
""",
        "train_inputs": ["(7,)", "(19,)", "(4,)"],
        "test_inputs": [
            "(1,)",
            "(2,)",
            "(10,)",
            "(13,)",
            "(100,)",
            "(0,)",
            "(-5,)",
            "(23,)",
            "(44,)",
            "(3,)",
            "(986543210,)",
            "(1111111,)",
            "(78999,)",
        ],
    },
    {
        "id": "triangular_root",
        "tags": ["medium", "numbers", "sequences"],
        "description": "If the integer is a triangular number k*(k+1)/2 for some k >= 0, returns that k (0 gives 0); otherwise, including for every negative input, returns None.",
        "code": """
import math


def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    if arg0 < 0:
        return None
    k = (math.isqrt(8 * arg0 + 1) - 1) // 2
    if k * (k + 1) // 2 == arg0:
        return k
    return None
""",
        "train_inputs": ["(10,)", "(11,)", "(1,)"],
        "test_inputs": [
            "(0,)",
            "(-1,)",
            "(-6,)",
            "(2,)",
            "(3,)",
            "(6,)",
            "(7,)",
            "(5050,)",
            "(5051,)",
            "(500500,)",
            "(999999,)",
            "(21,)",
            "(45,)",
        ],
    },
    {
        "id": "two_square_split",
        "tags": ["hard", "numbers"],
        "description": "Finds non-negative integers a <= b with a*a + b*b equal to the input and returns (a, b) for the smallest possible a, or None when no such pair exists. Raises ValueError for negative inputs or inputs above 10,000,000.",
        "code": """
import math


def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0 or arg0 > 10_000_000:
        raise ValueError("arg0 must be between 0 and 10,000,000")


def test_func(arg0):
    validate_input_args(arg0)
    a = 0
    while 2 * a * a <= arg0:
        rest = arg0 - a * a
        b = math.isqrt(rest)
        if b * b == rest:
            return (a, b)
        a += 1
    return None
""",
        "train_inputs": ["(25,)", "(3,)", "(50,)"],
        "test_inputs": [
            "(0,)",
            "(1,)",
            "(2,)",
            "(7,)",
            "(65,)",
            "(325,)",
            "(21,)",
            "(9999999,)",
            "(10000000,)",
            "(10000001,)",
            "(-1,)",
            "(1105,)",
            "(8,)",
        ],
    },
    {
        "id": "ordinal_text",
        "tags": ["easy", "numbers"],
        "description": "Returns the integer followed by its English ordinal suffix: 'st', 'nd', 'rd' for last digit 1, 2, 3 and 'th' otherwise, except that numbers whose last two digits are 11, 12 or 13 take 'th' (e.g. '112th'); the suffix uses the absolute value, so -1 gives '-1st'.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    n = abs(arg0)
    if n % 100 in (11, 12, 13):
        suffix = "th"
    elif n % 10 == 1:
        suffix = "st"
    elif n % 10 == 2:
        suffix = "nd"
    elif n % 10 == 3:
        suffix = "rd"
    else:
        suffix = "th"
    return str(arg0) + suffix
""",
        "train_inputs": ["(1,)", "(22,)", "(4,)"],
        "test_inputs": [
            "(0,)",
            "(3,)",
            "(11,)",
            "(12,)",
            "(13,)",
            "(21,)",
            "(101,)",
            "(111,)",
            "(112,)",
            "(1003,)",
            "(-1,)",
            "(-12,)",
            "(2013,)",
            "(42,)",
        ],
    },
    {
        "id": "gray_code_decode",
        "tags": ["hard", "numbers", "bases"],
        "description": "Treats the non-negative integer as a reflected binary Gray code and returns the ordinary binary number it encodes, i.e. the m with m XOR (m >> 1) equal to the input (each output bit is the XOR of all input bits at that position and above). Negative input raises ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    result = 0
    n = arg0
    while n:
        result ^= n
        n >>= 1
    return result
""",
        "train_inputs": ["(1,)", "(3,)", "(6,)"],
        "test_inputs": [
            "(0,)",
            "(2,)",
            "(4,)",
            "(5,)",
            "(7,)",
            "(8,)",
            "(15,)",
            "(255,)",
            "(1024,)",
            "(-3,)",
            "(12345,)",
            "(43690,)",
        ],
    },
    {
        "id": "isqrt_with_remainder",
        "tags": ["easy", "numbers"],
        "description": "Returns (r, n - r*r) where r is the largest integer whose square does not exceed the non-negative integer n. Negative input raises ValueError.",
        "code": """
import math


def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    root = math.isqrt(arg0)
    return (root, arg0 - root * root)
""",
        "train_inputs": ["(10,)", "(16,)", "(2,)"],
        "test_inputs": [
            "(0,)",
            "(1,)",
            "(3,)",
            "(15,)",
            "(24,)",
            "(99,)",
            "(100,)",
            "(1000000,)",
            "(999999,)",
            "(-4,)",
            "(123456789,)",
            "(48,)",
        ],
    },
    {
        "id": "harshad_quotient",
        "tags": ["easy", "numbers", "divisibility", "digits"],
        "description": "If the positive integer is divisible by the sum of its decimal digits, returns the quotient (number // digit sum); otherwise returns None. Raises ValueError for inputs below 1.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 1:
        raise ValueError("arg0 must be positive")


def test_func(arg0):
    validate_input_args(arg0)
    digit_sum = sum(int(ch) for ch in str(arg0))
    if arg0 % digit_sum == 0:
        return arg0 // digit_sum
    return None
""",
        "train_inputs": ["(18,)", "(19,)", "(111,)"],
        "test_inputs": [
            "(1,)",
            "(9,)",
            "(10,)",
            "(12,)",
            "(13,)",
            "(100,)",
            "(201,)",
            "(0,)",
            "(-18,)",
            "(1729,)",
            "(999,)",
            "(1001,)",
        ],
    },
    {
        "id": "binary_ones_minus_zeros",
        "tags": ["easy", "numbers", "bases"],
        "description": "Writes the non-negative integer in binary without leading zeros and returns the number of 1 bits minus the number of 0 bits; 0 is written '0' and gives -1. Negative input raises ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    bits = bin(arg0)[2:]
    return bits.count("1") - bits.count("0")
""",
        "train_inputs": ["(5,)", "(8,)", "(7,)"],
        "test_inputs": [
            "(0,)",
            "(1,)",
            "(2,)",
            "(3,)",
            "(10,)",
            "(255,)",
            "(256,)",
            "(-1,)",
            "(1000,)",
            "(4097,)",
            "(21845,)",
            "(6,)",
        ],
    },
    {
        "id": "reverse_add_palindrome",
        "tags": ["hard", "numbers", "sequences", "digits"],
        "description": "Repeatedly adds the non-negative integer to its digit reversal until a palindrome appears and returns (number of additions, that palindrome); a palindromic input gives (0, n). If no palindrome appears within 30 additions it returns (-1, None). Negative input raises ValueError.",
        "code": """
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")


def test_func(arg0):
    validate_input_args(arg0)
    n = arg0
    for steps in range(31):
        text = str(n)
        if text == text[::-1]:
            return (steps, n)
        n += int(text[::-1])
    return (-1, None)
""",
        "train_inputs": ["(56,)", "(121,)", "(87,)"],
        "test_inputs": [
            "(0,)",
            "(7,)",
            "(10,)",
            "(89,)",
            "(196,)",
            "(195,)",
            "(-12,)",
            "(1000,)",
            "(12,)",
            "(69,)",
            "(4994,)",
            "(879,)",
            "(98,)",
        ],
    },
    {
        "id": "record_high_indices",
        "tags": ["easy", "lists"],
        "description": "Returns the indices at which the list reaches a new record high, i.e. elements strictly greater than every element before them; index 0 is always included for a non-empty list, values equal to the current record do not count, and an empty list gives [].",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    result = []
    best = None
    for i, x in enumerate(arg0):
        if best is None or x > best:
            best = x
            result.append(i)
    return result
""",
        "train_inputs": ["([3, 1, 4, 1, 5, 9, 2, 6],)", "([5, 5, 5],)", "([9, 8, 7],)"],
        "test_inputs": [
            "([],)",
            "([1],)",
            "([-5, -3, -4, -1],)",
            "([1, 2, 3, 4],)",
            "([2, 2, 3, 3, 4],)",
            "([10, 1, 11, 2, 12],)",
            "([0, -1, 0, 1],)",
            "([7, 100, 50, 100, 101],)",
            "([4, 3, 2, 1, 5],)",
            "([-2, -2],)",
            "([1, 3, 2, 3, 4, 4, 5],)",
            "([100],)",
        ],
    },
    {
        "id": "longest_strict_climb",
        "tags": ["easy", "lists", "runs"],
        "description": "Returns the length of the longest block of consecutive elements that is strictly increasing; equal neighbours break a climb, a non-empty list gives at least 1 and an empty list gives 0.",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0:
        return 0
    best = 1
    run = 1
    for prev, cur in zip(arg0, arg0[1:]):
        if cur > prev:
            run += 1
            best = max(best, run)
        else:
            run = 1
    return best
""",
        "train_inputs": ["([1, 2, 3, 1, 2],)", "([5, 4, 3],)", "([1, 1, 2, 3, 4],)"],
        "test_inputs": [
            "([],)",
            "([7],)",
            "([2, 2, 2],)",
            "([1, 2, 3, 4, 5],)",
            "([-3, -2, -1, -1, 0],)",
            "([1, 3, 2, 4, 6, 8, 7],)",
            "([10, 9, 10, 11],)",
            "([0, 1, 0, 1, 0, 1],)",
            "([5, 6],)",
            "([6, 5],)",
            "([1, 2, 2, 3, 4, 5, 1, 2],)",
            "([-10, 0, 10, 20, 30, 25],)",
        ],
    },
    {
        "id": "equal_run_pairs",
        "tags": ["easy", "lists", "runs"],
        "description": "Run-length encodes the list of integers: returns a list of (value, count) tuples, one per maximal block of consecutive equal values, in order; a value that reappears later starts a new tuple, and an empty list gives [].",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    pairs = []
    for x in arg0:
        if pairs and pairs[-1][0] == x:
            pairs[-1][1] += 1
        else:
            pairs.append([x, 1])
    return [tuple(p) for p in pairs]
""",
        "train_inputs": ["([1, 1, 2, 2, 2, 1],)", "([4],)", "([3, 4, 5],)"],
        "test_inputs": [
            "([],)",
            "([0, 0, 0, 0],)",
            "([-1, -1, 1, 1],)",
            "([5, 5, 6, 5, 5],)",
            "([7, 8, 8, 9, 9, 9],)",
            "([2, 3, 2, 3],)",
            "([10, 10],)",
            "([1, 2, 2, 1, 1, 1, 3],)",
            "([-4, -4, -4, 0, -4],)",
            "([100, 101, 101],)",
            "([9, 9, 9, 9, 8],)",
            "([6, 7],)",
        ],
    },
    {
        "id": "second_highest_distinct",
        "tags": ["easy", "lists", "sorting"],
        "description": "Returns the second largest distinct value in the list (duplicates of the maximum are ignored); returns None when the list has fewer than two distinct values, including the empty list.",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    distinct = sorted(set(arg0), reverse=True)
    if len(distinct) < 2:
        return None
    return distinct[1]
""",
        "train_inputs": ["([4, 9, 2, 9],)", "([5, 5],)", "([1, 2, 3],)"],
        "test_inputs": [
            "([],)",
            "([7],)",
            "([3, 3, 3, 2],)",
            "([-1, -5, -3],)",
            "([10, 10, 9, 9, 8],)",
            "([0, 100],)",
            "([100, 0],)",
            "([2, 8, 8, 8, 4, 6],)",
            "([-2, -2, -2],)",
            "([1, 1, 1, 1, 5],)",
            "([50, 40, 30, 20],)",
            "([6, 6, 7],)",
        ],
    },
    {
        "id": "lowest_balance_point",
        "tags": ["hard", "lists", "prefix-sums"],
        "description": "Keeps a running total that starts at 0 and adds the elements in order, and returns (k, m) where m is the lowest running total seen (the starting 0 included) and k is how many elements had been added when m was first reached. A list whose running total never goes below 0, including the empty list, gives (0, 0).",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    balance = 0
    low = 0
    low_at = 0
    for i, x in enumerate(arg0, start=1):
        balance += x
        if balance < low:
            low = balance
            low_at = i
    return (low_at, low)
""",
        "train_inputs": ["([3, -5, 1, -2],)", "([1, 2, 3],)", "([-1, -1, 5],)"],
        "test_inputs": [
            "([],)",
            "([-4],)",
            "([4],)",
            "([0, 0, 0],)",
            "([2, -2, 0],)",
            "([-3, 3, -3, 3],)",
            "([-3, 3, -4, 10],)",
            "([5, -10, 5, -1, -1],)",
            "([10, -1, -1, -1],)",
            "([-1, -2, -3, -4],)",
            "([1, -2, 1, -2, 1, -2],)",
            "([7, -7, -1, 1, -1],)",
        ],
    },
    {
        "id": "longest_zero_sum_slice",
        "tags": ["hard", "lists", "prefix-sums"],
        "description": "Finds the longest non-empty contiguous slice whose elements sum to 0 and returns (start, stop) so that list[start:stop] is that slice (stop exclusive); among equally long slices the one that ends earliest wins, and None is returned when no such slice exists (e.g. the empty list).",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    first_seen = {0: 0}
    total = 0
    best = None
    for i, x in enumerate(arg0, start=1):
        total += x
        if total in first_seen:
            start = first_seen[total]
            if best is None or i - start > best[1] - best[0]:
                best = (start, i)
        else:
            first_seen[total] = i
    return best
""",
        "train_inputs": ["([1, 2, -3, 4],)", "([1, 2, 3],)", "([0],)"],
        "test_inputs": [
            "([],)",
            "([5],)",
            "([3, -3, 3, -3],)",
            "([1, -1, 2, -2, 5],)",
            "([4, 1, -1, 7],)",
            "([2, 2, -4, 9, -9],)",
            "([0, 0, 1, 0],)",
            "([6, -1, -2, -3, 1],)",
            "([-5, 5, 1, 1, -2],)",
            "([10, 20, -30, -5, 5],)",
            "([1, 1, 1, -1],)",
            "([7, 8, 9, -8, -9],)",
            "([1, -1, 5, 2, -2],)",
        ],
    },
    {
        "id": "sort_by_digit_sum",
        "tags": ["medium", "lists", "sorting", "digits"],
        "description": "Returns the integers sorted by the sum of the decimal digits of their absolute values, ascending; numbers with the same digit sum are ordered by their own value, ascending (so -11 comes before 2 and 11).",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def _digit_sum(n):
    return sum(int(ch) for ch in str(abs(n)))


def test_func(arg0):
    validate_input_args(arg0)
    return sorted(arg0, key=lambda x: (_digit_sum(x), x))
""",
        "train_inputs": ["([19, 5, 100, 23],)", "([11, 2, -11],)", "([9, 18, 27],)"],
        "test_inputs": [
            "([],)",
            "([0],)",
            "([10, 1, 100],)",
            "([99, 1000, 55, 7],)",
            "([-9, 9, -18],)",
            "([3, 30, 12, 21],)",
            "([123, 321, 6, 15],)",
            "([8, 17, 26, 35, 44],)",
            "([-100, 50, 5],)",
            "([909, 18, 990, 9],)",
            "([4, 4, 13],)",
            "([71, 17, 8, -80],)",
        ],
    },
    {
        "id": "odds_then_evens_reversed",
        "tags": ["medium", "lists", "sorting"],
        "description": "Returns the odd elements in their original order followed by the even elements in reverse of their original order (zero and negative even numbers count as even).",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    odds = [x for x in arg0 if x % 2 != 0]
    evens = [x for x in arg0 if x % 2 == 0]
    return odds + evens[::-1]
""",
        "train_inputs": ["([1, 2, 3, 4, 5, 6],)", "([8, 6, 4],)", "([7, 3],)"],
        "test_inputs": [
            "([],)",
            "([0],)",
            "([2, 4, 1],)",
            "([-1, -2, -3, -4],)",
            "([10, 11, 12, 13, 14],)",
            "([5, 5, 6, 6],)",
            "([0, 1, 0, 1],)",
            "([9, 8, 7, 6, 5, 4],)",
            "([2, 9, 4, 7, 6],)",
            "([3],)",
            "([100, 1, 200, 3, 300],)",
            "([-6, 0, 6],)",
        ],
    },
    {
        "id": "trend_reversals",
        "tags": ["medium", "lists", "runs"],
        "description": "Counts how many times the direction of change between consecutive elements flips from rising to falling or from falling to rising; steps between equal neighbours are ignored (they neither count nor reset the direction). Lists with fewer than three elements give 0.",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    count = 0
    direction = 0
    for prev, cur in zip(arg0, arg0[1:]):
        if cur == prev:
            continue
        step = 1 if cur > prev else -1
        if direction != 0 and step != direction:
            count += 1
        direction = step
    return count
""",
        "train_inputs": ["([1, 3, 2, 4],)", "([1, 2, 3, 4],)", "([5, 5, 4, 4, 6],)"],
        "test_inputs": [
            "([],)",
            "([1],)",
            "([2, 1],)",
            "([3, 3, 3],)",
            "([1, 2, 1, 2, 1],)",
            "([5, 4, 3, 2, 1],)",
            "([1, 2, 2, 2, 3],)",
            "([1, 2, 2, 2, 1],)",
            "([0, 10, 5, 5, 20, 1],)",
            "([-1, -2, -1, -2],)",
            "([4, 4, 5, 5, 4, 4],)",
            "([1, 3, 5, 2, 0, 7, 8],)",
        ],
    },
    {
        "id": "strict_peak_indices",
        "tags": ["medium", "lists"],
        "description": "Returns the indices of elements strictly greater than each neighbour they have: interior elements must beat both neighbours, the first and last elements only their single neighbour, and a one-element list gives [0]; plateaus of equal values produce no peak.",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    peaks = []
    last = len(arg0) - 1
    for i, x in enumerate(arg0):
        left_ok = i == 0 or x > arg0[i - 1]
        right_ok = i == last or x > arg0[i + 1]
        if left_ok and right_ok:
            peaks.append(i)
    return peaks
""",
        "train_inputs": ["([1, 3, 2, 5, 4],)", "([5, 1, 1, 7],)", "([2, 2, 2],)"],
        "test_inputs": [
            "([],)",
            "([4],)",
            "([1, 2],)",
            "([2, 1],)",
            "([3, 3],)",
            "([1, 2, 3, 4],)",
            "([0, 5, 5, 0],)",
            "([9, 1, 9, 1, 9],)",
            "([-1, -3, -2, -5],)",
            "([1, 4, 1, 4, 4, 1],)",
            "([10, 9, 8, 9, 10],)",
            "([0, 0, 1, 0, 0],)",
        ],
    },
    {
        "id": "dense_ranks",
        "tags": ["easy", "lists", "sorting"],
        "description": "Replaces each element by its dense rank: 1 for the smallest distinct value, 2 for the next distinct value and so on, with equal values sharing a rank and no gaps after ties; an empty list gives [].",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    rank_of = {v: r for r, v in enumerate(sorted(set(arg0)), start=1)}
    return [rank_of[x] for x in arg0]
""",
        "train_inputs": ["([40, 10, 30, 10],)", "([5, 5, 5],)", "([3, 2, 1],)"],
        "test_inputs": [
            "([],)",
            "([7],)",
            "([-1, 0, 1],)",
            "([100, -100, 50, 50],)",
            "([2, 9, 2, 9, 4],)",
            "([0, 0, 1, 1, 2],)",
            "([1000, 1, 10, 100],)",
            "([-5, -10, -5],)",
            "([8, 6, 7, 5, 3, 0, 9],)",
            "([1, 1],)",
            "([12, 11],)",
            "([4, 4, 4, 3, 3, 5],)",
        ],
    },
    {
        "id": "max_drawdown",
        "tags": ["hard", "lists", "thresholds"],
        "description": "Returns the largest drop from an element to any later element, i.e. the maximum of list[i] - list[j] over i < j; returns 0 when no later element is smaller (non-decreasing lists, single elements and the empty list).",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    best = 0
    peak = None
    for x in arg0:
        if peak is None or x > peak:
            peak = x
        elif peak - x > best:
            best = peak - x
    return best
""",
        "train_inputs": ["([5, 3, 8, 2, 6],)", "([1, 2, 3],)", "([10, 4, 7, 1],)"],
        "test_inputs": [
            "([],)",
            "([9],)",
            "([4, 4, 4],)",
            "([3, 2],)",
            "([2, 3],)",
            "([1, 10, 2, 20, 15],)",
            "([-5, -10, 0, -20],)",
            "([100, 1, 100, 1],)",
            "([7, 1, 9, 8, 8, 3],)",
            "([0, -1, -2, -3],)",
            "([6, 5, 10, 4, 12, 11],)",
            "([50, 60, 55, 40, 70, 10],)",
        ],
    },
    {
        "id": "decade_buckets",
        "tags": ["easy", "lists"],
        "description": "Groups the integers by decade: returns a dict mapping (x // 10) * 10 to the list of elements with that key, in their original order (so 7 goes under 0, 25 under 20 and -3 under -10); an empty list gives {}.",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    buckets = {}
    for x in arg0:
        buckets.setdefault(x // 10 * 10, []).append(x)
    return buckets
""",
        "train_inputs": ["([12, 7, 15, 31],)", "([0, 9, 10],)", "([99, 100],)"],
        "test_inputs": [
            "([],)",
            "([-3],)",
            "([-10, -11, -1, 0],)",
            "([5, 5, 5],)",
            "([19, 20, 21, 29, 30],)",
            "([255, 250, 259, 260],)",
            "([40, 4, 44, 400],)",
            "([-20, -19, -21],)",
            "([1, 11, 21, 2, 12],)",
            "([1000],)",
            "([70, 79, 71],)",
            "([8, 18, 9],)",
        ],
    },
    {
        "id": "depth_alternating_weighted_sum",
        "tags": ["hard", "lists", "nested"],
        "description": "Walks a list of integers and nested lists; each integer is multiplied by its nesting depth (top level 1, one list deeper 2, ...), products at odd depths are added and products at even depths are subtracted. Empty lists contribute 0.",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    stack = [arg0]
    while stack:
        item = stack.pop()
        for x in item:
            if isinstance(x, list):
                stack.append(x)
            elif not isinstance(x, int) or isinstance(x, bool):
                raise TypeError("arg0 must contain only ints and nested lists")


def _walk(items, depth):
    total = 0
    for x in items:
        if isinstance(x, list):
            total += _walk(x, depth + 1)
        elif depth % 2 == 1:
            total += x * depth
        else:
            total -= x * depth
    return total


def test_func(arg0):
    validate_input_args(arg0)
    return _walk(arg0, 1)
""",
        "train_inputs": ["([1, [2, 3], 4],)", "([5],)", "([[1, [1]]],)"],
        "test_inputs": [
            "([],)",
            "([[]],)",
            "([3, 4],)",
            "([[5]],)",
            "([[[2]]],)",
            "([1, [1, [1, [1]]]],)",
            "([-2, [-3]],)",
            "([[1, 2], [3, [4, 5]]],)",
            "([10, [], [10]],)",
            "([0, [0, [7]]],)",
            "([[[[1]]], 2],)",
            "([[6], 3, [[2]]],)",
        ],
    },
    {
        "id": "compress_ranges_text",
        "tags": ["medium", "lists", "runs", "sorting"],
        "description": "Sorts the distinct integers and describes them as text: every run of three or more consecutive integers is written 'a..b', a run of exactly two as 'a,b', a lone value by itself, and all pieces are joined with ','; an empty list gives ''.",
        "code": """
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")


def test_func(arg0):
    validate_input_args(arg0)
    values = sorted(set(arg0))
    parts = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(str(values[i]) + ".." + str(values[j]))
        elif j == i + 1:
            parts.append(str(values[i]) + "," + str(values[j]))
        else:
            parts.append(str(values[i]))
        i = j + 1
    return ",".join(parts)
""",
        "train_inputs": ["([1, 2, 3, 5, 7, 8],)", "([4],)", "([10, 9, 8, 7],)"],
        "test_inputs": [
            "([],)",
            "([2, 2, 2],)",
            "([1, 3, 5],)",
            "([1, 2],)",
            "([1, 2, 3],)",
            "([-2, -1, 0, 1, 4],)",
            "([5, 4, 4, 6, 9, 10],)",
            "([0, 2, 3, 4, 6, 7],)",
            "([100, 101, 103, 104, 105, 106],)",
            "([-5, -4],)",
            "([3, 1, 2, 8, 9, 20],)",
            "([7, 7, 8],)",
        ],
    },
    {
        "id": "max_window_sum",
        "tags": ["easy", "lists", "windows"],
        "description": "Returns the largest sum of arg1 consecutive elements of the list; returns None when the window size exceeds the list length (so an empty list always gives None). A window size below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (window size) must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 > len(arg0):
        return None
    window = sum(arg0[:arg1])
    best = window
    for i in range(arg1, len(arg0)):
        window += arg0[i] - arg0[i - arg1]
        best = max(best, window)
    return best
""",
        "train_inputs": ["([1, 5, 2, 8, 3], 2)", "([4, -1, 6], 1)", "([3, 3], 3)"],
        "test_inputs": [
            "([], 1)",
            "([5], 1)",
            "([1, 2, 3], 3)",
            "([1, 2, 3], 4)",
            "([1, 2, 3], 0)",
            "([1, 2, 3], -2)",
            "([-5, -2, -9, -1], 2)",
            "([2, 9, -20, 7, 7], 2)",
            "([10, -10, 10, -10, 10], 3)",
            "([0, 0, 0, 0], 2)",
            "([6, 1, 1, 1, 6, 6], 2)",
            "([1, 2, 3, 4, 5, 6, 7], 5)",
        ],
    },
    {
        "id": "window_means",
        "tags": ["medium", "lists", "windows"],
        "description": "Returns the mean of every window of arg1 consecutive elements, from left to right, each rounded to 2 decimal places as a float; returns [] when the window is longer than the list. A window size below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (window size) must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    means = []
    for start in range(len(arg0) - arg1 + 1):
        means.append(round(sum(arg0[start:start + arg1]) / arg1, 2))
    return means
""",
        "train_inputs": ["([1, 2, 3, 4], 2)", "([10, 20, 30], 3)", "([5, 6], 1)"],
        "test_inputs": [
            "([], 1)",
            "([1, 2], 3)",
            "([1, 2], 0)",
            "([7], 1)",
            "([1, 2, 4], 3)",
            "([1, 1, 2, 3, 5, 8], 3)",
            "([-1, 1, -1, 1], 2)",
            "([100, 0, 0, 100], 4)",
            "([2, 3, 5, 7, 11], 4)",
            "([0, 0, 1], 2)",
            "([10, -5, 3, 8, 1], 3)",
            "([1, 2, 3], -1)",
        ],
    },
    {
        "id": "distinct_window_count",
        "tags": ["medium", "lists", "windows"],
        "description": "Counts the windows of arg1 consecutive elements in which all values are different; returns 0 when the window is longer than the list. A window size below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (window size) must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    count = 0
    for start in range(len(arg0) - arg1 + 1):
        if len(set(arg0[start:start + arg1])) == arg1:
            count += 1
    return count
""",
        "train_inputs": ["([1, 2, 1, 3, 4], 3)", "([5, 5, 5], 2)", "([1, 2, 3], 1)"],
        "test_inputs": [
            "([], 2)",
            "([1, 2], 3)",
            "([1, 2], 0)",
            "([4], 1)",
            "([1, 2, 3, 4], 4)",
            "([1, 2, 3, 1], 4)",
            "([1, 2, 1, 2, 1], 2)",
            "([7, 7, 8, 9, 7], 3)",
            "([0, 1, 2, 3, 0, 1, 2], 4)",
            "([3, 1, 3, 1, 3], 3)",
            "([9, 8, 7, 6, 5], 5)",
            "([2, 2], 1)",
        ],
    },
    {
        "id": "reverse_full_blocks",
        "tags": ["medium", "lists", "windows"],
        "description": "Cuts the list into consecutive blocks of arg1 elements and reverses the order inside each complete block; a shorter final block (the leftover when the length is not a multiple of arg1) is kept in its original order. A block size below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (block size) must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    result = []
    for start in range(0, len(arg0), arg1):
        block = arg0[start:start + arg1]
        if len(block) == arg1:
            result.extend(reversed(block))
        else:
            result.extend(block)
    return result
""",
        "train_inputs": ["([1, 2, 3, 4, 5, 6], 2)", "([1, 2, 3, 4, 5], 3)", "([9, 8], 1)"],
        "test_inputs": [
            "([], 2)",
            "([1, 2, 3], 5)",
            "([1, 2, 3], 3)",
            "([1, 2, 3], 0)",
            "([1, 2, 3, 4, 5, 6, 7], 2)",
            "([1, 2, 3, 4, 5, 6, 7, 8], 4)",
            "([5, 6, 7, 8, 9], 4)",
            "([0, -1, -2, -3], 2)",
            "([4, 4, 5, 5, 6], 2)",
            "([10, 20, 30, 40, 50, 60, 70], 3)",
            "([1, 2], -3)",
            "([3, 1, 2], 2)",
        ],
    },
    {
        "id": "rotate_nonzero_values",
        "tags": ["hard", "lists"],
        "description": "Rotates only the non-zero elements to the right by arg1 places (negative arg1 rotates left, and the amount wraps around the number of non-zero elements) while every zero stays at its index; a list with no non-zero elements is returned unchanged.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    positions = [i for i, x in enumerate(arg0) if x != 0]
    if not positions:
        return list(arg0)
    values = [arg0[i] for i in positions]
    cut = len(values) - arg1 % len(values)
    rotated = values[cut:] + values[:cut]
    result = list(arg0)
    for i, v in zip(positions, rotated):
        result[i] = v
    return result
""",
        "train_inputs": ["([1, 0, 2, 3, 0, 4], 1)", "([5, 6, 7], 1)", "([0, 0, 1], 5)"],
        "test_inputs": [
            "([], 3)",
            "([0, 0, 0], 2)",
            "([1, 2, 3], 0)",
            "([1, 2, 3], 3)",
            "([1, 2, 3], -1)",
            "([0, 1, 0, 2, 0, 3], 2)",
            "([4, 0, 5, 0], 1)",
            "([7, 0, 0, 8, 9], -2)",
            "([1, 0, 2, 0, 3, 0, 4], 7)",
            "([0, -1, -2, 0], 1)",
            "([9, 8, 0, 7, 6], 10)",
            "([3, 0, 3, 4], 1)",
        ],
    },
    {
        "id": "tally_against_threshold",
        "tags": ["easy", "lists", "thresholds", "smoke"],
        "description": "Returns the tuple (number of elements below arg1, number equal to arg1, number above arg1) for the list of integers; an empty list gives (0, 0, 0).",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    below = equal = above = 0
    for x in arg0:
        if x < arg1:
            below += 1
        elif x == arg1:
            equal += 1
        else:
            above += 1
    return (below, equal, above)
""",
        "train_inputs": ["([1, 5, 3, 7, 5], 5)", "([2, 4, 6], 0)", "([10, 20], 15)"],
        "test_inputs": [
            "([], 3)",
            "([3], 3)",
            "([1, 2], 3)",
            "([4, 5], 3)",
            "([-1, 0, 1], 0)",
            "([5, 5, 5, 5], 5)",
            "([9, 1, 8, 2, 7, 3], 5)",
            "([100, -100], -100)",
            "([0, 0, 1], 1)",
            "([6, 7, 8], 10)",
            "([-5, -6, -7], -6)",
            "([2, 2, 3, 3, 4], 3)",
        ],
    },
    {
        "id": "first_prefix_over",
        "tags": ["easy", "lists", "prefix-sums", "thresholds"],
        "description": "Returns the smallest index i at which the running sum list[0] + ... + list[i] becomes strictly greater than arg1, or -1 if the running sum never exceeds it (including for an empty list).",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    total = 0
    for i, x in enumerate(arg0):
        total += x
        if total > arg1:
            return i
    return -1
""",
        "train_inputs": ["([3, 4, 5], 6)", "([1, 1, 1], 10)", "([5, 2], 4)"],
        "test_inputs": [
            "([], 0)",
            "([], -1)",
            "([7], 7)",
            "([8], 7)",
            "([2, 2, 2], 6)",
            "([2, 2, 2], 5)",
            "([10, -10, 3], 9)",
            "([-1, -2, 5], 1)",
            "([-1, -2, 5], 2)",
            "([0, 0, 1], 0)",
            "([4, 4, 4, 4, 4], 15)",
            "([1, 2, 3], -5)",
        ],
    },
    {
        "id": "closest_value_prefer_smaller",
        "tags": ["easy", "lists", "thresholds"],
        "description": "Returns the element of the list closest to arg1 (smallest absolute difference); when two different values are equally close, the smaller one is returned. An empty list gives None.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg0:
        return None
    return min(arg0, key=lambda v: (abs(v - arg1), v))
""",
        "train_inputs": ["([1, 5, 9], 6)", "([10, 20, 30], 25)", "([3], 100)"],
        "test_inputs": [
            "([], 5)",
            "([4, 6], 5)",
            "([6, 4], 5)",
            "([5, 5, 5], 5)",
            "([-3, 3], 0)",
            "([-10, -20, 4], -14)",
            "([-10, -20, 4], -16)",
            "([100, 1, 50], 76)",
            "([100, 1, 50], 74)",
            "([7, 8, 9], 8)",
            "([2, 4, 8, 16], 12)",
            "([0], -7)",
        ],
    },
    {
        "id": "top_k_frequent_values",
        "tags": ["medium", "lists", "sorting"],
        "description": "Returns the arg1 values that occur most often in the list, ordered by count (highest first) and, for equal counts, by value (smallest first); if the list has fewer than arg1 distinct values all of them are returned, and arg1 = 0 gives []. Negative arg1 raises ValueError.",
        "code": """
from collections import Counter


def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 0:
        raise ValueError("arg1 must be non-negative")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    counts = Counter(arg0)
    ranked = sorted(counts, key=lambda v: (-counts[v], v))
    return ranked[:arg1]
""",
        "train_inputs": ["([1, 1, 2, 2, 2, 3], 2)", "([5, 4, 5, 4], 1)", "([7, 8, 9], 5)"],
        "test_inputs": [
            "([], 3)",
            "([1, 2, 3], 0)",
            "([1, 2, 3], -1)",
            "([4, 4, 4], 1)",
            "([3, 1, 2, 3, 1, 3], 2)",
            "([9, 9, 1, 1, 5], 2)",
            "([9, 9, 1, 1, 5], 3)",
            "([-1, -2, -2, -3, -3, -3], 2)",
            "([0, 0, 7, 7, 7, 8, 8, 8], 1)",
            "([10, 20, 10, 30, 20, 10], 4)",
            "([6, 5, 4, 3], 2)",
            "([2, 2, 1], 1)",
        ],
    },
    {
        "id": "kth_smallest_distinct",
        "tags": ["easy", "lists", "sorting"],
        "description": "Returns the arg1-th smallest distinct value of the list, counting from 1 and ignoring duplicates; returns None when the list has fewer than arg1 distinct values. arg1 below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    distinct = sorted(set(arg0))
    if arg1 > len(distinct):
        return None
    return distinct[arg1 - 1]
""",
        "train_inputs": ["([5, 1, 4, 1, 3], 2)", "([8, 8, 8], 1)", "([2, 7], 3)"],
        "test_inputs": [
            "([], 1)",
            "([4], 1)",
            "([4], 2)",
            "([4], 0)",
            "([1, 1, 2, 2, 3, 3], 3)",
            "([1, 1, 2, 2, 3, 3], 4)",
            "([-5, 10, -5, 0], 2)",
            "([9, 7, 5, 3, 1], 5)",
            "([9, 7, 5, 3, 1], 1)",
            "([100, 50, 50, 25], 3)",
            "([6, 6, 5], -1)",
            "([0, 2, 4, 2, 0], 2)",
        ],
    },
    {
        "id": "pair_sum_count",
        "tags": ["medium", "lists"],
        "description": "Counts the pairs of positions i < j whose elements add up to arg1; each pair of positions counts once, so repeated values can form several pairs (e.g. [2, 2, 2] with target 4 gives 3).",
        "code": """
from collections import Counter


def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    seen = Counter()
    count = 0
    for x in arg0:
        count += seen[arg1 - x]
        seen[x] += 1
    return count
""",
        "train_inputs": ["([1, 2, 3, 4], 5)", "([2, 2, 2], 4)", "([1, 1], 3)"],
        "test_inputs": [
            "([], 0)",
            "([5], 10)",
            "([5, 5], 10)",
            "([0, 0, 0, 0], 0)",
            "([-1, 1, -2, 2], 0)",
            "([3, 7, 3, 7], 10)",
            "([1, 9, 2, 8, 5, 5], 10)",
            "([4, 6, 4, 6, 5], 10)",
            "([10, 20, 30], 100)",
            "([-5, 15, 5, 5], 10)",
            "([1, 2, 3, 4, 5, 6], 7)",
            "([2, 4, 6, 8], 12)",
        ],
    },
    {
        "id": "longest_run_at_least",
        "tags": ["easy", "lists", "runs", "thresholds"],
        "description": "Returns the length of the longest block of consecutive elements that are all greater than or equal to arg1; 0 when no element reaches arg1 or the list is empty.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    best = 0
    run = 0
    for x in arg0:
        if x >= arg1:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best
""",
        "train_inputs": ["([5, 6, 2, 7, 8, 9], 5)", "([1, 2, 3], 10)", "([4, 4, 4], 4)"],
        "test_inputs": [
            "([], 0)",
            "([3], 3)",
            "([2], 3)",
            "([1, 5, 1, 5, 5], 5)",
            "([-1, -2, 0, -3], -2)",
            "([10, 10, 9, 10, 10, 10], 10)",
            "([0, 0, 0, 0], 1)",
            "([7, 8, 9, 1], 7)",
            "([1, 7, 8, 9], 8)",
            "([100, -100, 100], 0)",
            "([6, 6, 6, 6, 5, 6], 6)",
            "([2, 3, 4, 5], -10)",
        ],
    },
    {
        "id": "multiset_overlap_sorted",
        "tags": ["easy", "lists", "sorting"],
        "description": "Returns, sorted ascending, the values common to both lists, each repeated as many times as it occurs in the list where it is rarer (a multiset intersection); [] when nothing is shared.",
        "code": """
from collections import Counter


def validate_input_args(arg0: list, arg1: list) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, list):
            raise TypeError(name + " must be a list")
        for x in value:
            if not isinstance(x, int) or isinstance(x, bool):
                raise TypeError(name + " must contain only ints")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    common = Counter(arg0) & Counter(arg1)
    return sorted(common.elements())
""",
        "train_inputs": ["([1, 2, 2, 3], [2, 2, 2, 4])", "([5, 6], [7, 8])", "([3, 1], [1, 3])"],
        "test_inputs": [
            "([], [])",
            "([], [1])",
            "([1, 1, 1], [1])",
            "([4, 4], [4, 4, 4])",
            "([9, 8, 7], [7, 8, 9])",
            "([-1, 0, 1], [1, 0, -1, 0])",
            "([5, 5, 6, 6], [6, 5])",
            "([10, 20, 30], [30, 30, 10])",
            "([2, 4, 6], [1, 3, 5])",
            "([0, 0], [0, 0])",
            "([3, 3, 2, 1], [3, 2, 2])",
            "([7], [7, 7, 8])",
        ],
    },
    {
        "id": "dot_with_reversed",
        "tags": ["medium", "lists"],
        "description": "Multiplies the first list element-wise with the second list read backwards and returns the sum (a[0]*b[-1] + a[1]*b[-2] + ...); two empty lists give 0 and lists of different lengths raise ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: list) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, list):
            raise TypeError(name + " must be a list")
        for x in value:
            if not isinstance(x, int) or isinstance(x, bool):
                raise TypeError(name + " must contain only ints")
    if len(arg0) != len(arg1):
        raise ValueError("arg0 and arg1 must have the same length")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return sum(a * b for a, b in zip(arg0, reversed(arg1)))
""",
        "train_inputs": ["([1, 2, 3], [4, 5, 6])", "([1, 0], [0, 1])", "([2], [7])"],
        "test_inputs": [
            "([], [])",
            "([1], [])",
            "([1, 2], [1, 2, 3])",
            "([1, 0], [1, 0])",
            "([0, 1], [0, 1])",
            "([-1, 2, -3], [3, 2, 1])",
            "([5, 5, 5], [1, 1, 1])",
            "([1, 2, 3, 4], [1, 2, 3, 4])",
            "([10, 0, 0], [0, 0, 10])",
            "([3, -3], [-3, 3])",
            "([2, 4, 8], [1, 10, 100])",
            "([0, 0], [9, 9])",
        ],
    },
    {
        "id": "int_to_base_text",
        "tags": ["medium", "numbers", "bases"],
        "description": "Writes the integer arg0 in base arg1 (2 to 36) using the digits 0-9 then lowercase a-z, with a leading '-' for negative numbers and '0' for zero. A base outside 2..36 raises ValueError.",
        "code": """
import string


def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 2 or arg1 > 36:
        raise ValueError("arg1 (base) must be between 2 and 36")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    symbols = string.digits + string.ascii_lowercase
    if arg0 == 0:
        return "0"
    n = abs(arg0)
    out = []
    while n:
        n, r = divmod(n, arg1)
        out.append(symbols[r])
    if arg0 < 0:
        out.append("-")
    return "".join(reversed(out))
""",
        "train_inputs": ["(10, 2)", "(255, 16)", "(-8, 3)"],
        "test_inputs": [
            "(0, 10)",
            "(0, 2)",
            "(35, 36)",
            "(36, 36)",
            "(-255, 16)",
            "(7, 8)",
            "(8, 8)",
            "(1000, 10)",
            "(5, 1)",
            "(5, 37)",
            "(123456789, 36)",
            "(-1, 2)",
            "(100, 7)",
        ],
    },
    {
        "id": "digit_list_to_int",
        "tags": ["medium", "numbers", "bases"],
        "description": "Interprets the list as digits in base arg1, most significant first, and returns the integer value (leading zeros allowed, an empty list gives 0). Raises ValueError when the base is below 2 or a digit is negative or not smaller than the base.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 2:
        raise ValueError("arg1 (base) must be at least 2")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    value = 0
    for d in arg0:
        if d < 0 or d >= arg1:
            raise ValueError("digit " + repr(d) + " is not valid in base " + repr(arg1))
        value = value * arg1 + d
    return value
""",
        "train_inputs": ["([1, 0, 1], 2)", "([2, 5, 5], 10)", "([15, 15], 16)"],
        "test_inputs": [
            "([], 10)",
            "([0, 0, 7], 8)",
            "([1, 2], 1)",
            "([2], 2)",
            "([-1], 10)",
            "([1, 1, 1, 1], 3)",
            "([35, 0], 36)",
            "([9, 9, 9], 100)",
            "([1, 0, 0, 0, 0], 7)",
            "([4, 10], 10)",
            "([6, 5, 4, 3, 2, 1], 7)",
            "([0], 5)",
        ],
    },
    {
        "id": "round_to_multiple_away",
        "tags": ["medium", "numbers", "rounding"],
        "description": "Rounds the integer arg0 to the nearest multiple of arg1, with exact halfway cases rounded away from zero (7 to a multiple of 2 gives 8, -7 gives -8). arg1 below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 1:
        raise ValueError("arg1 must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    q, r = divmod(abs(arg0), arg1)
    if 2 * r >= arg1:
        q += 1
    result = q * arg1
    if arg0 < 0:
        return -result
    return result
""",
        "train_inputs": ["(17, 5)", "(12, 5)", "(7, 2)"],
        "test_inputs": [
            "(0, 3)",
            "(-7, 2)",
            "(-12, 5)",
            "(-13, 5)",
            "(15, 10)",
            "(14, 10)",
            "(100, 1)",
            "(5, 0)",
            "(5, -2)",
            "(49, 7)",
            "(52, 7)",
            "(1, 3)",
            "(2, 3)",
        ],
    },
    {
        "id": "round_significant_figures",
        "tags": ["medium", "numbers", "rounding"],
        "description": "Rounds the integer arg0 to arg1 significant decimal digits, halves rounding away from zero (12345 with 2 gives 12000, -2500 with 1 gives -3000); numbers with at most arg1 digits are returned unchanged. arg1 below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 1:
        raise ValueError("arg1 must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    digits = len(str(abs(arg0)))
    if digits <= arg1:
        return arg0
    unit = 10 ** (digits - arg1)
    q, r = divmod(abs(arg0), unit)
    if 2 * r >= unit:
        q += 1
    if arg0 < 0:
        return -q * unit
    return q * unit
""",
        "train_inputs": ["(12345, 2)", "(987, 1)", "(42, 3)"],
        "test_inputs": [
            "(0, 1)",
            "(7, 1)",
            "(15, 1)",
            "(14, 1)",
            "(-2500, 1)",
            "(-2499, 1)",
            "(99999, 3)",
            "(123456, 4)",
            "(123, 3)",
            "(10, 0)",
            "(-17, 1)",
            "(5049, 2)",
            "(5050, 2)",
        ],
    },
    {
        "id": "digit_count_upto",
        "tags": ["hard", "numbers", "digits"],
        "description": "Counts how many times the decimal digit arg1 (0-9) is written when writing all integers from 1 to arg0 inclusive without leading zeros (for example, digit 1 up to 12 gives 5); arg0 = 0 gives 0. Raises ValueError when arg0 is negative or arg1 is not a single digit.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")
    if arg1 < 0 or arg1 > 9:
        raise ValueError("arg1 must be a digit 0-9")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    count = 0
    place = 1
    while place <= arg0:
        high = arg0 // (place * 10)
        cur = (arg0 // place) % 10
        low = arg0 % place
        if arg1 == 0:
            if high == 0:
                break
            count += (high - 1) * place
            if cur > 0:
                count += place
            else:
                count += low + 1
        else:
            count += high * place
            if cur > arg1:
                count += place
            elif cur == arg1:
                count += low + 1
        place *= 10
    return count
""",
        "train_inputs": ["(12, 1)", "(100, 0)", "(99, 9)"],
        "test_inputs": [
            "(0, 5)",
            "(9, 0)",
            "(10, 0)",
            "(5, 7)",
            "(7, 7)",
            "(13, 1)",
            "(100, 1)",
            "(1000000, 0)",
            "(2024, 2)",
            "(-1, 1)",
            "(50, 10)",
            "(305, 0)",
            "(3456, 4)",
            "(199, 3)",
        ],
    },
    {
        "id": "euclid_gcd_and_steps",
        "tags": ["medium", "numbers", "divisibility"],
        "description": "Runs the Euclidean algorithm on (|arg0|, |arg1|), repeatedly replacing (a, b) by (b, a mod b) while b is non-zero, and returns (gcd, number of replacements); (a, 0) gives (|a|, 0) and (0, 0) gives (0, 0).",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    a, b = abs(arg0), abs(arg1)
    steps = 0
    while b:
        a, b = b, a % b
        steps += 1
    return (a, steps)
""",
        "train_inputs": ["(48, 18)", "(7, 0)", "(5, 10)"],
        "test_inputs": [
            "(0, 0)",
            "(0, 9)",
            "(-48, 18)",
            "(18, 48)",
            "(13, 8)",
            "(89, 55)",
            "(100, 10)",
            "(17, 5)",
            "(1, 1)",
            "(-6, -4)",
            "(1071, 462)",
            "(12, 1)",
        ],
    },
    {
        "id": "coprime_count_upto",
        "tags": ["hard", "numbers", "divisibility"],
        "description": "Counts the integers k with 1 <= k <= arg1 that share no factor with arg0 other than 1 (gcd(k, arg0) == 1; for arg0 = 0 only k = 1 qualifies). Raises ValueError when arg1 is negative or above 2,000.",
        "code": """
import math


def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 0 or arg1 > 2_000:
        raise ValueError("arg1 must be between 0 and 2,000")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return sum(1 for k in range(1, arg1 + 1) if math.gcd(k, arg0) == 1)
""",
        "train_inputs": ["(10, 10)", "(7, 20)", "(12, 5)"],
        "test_inputs": [
            "(6, 0)",
            "(0, 5)",
            "(1, 8)",
            "(-10, 10)",
            "(2, 9)",
            "(30, 30)",
            "(97, 100)",
            "(360, 1000)",
            "(5, -1)",
            "(5, 2001)",
            "(1000, 2000)",
            "(49, 50)",
        ],
    },
    {
        "id": "modular_inverse_or_none",
        "tags": ["medium", "numbers", "divisibility"],
        "description": "Returns the x in 0..arg1-1 with arg0 * x congruent to 1 modulo arg1 (the modular inverse, negative arg0 allowed), or None when arg0 and arg1 share a factor greater than 1. A modulus below 2 raises ValueError.",
        "code": """
import math


def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 2:
        raise ValueError("arg1 (modulus) must be at least 2")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if math.gcd(arg0, arg1) != 1:
        return None
    return pow(arg0, -1, arg1)
""",
        "train_inputs": ["(3, 7)", "(4, 8)", "(10, 17)"],
        "test_inputs": [
            "(1, 2)",
            "(0, 5)",
            "(5, 5)",
            "(-3, 7)",
            "(6, 9)",
            "(7, 26)",
            "(2, 1)",
            "(2, -5)",
            "(123, 1000)",
            "(1000001, 1000)",
            "(17, 3120)",
            "(11, 12)",
        ],
    },
    {
        "id": "last_digit_of_power",
        "tags": ["easy", "numbers"],
        "description": "Returns the last decimal digit of |arg0| raised to the power arg1; an exponent of 0 always gives 1, even for 0**0. A negative exponent raises ValueError.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 0:
        raise ValueError("arg1 (exponent) must be non-negative")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return pow(abs(arg0), arg1, 10)
""",
        "train_inputs": ["(2, 10)", "(7, 3)", "(5, 0)"],
        "test_inputs": [
            "(0, 0)",
            "(0, 5)",
            "(-3, 3)",
            "(3, 4)",
            "(12, 2)",
            "(9, 1001)",
            "(9, 1000)",
            "(10, 1)",
            "(2, -1)",
            "(123456789, 987654321)",
            "(4, 7)",
            "(8, 2)",
        ],
    },
    {
        "id": "even_digit_sum_multiples",
        "tags": ["hard", "numbers", "digits", "sequences"],
        "description": "Returns the first arg1 positive multiples of arg0 (arg0, 2*arg0, 3*arg0, ...) whose decimal digit sum is even, in increasing order; arg1 = 0 gives []. Raises ValueError when arg0 is below 1 or arg1 is outside 0..50.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg0 < 1:
        raise ValueError("arg0 must be positive")
    if arg1 < 0 or arg1 > 50:
        raise ValueError("arg1 must be between 0 and 50")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    result = []
    m = arg0
    while len(result) < arg1:
        if sum(int(ch) for ch in str(m)) % 2 == 0:
            result.append(m)
        m += arg0
    return result
""",
        "train_inputs": ["(1, 5)", "(7, 4)", "(10, 3)"],
        "test_inputs": [
            "(3, 0)",
            "(0, 3)",
            "(2, 51)",
            "(2, -1)",
            "(11, 5)",
            "(9, 6)",
            "(5, 6)",
            "(19, 4)",
            "(100, 2)",
            "(1, 50)",
            "(37, 3)",
            "(1000001, 2)",
        ],
    },
    {
        "id": "lcm_of_span",
        "tags": ["medium", "numbers", "divisibility"],
        "description": "Returns the least common multiple of all integers between arg0 and arg1 inclusive (the bounds may be given in either order). Raises ValueError when a bound is below 1 or the bounds are more than 40 apart.",
        "code": """
import math


def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg0 < 1 or arg1 < 1:
        raise ValueError("both bounds must be at least 1")
    if abs(arg0 - arg1) > 40:
        raise ValueError("the bounds must be at most 40 apart")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    lo, hi = min(arg0, arg1), max(arg0, arg1)
    return math.lcm(*range(lo, hi + 1))
""",
        "train_inputs": ["(1, 10)", "(4, 6)", "(9, 9)"],
        "test_inputs": [
            "(6, 4)",
            "(1, 1)",
            "(0, 5)",
            "(5, 0)",
            "(1, 41)",
            "(1, 42)",
            "(2, 3)",
            "(8, 12)",
            "(100, 102)",
            "(7, 14)",
            "(-3, 2)",
            "(20, 25)",
        ],
    },
    {
        "id": "countdown_by_step",
        "tags": ["easy", "numbers", "sequences", "smoke"],
        "description": "Returns the list arg0, arg0 - arg1, arg0 - 2*arg1, ... containing every term that is still greater than 0 (so arg0 <= 0 gives []). Raises ValueError when the step arg1 is below 1 or the list would have more than 50 terms.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (step) must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    terms = list(range(arg0, 0, -arg1)[:51])
    if len(terms) > 50:
        raise ValueError("the countdown would have more than 50 terms")
    return terms
""",
        "train_inputs": ["(10, 3)", "(5, 1)", "(7, 10)"],
        "test_inputs": [
            "(0, 2)",
            "(-4, 1)",
            "(1, 1)",
            "(9, 3)",
            "(12, 4)",
            "(20, 7)",
            "(50, 1)",
            "(51, 1)",
            "(100, 2)",
            "(101, 2)",
            "(6, 0)",
            "(8, -2)",
            "(1000, 250)",
        ],
    },
    {
        "id": "exact_power_exponent",
        "tags": ["medium", "numbers"],
        "description": "Returns k when arg0 equals arg1 ** k for some k >= 0 (so arg0 = 1 gives 0 for every base), and None otherwise, including for every arg0 below 1. A base below 2 raises ValueError.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 2:
        raise ValueError("arg1 (base) must be at least 2")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg0 < 1:
        return None
    k = 0
    value = 1
    while value < arg0:
        value *= arg1
        k += 1
    if value == arg0:
        return k
    return None
""",
        "train_inputs": ["(8, 2)", "(10, 3)", "(1, 7)"],
        "test_inputs": [
            "(0, 2)",
            "(-8, 2)",
            "(2, 2)",
            "(3, 2)",
            "(81, 3)",
            "(80, 3)",
            "(1024, 4)",
            "(1024, 2)",
            "(100000, 10)",
            "(100001, 10)",
            "(5, 1)",
            "(5, 5)",
            "(9, 9)",
        ],
    },
    {
        "id": "rotate_digits_left",
        "tags": ["medium", "numbers", "digits"],
        "description": "Rotates the decimal digits of |arg0| left by arg1 positions (moving leading digits to the end; a negative arg1 rotates right and the amount wraps around the digit count), drops leading zeros of the result, and puts the sign back for negative inputs (1230 by 1 gives 2301, 1002 by 1 gives 21).",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    text = str(abs(arg0))
    shift = arg1 % len(text)
    rotated = int(text[shift:] + text[:shift])
    if arg0 < 0:
        return -rotated
    return rotated
""",
        "train_inputs": ["(12345, 2)", "(1230, 1)", "(-56, 1)"],
        "test_inputs": [
            "(0, 3)",
            "(7, 5)",
            "(1002, 1)",
            "(12345, 5)",
            "(12345, 7)",
            "(12345, -1)",
            "(-9081, 2)",
            "(100, 2)",
            "(908, 0)",
            "(111, 4)",
            "(-12, -1)",
            "(4567, 3)",
        ],
    },
    {
        "id": "k_bonacci_term",
        "tags": ["hard", "numbers", "sequences"],
        "description": "Returns term arg0 (0-based) of the sequence that starts with arg1 - 1 zeros followed by a 1 and in which every later term is the sum of the previous arg1 terms (arg1 = 2 gives Fibonacci 0, 1, 1, 2, 3, ...). Raises ValueError when arg1 is outside 2..10 or arg0 is outside 0..200.",
        "code": """
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 2 or arg1 > 10:
        raise ValueError("arg1 must be between 2 and 10")
    if arg0 < 0 or arg0 > 200:
        raise ValueError("arg0 must be between 0 and 200")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    terms = [0] * (arg1 - 1) + [1]
    while len(terms) <= arg0:
        terms.append(sum(terms[-arg1:]))
    return terms[arg0]
""",
        "train_inputs": ["(10, 2)", "(6, 3)", "(2, 4)"],
        "test_inputs": [
            "(0, 2)",
            "(1, 2)",
            "(0, 5)",
            "(4, 5)",
            "(5, 5)",
            "(9, 5)",
            "(20, 3)",
            "(200, 2)",
            "(201, 2)",
            "(5, 1)",
            "(5, 11)",
            "(-1, 3)",
            "(30, 10)",
        ],
    },
    {
        "id": "largest_remainder_apportion",
        "tags": ["hard", "numbers", "rounding", "lists"],
        "description": "Splits the non-negative integer arg0 into integer shares proportional to the weights in arg1 (largest remainder method): each weight first gets the floor of its exact share, and the units still missing go one each to the weights with the largest fractional remainders, earlier weights first on ties; the shares always sum to arg0. Raises ValueError for negative arg0, any negative weight, or weights summing to 0 (including an empty list).",
        "code": """
def validate_input_args(arg0: int, arg1: list) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if not isinstance(arg1, list):
        raise TypeError("arg1 must be a list")
    for w in arg1:
        if not isinstance(w, int) or isinstance(w, bool):
            raise TypeError("arg1 must contain only ints")
    if arg0 < 0:
        raise ValueError("arg0 must be non-negative")
    if any(w < 0 for w in arg1) or sum(arg1) == 0:
        raise ValueError("arg1 must hold non-negative weights with a positive sum")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    total_weight = sum(arg1)
    shares = [arg0 * w // total_weight for w in arg1]
    remainders = [arg0 * w % total_weight for w in arg1]
    missing = arg0 - sum(shares)
    order = sorted(range(len(arg1)), key=lambda i: (-remainders[i], i))
    for i in order[:missing]:
        shares[i] += 1
    return shares
""",
        "train_inputs": ["(10, [1, 1, 1])", "(7, [2, 3])", "(100, [50, 30, 20])"],
        "test_inputs": [
            "(0, [1, 2])",
            "(5, [1])",
            "(5, [0, 3])",
            "(1, [1, 1, 1])",
            "(2, [1, 1, 1])",
            "(10, [3, 3, 1])",
            "(13, [5, 4, 3, 2, 1])",
            "(-1, [1])",
            "(5, [])",
            "(5, [0, 0])",
            "(5, [2, -1])",
            "(11, [1, 2, 3, 4])",
            "(20, [7, 7, 7])",
        ],
    },
    {
        "id": "bin_histogram",
        "tags": ["easy", "lists", "thresholds"],
        "description": "Counts the integers per bin of width arg1, bins starting at multiples of arg1 (bin start = x // arg1 * arg1, so negatives fall into the bin below, e.g. -1 into -arg1), and returns a dict from bin start to count for the non-empty bins. A width below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (bin width) must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    counts = {}
    for x in sorted(arg0):
        start = x // arg1 * arg1
        counts[start] = counts.get(start, 0) + 1
    return counts
""",
        "train_inputs": ["([1, 2, 5, 7, 12], 5)", "([0, 0, 3], 2)", "([9, 10, 11], 10)"],
        "test_inputs": [
            "([], 3)",
            "([4], 1)",
            "([-1, 0, 1], 2)",
            "([-5, -6, -10, -11], 5)",
            "([3, 3, 3], 3)",
            "([1, 2, 3], 0)",
            "([1, 2, 3], -4)",
            "([100, 150, 199, 200], 100)",
            "([7, 14, 21, 28], 7)",
            "([6, 13, 20, 27], 7)",
            "([0, 1, 2, 3, 4, 5], 4)",
            "([50, -50], 1000)",
        ],
    },
    {
        "id": "stable_sort_by_remainder",
        "tags": ["easy", "lists", "sorting", "divisibility"],
        "description": "Sorts the integers by their remainder modulo arg1 (Python's %, always in 0..arg1-1, so -1 % 3 is 2), keeping the original relative order of elements with equal remainders. A modulus below 1 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (modulus) must be at least 1")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return sorted(arg0, key=lambda x: x % arg1)
""",
        "train_inputs": ["([5, 3, 8, 6, 1], 3)", "([10, 11, 12, 13], 2)", "([4, 9], 5)"],
        "test_inputs": [
            "([], 4)",
            "([7, 2, 9], 1)",
            "([-1, 0, 1, 2], 3)",
            "([9, 6, 3, 0], 3)",
            "([1, 4, 7, 2, 5, 8], 3)",
            "([15, 4, 23, 8, 42, 16], 10)",
            "([1, 2, 3], 0)",
            "([1, 2, 3], -3)",
            "([100, 99, 98, 97], 4)",
            "([-7, -8, -9], 2)",
            "([13, 3, 23, 33], 10)",
            "([5, 11, 17], 6)",
        ],
    },
    {
        "id": "sort_around_pinned_value",
        "tags": ["hard", "lists", "sorting"],
        "description": "Sorts the list ascending except that every element equal to arg1 stays at its original index; the other elements are sorted among the remaining positions. If arg1 does not occur this is a plain ascending sort.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    movable = sorted(x for x in arg0 if x != arg1)
    result = []
    j = 0
    for x in arg0:
        if x == arg1:
            result.append(x)
        else:
            result.append(movable[j])
            j += 1
    return result
""",
        "train_inputs": ["([5, 0, 3, 1, 0, 2], 0)", "([3, 2, 1], 9)", "([4, 4, 1], 4)"],
        "test_inputs": [
            "([], 1)",
            "([1], 1)",
            "([2, 1], 1)",
            "([9, 1, 8, 1, 7], 1)",
            "([9, 1, 8, 1, 7], 8)",
            "([5, 4, 3, 2, 1], 3)",
            "([0, 0, 0], 0)",
            "([-1, 10, -5, 10, 0], 10)",
            "([6, 6, 2, 6], 2)",
            "([3, 1, 2], 5)",
            "([7, -2, 7, -3, 1], -2)",
            "([20, 10, 30, 10], 30)",
        ],
    },
    {
        "id": "next_fit_group_sums",
        "tags": ["medium", "lists", "prefix-sums", "thresholds"],
        "description": "Packs the elements, in order, into consecutive groups whose sums may not exceed the capacity arg1: an element joins the current group if the sum stays <= arg1, otherwise it starts a new group. Returns the list of group sums ([] for an empty list); raises ValueError when arg1 is below 1 or an element is negative or larger than arg1.",
        "code": """
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")
    if arg1 < 1:
        raise ValueError("arg1 (capacity) must be at least 1")
    if any(x < 0 or x > arg1 for x in arg0):
        raise ValueError("every element must be between 0 and the capacity")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    groups = []
    current = None
    for x in arg0:
        if current is not None and current + x <= arg1:
            current += x
        else:
            if current is not None:
                groups.append(current)
            current = x
    if current is not None:
        groups.append(current)
    return groups
""",
        "train_inputs": ["([4, 3, 5, 2, 6], 8)", "([1, 1, 1, 1], 10)", "([5, 5, 5], 5)"],
        "test_inputs": [
            "([], 5)",
            "([3], 3)",
            "([2, 2, 2], 4)",
            "([0, 0, 7, 0], 7)",
            "([6, 1, 6, 1, 6], 7)",
            "([3, 4, 5], 0)",
            "([3, 9], 8)",
            "([-1, 2], 8)",
            "([1, 2, 3, 4, 5], 5)",
            "([9, 1, 9, 1], 10)",
            "([10, 10, 10], 25)",
            "([2, 5, 3, 4, 1], 6)",
        ],
    },
    {
        "id": "count_within_distance",
        "tags": ["easy", "lists", "thresholds"],
        "description": "Counts the elements of the list whose distance from arg1 is at most arg2, i.e. arg1 - arg2 <= x <= arg1 + arg2 (both ends inclusive). A negative distance arg2 raises ValueError.",
        "code": """
def validate_input_args(arg0: list, arg1: int, arg2: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    for name, value in (("arg1", arg1), ("arg2", arg2)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg2 < 0:
        raise ValueError("arg2 (distance) must be non-negative")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    return sum(1 for x in arg0 if abs(x - arg1) <= arg2)
""",
        "train_inputs": ["([1, 4, 6, 9, 12], 5, 2)", "([10, 20, 30], 0, 5)", "([3, 3, 3], 3, 0)"],
        "test_inputs": [
            "([], 0, 0)",
            "([5], 5, 0)",
            "([4, 6], 5, 0)",
            "([4, 6], 5, 1)",
            "([1, 2, 3], 2, -1)",
            "([-10, -5, 0, 5, 10], 0, 5)",
            "([-10, -5, 0, 5, 10], -7, 3)",
            "([100, 200, 300], 250, 50)",
            "([0, 0, 1, 1, 2], 0, 1)",
            "([7, 8, 9], 100, 90)",
            "([7, 8, 9], 100, 91)",
            "([1, 5, 9, 13], 7, 4)",
        ],
    },
    {
        "id": "wrap_into_range",
        "tags": ["medium", "numbers"],
        "description": "Wraps the integer arg0 cyclically into the inclusive range arg1..arg2 (arg1 + (arg0 - arg1) mod (arg2 - arg1 + 1)), so one past the top comes back to arg1 and one below arg1 becomes arg2; values already inside are unchanged. Raises ValueError when arg1 > arg2.",
        "code": """
def validate_input_args(arg0: int, arg1: int, arg2: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1), ("arg2", arg2)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 > arg2:
        raise ValueError("arg1 (low) must not exceed arg2 (high)")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    width = arg2 - arg1 + 1
    return arg1 + (arg0 - arg1) % width
""",
        "train_inputs": ["(13, 1, 12)", "(5, 1, 10)", "(0, 1, 7)"],
        "test_inputs": [
            "(11, 1, 10)",
            "(10, 1, 10)",
            "(1, 1, 10)",
            "(-1, 0, 9)",
            "(25, 0, 9)",
            "(7, 7, 7)",
            "(-100, 7, 7)",
            "(4, 5, 3)",
            "(-3, -5, -1)",
            "(0, -5, -1)",
            "(360, 0, 359)",
            "(-361, 0, 359)",
            "(100, 10, 20)",
        ],
    },
    {
        "id": "strided_window_max",
        "tags": ["medium", "lists", "windows"],
        "description": "Takes windows of arg1 consecutive elements starting at indices 0, arg2, 2*arg2, ... and returns the maximum of each window, keeping only windows that fit completely inside the list ([] when none fits). Raises ValueError when the window size or the stride is below 1.",
        "code": """
def validate_input_args(arg0: list, arg1: int, arg2: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    for name, value in (("arg1", arg1), ("arg2", arg2)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 < 1 or arg2 < 1:
        raise ValueError("window size arg1 and stride arg2 must be at least 1")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    result = []
    for start in range(0, len(arg0) - arg1 + 1, arg2):
        result.append(max(arg0[start:start + arg1]))
    return result
""",
        "train_inputs": [
            "([1, 3, 2, 5, 4, 6], 2, 2)",
            "([4, 1, 7, 3], 3, 1)",
            "([9, 8, 7, 6, 5], 2, 3)",
        ],
        "test_inputs": [
            "([], 1, 1)",
            "([5], 2, 1)",
            "([5], 1, 1)",
            "([1, 2, 3], 0, 1)",
            "([1, 2, 3], 1, 0)",
            "([1, 2, 3, 4, 5], 1, 2)",
            "([1, 2, 3, 4, 5], 5, 5)",
            "([1, 2, 3, 4, 5, 6, 7], 3, 2)",
            "([-3, -1, -2, -7, -5], 2, 1)",
            "([10, 0, 0, 10, 0, 0, 10], 2, 3)",
            "([2, 2, 2, 2], 4, 1)",
            "([8, 3, 6, 1, 9, 2, 4], 3, 4)",
        ],
    },
    {
        "id": "fill_out_of_range",
        "tags": ["hard", "lists", "thresholds"],
        "description": "Replaces every element outside the inclusive range arg1..arg2 by the most recent in-range element before it; when no in-range element has appeared yet it is replaced by the nearer bound instead (arg1 if it is too small, arg2 if too large). In-range elements are kept. Raises ValueError when arg1 > arg2.",
        "code": """
def validate_input_args(arg0: list, arg1: int, arg2: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    for x in arg0:
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError("arg0 must contain only ints")
    for name, value in (("arg1", arg1), ("arg2", arg2)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
    if arg1 > arg2:
        raise ValueError("arg1 (low) must not exceed arg2 (high)")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    result = []
    last = None
    for x in arg0:
        if arg1 <= x <= arg2:
            last = x
            result.append(x)
        elif last is not None:
            result.append(last)
        elif x < arg1:
            result.append(arg1)
        else:
            result.append(arg2)
    return result
""",
        "train_inputs": ["([5, 50, 7, -3, 8], 0, 10)", "([100, 2, 3], 0, 10)", "([-5, 4], 0, 10)"],
        "test_inputs": [
            "([], 0, 10)",
            "([11], 0, 10)",
            "([-1], 0, 10)",
            "([0, 10], 0, 10)",
            "([20, -20, 5, 20, -20], 0, 10)",
            "([-20, 20, 5], 0, 10)",
            "([1, 2, 3], 5, 4)",
            "([3, 9, 9, 4, 0], 3, 3)",
            "([1, 2, 3, 4, 5, 6], 2, 4)",
            "([-8, -2, -9, -1], -5, -1)",
            "([50, 60, 70], 55, 65)",
            "([7, 100, 100, 8, -100], 5, 10)",
        ],
    },
    {
        "id": "convert_base_text",
        "tags": ["hard", "numbers", "bases"],
        "description": "Reads the string arg0 as an integer written in base arg1 (digits 0-9 then letters a-z, case-insensitive, with an optional leading '-') and returns it written in base arg2 with lowercase digits, a leading '-' for negative values and '0' for zero (also for '-0'). Raises ValueError when a base is outside 2..36, the string has no digits, or a character is not a valid digit of base arg1.",
        "code": """
import string


def validate_input_args(arg0: str, arg1: int, arg2: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    for name, value in (("arg1", arg1), ("arg2", arg2)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(name + " must be an int")
        if value < 2 or value > 36:
            raise ValueError(name + " (base) must be between 2 and 36")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    symbols = string.digits + string.ascii_lowercase
    text = arg0.lower()
    negative = text.startswith("-")
    if negative:
        text = text[1:]
    if not text:
        raise ValueError("arg0 has no digits")
    value = 0
    for ch in text:
        digit = symbols.find(ch)
        if digit < 0 or digit >= arg1:
            raise ValueError(repr(ch) + " is not a digit of base " + repr(arg1))
        value = value * arg1 + digit
    if value == 0:
        return "0"
    out = []
    while value:
        value, r = divmod(value, arg2)
        out.append(symbols[r])
    if negative:
        out.append("-")
    return "".join(reversed(out))
""",
        "train_inputs": ["('ff', 16, 2)", "('-101', 2, 10)", "('777', 8, 16)"],
        "test_inputs": [
            "('', 10, 2)",
            "('-', 10, 2)",
            "('12', 2, 10)",
            "('0', 10, 16)",
            "('-0', 8, 2)",
            "('10', 1, 10)",
            "('10', 10, 37)",
            "('Z', 36, 10)",
            "('Hello', 36, 10)",
            "('1a', 10, 2)",
            "('100', 10, 3)",
            "('-255', 10, 16)",
            "('0007', 8, 8)",
            "('zz', 36, 36)",
        ],
    },
]

"""Known-wrong descriptions of builtin methods: ``id -> [near miss, ...]``.

Each is the gold description with one detail changed so that it describes a different
function (an off-by-one, a flipped sign, case-sensitive for insensitive, first for last, a
wrong edge case). ``scripts/build_builtin.py`` writes them as the ``wrong_descriptions``
column, which ``pau judge-check`` rates as its ``known wrong`` class. They cover the
instances of the default judge-check sample (40 instances, seed 0).
"""

from __future__ import annotations

WRONG_DESCRIPTIONS: dict[str, list[str]] = {
    "dict_invert_grouped": [
        "Inverts a dict with str keys and int or str values: returns a dict mapping each distinct value to the list of the keys that had it, in the order those keys appear in the input (not sorted), values in order of first appearance. A non-dict, a non-str key, or a value that is not an int or str (bools included) raises TypeError."
    ],
    "grid_count_clustered": [
        "Counts the cells of a grid of ints (rows may differ in length) that equal the target value and have at least one of their eight surrounding cells, diagonals included, that also equals it; only isolated matches do not count. Non-int cells or target raise TypeError."
    ],
    "longest_strict_climb": [
        "Returns the length of the longest block of consecutive elements that is non-decreasing; equal neighbours continue a climb, a non-empty list gives at least 1 and an empty list gives 0."
    ],
    "top_words_with_counts": [
        "Returns the arg1 most frequent words as a list of (word, count) tuples, where words are maximal runs of ASCII letters and digits, lowercased; sorted by count descending and, among equal counts, by first appearance in the text. Fewer tuples come back when there are fewer distinct words; raises ValueError for a negative arg1."
    ],
    "dict_get_dotted": [
        "Looks up a dot-separated path ('a.b.0.c') in a nested dict: each segment is a key of the current dict, or, when the current value is a list and the segment is made of ASCII digits, an index into that list. Returns the value reached, None for the empty path '', and None when a key is missing, an index is out of range or the path goes through anything else."
    ],
    "max_char_count_in_window": [
        "Returns the largest number of occurrences of the single character arg1 in any window of arg2 consecutive characters of arg0, ignoring case (upper and lower case count as the same character); when arg2 is at least the length of the text the whole text is the window. Raises ValueError if arg1 is not exactly one character or arg2 < 1."
    ],
    "vigenere_letters_only": [
        "Vigenere-encrypts arg0 with the key arg1: each ASCII letter is shifted forward by the next key letter (a=0, b=1, ..., z=25, key case-insensitive, cycling) and keeps its case; other characters are copied unchanged but still use up a key letter. Raises ValueError if the key is empty or has anything but ASCII letters."
    ],
    "depth_alternating_weighted_sum": [
        "Walks a list of integers and nested lists; each integer is multiplied by its nesting depth (top level 1, one list deeper 2, ...), products at odd depths are subtracted and products at even depths are added. Empty lists contribute 0."
    ],
    "next_prime_strictly_after": [
        "Returns the smallest prime greater than or equal to the integer (so a prime input gives itself, and anything below 2 gives 2). Raises ValueError for inputs above 10,000,000."
    ],
    "ordinal_text": [
        "Returns the integer followed by its English ordinal suffix, chosen by the last digit alone: 'st', 'nd', 'rd' for last digit 1, 2, 3 and 'th' otherwise, with no exception for 11, 12 or 13 (so 112 gives '112nd'); the suffix uses the absolute value, so -1 gives '-1st'."
    ],
    "dot_with_reversed": [
        "Multiplies the two lists element-wise, position by position, and returns the sum (a[0]*b[0] + a[1]*b[1] + ...); two empty lists give 0 and lists of different lengths raise ValueError."
    ],
    "iso_week_of_date": [
        "Takes a 'YYYY-MM-DD' date string and returns its (iso_year, iso_week) tuple where weeks start on Monday and week 1 is the week holding January 1st, so dates in late December can belong to week 1 of the next year. A malformed or impossible date raises ValueError; a non-str raises TypeError."
    ],
    "tree_path_to_value": [
        "Searches a binary tree written as nested tuples (value, left, right), None for a missing child, in pre-order with the right subtree first (node, then right subtree, then left subtree) for the first node whose value equals the target and returns the path to it as a str of 'L' and 'R' steps from the root ('' for the root itself), or None if no node matches."
    ],
    "date_range_stepped": [
        "Lists the 'YYYY-MM-DD' dates from start up to but not including end, advancing by step days (the end date never appears); a start after the end gives []. A step below 1, more than 40 resulting dates, or a malformed or impossible date raises ValueError."
    ],
    "pair_sum_count": [
        "Counts the distinct pairs of values from the list that add up to arg1; each pair of values counts once however often it occurs, so repeated values form a single pair (e.g. [2, 2, 2] with target 4 gives 1)."
    ],
    "pad_with_dots_by_alignment": [
        "Fits arg0 into exactly arg1 characters: a longer text is cut to its first arg1 characters, a shorter one is padded with '.' on the right for alignment '<', on the left for '>', or on both sides for '^' (the odd extra dot going to the left). Raises ValueError for any other alignment or for arg1 outside 0..200."
    ],
    "letters_missing_from_text": [
        "Returns, in alphabetical order as one string, the lowercase letters a-z that do not occur in the text as lowercase letters (case-sensitive: an uppercase letter does not count as its lowercase one). A pangram in lowercase gives '' and an empty string gives the whole alphabet."
    ],
    "interleave_drop_repeats": [
        "Interleaves two lists of strings (first[0], second[0], first[1], second[1], ...), appending the rest of the longer list at the end, and then drops every item that already occurs anywhere earlier in the result, so every item appears only once."
    ],
    "binary_ones_minus_zeros": [
        "Writes the non-negative integer in binary without leading zeros and returns the number of 0 bits minus the number of 1 bits; 0 is written '0' and gives 1. Negative input raises ValueError."
    ],
    "tree_sum_at_depth": [
        "Returns the sum of the node values at the given depth of a binary tree written as nested tuples (value, left, right), None for a missing child, the root being depth 1; a depth deeper than the tree, or the empty tree None, gives 0. A depth below 1 raises ValueError."
    ],
    "grid_mirror_kind": [
        "Classifies the mirror symmetry of a grid (list of lists): 'both' when every row reads the same reversed and the list of rows also equals its own reverse, 'top-bottom' when only every row reads the same reversed, 'left-right' when only the row order is symmetric, else 'none'. An empty grid gives 'both'."
    ],
    "digit_list_to_int": [
        "Interprets the list as digits in base arg1, least significant first, and returns the integer value (trailing zeros allowed, an empty list gives 0). Raises ValueError when the base is below 2 or a digit is negative or not smaller than the base."
    ],
    "next_fit_group_sums": [
        "Packs the elements, in order, into consecutive groups whose sums must stay strictly below the capacity arg1: an element joins the current group if the sum stays < arg1, otherwise it starts a new group. Returns the list of group sums ([] for an empty list); raises ValueError when arg1 is below 1 or an element is negative or larger than arg1."
    ],
    "dates_span_days": [
        "Takes a list of 'YYYY-MM-DD' date strings and returns the number of calendar days from the earliest to the latest counting both ends (1 for a single date or equal dates). An empty list, a malformed string or an impossible date such as '2023-02-29' raises ValueError; a non-list or a non-str item raises TypeError."
    ],
    "bytes_fletcher16": [
        "Returns the Fletcher-16 checksum of the bytes as an int: a running sum s1 of the bytes and a running sum s2 of the successive s1 values, both kept modulo 255, combined as s1 * 256 + s2. Empty bytes give 0; a non-bytes argument raises TypeError."
    ],
    "dict_top_n_keys": [
        "Returns the keys of the n largest values of a dict (str keys, number values), largest first, equal values ordered by descending key; n larger than the dict returns every key and n == 0 returns []. A negative n raises ValueError."
    ],
    "tree_deepest_leaves": [
        "Takes a tree written as nested tuples, where an int is a leaf and a tuple is an inner node whose items are its children, and returns, left to right, the list of the leaves lying at the smallest depth (closest to the root). A bare int gives [that int], an empty tuple adds no leaf (so () gives []); anything other than ints and tuples raises TypeError."
    ],
    "int_set_ranges": [
        "Takes a set or list of ints (duplicates ignored) and returns, in ascending order, a list of strs where every run of at least 2 consecutive integers is written 'first..last' and every other value is written alone, so a run of exactly 2 gives one entry 'a..b'. An empty input gives []; non-int members (bools included) raise TypeError."
    ],
    "nested_dict_key_count": [
        "Counts every dict key at any depth of a nested structure, looking inside dicts (their values) and lists but not inside tuples, whose contents count nothing; other values count nothing, so a structure with no dict anywhere gives 0. The argument itself must be a dict, list or tuple, else TypeError."
    ],
    "tuple_pairwise_max_keep_tail": [
        "Takes two tuples of numbers and returns a tuple holding the smaller of each aligned pair of elements, followed by the leftover tail of the longer tuple unchanged. Two empty tuples give (); non-tuple arguments or non-number items raise TypeError."
    ],
    "decade_buckets": [
        "Groups the integers by decade, rounding toward zero: returns a dict mapping int(x / 10) * 10 to the list of elements with that key, in their original order (so 7 goes under 0, 25 under 20 and -3 under 0); an empty list gives {}."
    ],
    "words_acronym_min_len": [
        "Builds an acronym from a list of words: the uppercased first character of every word that has at least 4 characters, in order; words of 3 characters or fewer are skipped. If no word qualifies, an empty list included, the result is '?'."
    ],
    "dates_on_weekday": [
        "Returns, in their original order, the 'YYYY-MM-DD' strings of the list that fall on the given weekday number (0 Sunday to 6 Saturday). A weekday outside 0..6, a malformed date or an impossible date raises ValueError."
    ],
    "long_words_uppercased": [
        "Returns, in their original order, the whitespace-separated words of arg0 that are at least arg1 characters long, each converted to uppercase; punctuation counts toward the length and repeated words are kept."
    ],
    "format_member_line": [
        "Formats a member record as 'Name (age) [tag1, tag2]' plus ' *' when active: the name is stripped and title-cased, a None age shows as '?', the tags are de-duplicated and kept in the order they first appear (not sorted), and the bracket part is left out when there are no tags. A blank name or a negative age raises ValueError."
    ],
    "lowest_balance_point": [
        "Keeps a running total that starts at 0 and adds the elements in order, and returns (k, m) where m is the lowest running total seen (the starting 0 included) and k is how many elements had been added when m was last reached. A list whose running total never goes below 0, including the empty list, gives (0, 0)."
    ],
    "keep_chars_by_cyclic_mask": [
        "Keeps the characters of arg0 whose position lines up with a '1' in the mask arg1, the mask being applied once and not repeated ('abcdef' with '10' keeps 'a'); characters at a '0' or past the end of the mask are dropped. Raises ValueError if the mask is empty or contains characters other than '0' and '1'."
    ],
    "longest_word_last_on_tie": [
        "Returns the longest whitespace-separated word (punctuation counts as part of it); when several words share the greatest length, the first of them is returned. Returns '' for an empty or all-whitespace string."
    ],
    "group_words_by_initial": [
        "Groups the words of the list by their first character, case-sensitively (so 'Apple' and 'apple' go under different keys), and returns a dict whose keys are in sorted order and whose values list the original words in input order (duplicates kept, case unchanged). Empty strings are skipped."
    ],
    "record_high_indices": [
        "Returns the indices at which the list reaches or ties its record high, i.e. elements greater than or equal to every element before them; index 0 is always included for a non-empty list, values equal to the current record count too, and an empty list gives []."
    ],
}

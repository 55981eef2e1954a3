"""wilson.py - the Wilson score interval of k in n, in percent, written from its formula
(not from locus's code), for the tests that check a sampled share's printed interval.
Exact at the ends: no success gives a lower bound of exactly 0, all give 100 (the
formula's float rounding leaves ~1e-18 there, which a share of exactly 0 falls below)."""
import math


def wilson(k, n, z):
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo = 0.0 if k == 0 else max(mid - half, 0)
    hi = 1.0 if k == n else min(mid + half, 1)
    return 100 * lo, 100 * hi

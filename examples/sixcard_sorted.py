"""An answer to the six-card puzzler: the 'sorted' split, which `handsolver verify` scores.

Reads one hand of six values 1-4 per line ("112234") and prints its split as three groups:
High gets the three largest cards, Middle the next two, Low the smallest ("432 21 1").

    handsolver verify sixcard --cmd "python3 examples/sixcard_sorted.py"
"""

import sys

for line in sys.stdin:
    values = sorted((c for c in line if c in "1234"), reverse=True)
    if values:
        print("".join(values[:3]), "".join(values[3:5]), values[5], flush=True)

"""The peer of flow's `xpath()` in bench/xpath.sh: lxml (libxml2 underneath) parses the document
from its bytes and evaluates the same XPath expression, each node's string value made a Python string.

Usage: lxml_query.py PATH RUNS. Prints the median seconds of parse + query (the file is
read once, before timing, as flow holds the body in memory before its expression runs), then how many
nodes matched.
"""

import statistics
import sys
import time

from lxml import etree

path, runs = sys.argv[1], int(sys.argv[2])
with open(path, "rb") as source:
    data = source.read()
times = []
for _ in range(runs):
    start = time.perf_counter()
    root = etree.fromstring(data)
    names = ["".join(node.itertext()) for node in root.xpath("//item[price > 50]/name")]
    times.append(time.perf_counter() - start)
print(f"{statistics.median(times):.4f}")
print(len(names))

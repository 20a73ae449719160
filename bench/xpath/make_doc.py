"""Writes the XML document bench/xpath.sh queries: a catalogue of items (about 10 MB by default).

Usage: make_doc.py PATH [MEGABYTES]. Deterministic: the same bytes every run.
"""

import sys

path = sys.argv[1]
target = int(float(sys.argv[2] if len(sys.argv) > 2 else "10") * 1_000_000)
parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<catalog xmlns:x="urn:bench:extra">\n']
size = len(parts[0])
n = 0
while size < target:
    price = (n * 37) % 100
    item = (
        f'  <item id="i{n}" kind="{"book" if n % 3 else "disc"}">'
        f"<name>Item {n} — café</name><price>{price}.{n % 10}</price>"
        f"<x:tag>t{n % 7}</x:tag><note>Some text about item {n}, with &amp; and &lt;tags&gt;.</note></item>\n"
    )
    parts.append(item)
    size += len(item.encode())
    n += 1
parts.append("</catalog>\n")
with open(path, "w", encoding="utf-8") as out:
    out.write("".join(parts))
print(n)

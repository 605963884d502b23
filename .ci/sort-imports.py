#!/usr/bin/env python3
"""Sorts the imports of Java files in the kit's house order: java.* and javax.*, then every other package,
then static imports; each group alphabetical, one blank line between groups. Used once to bring the tree
in order; `./mvnw verify` keeps the formatting (spring-javaformat) and ImportOrderTest the order.
Usage: sort-imports.py FILE..."""
import re
import sys


def group(line):
    name = line[len("import "):]
    if name.startswith("static "):
        return 2
    return 0 if name.startswith(("java.", "javax.")) else 1


def sort(text):
    lines = text.split("\n")
    first = next((i for i, l in enumerate(lines) if l.startswith("import ")), None)
    if first is None:
        return text
    last = max(i for i, l in enumerate(lines) if l.startswith("import "))
    block = lines[first:last + 1]
    if any(l.strip() and not l.startswith("import ") for l in block):
        return text  # comments between imports: leave the file as it is
    imports = sorted(set(l for l in block if l.strip()), key=lambda l: (group(l), l.rstrip(";")))
    out = []
    for i, line in enumerate(imports):
        if i > 0 and group(line) != group(imports[i - 1]):
            out.append("")
        out.append(line)
    return "\n".join(lines[:first] + out + lines[last + 1:])


for path in sys.argv[1:]:
    with open(path) as f:
        text = f.read()
    sorted_text = sort(text)
    if sorted_text != text:
        with open(path, "w") as f:
            f.write(sorted_text)
        print("sorted", path)

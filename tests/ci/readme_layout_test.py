#!/usr/bin/env python3
"""README's Layout table matches the tree: every folder it names exists, and every tracked top-level
folder (other than hidden ones) has a row. Run with the source folder as the argument."""
import re
import subprocess
import sys

root = sys.argv[1]
text = open(f"{root}/README.md", encoding="utf-8").read()
section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
named = re.findall(r"^\| `([^`]+)/` \|", section, flags=re.M)
assert named, "README.md: no rows in the Layout table"
tracked = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
top = {p.split("/", 1)[0] for p in tracked if "/" in p and not p.startswith(".")}
problems = [f"README Layout names `{n}/`, which is not in the tree" for n in named if not any(
    p.startswith(n + "/") for p in tracked)]
problems += [f"top-level folder `{t}/` has no row in README's Layout table" for t in sorted(top)
             if not any(n == t or n.startswith(t + "/") for n in named)]
for p in problems:
    print(p)
sys.exit(1 if problems else 0)

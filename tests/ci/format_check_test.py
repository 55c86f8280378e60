#!/usr/bin/env python3
"""scripts/check-format catches what it should: a copy of the script in a scratch git repository
with the project's .clang-format passes a formatted file, names a misformatted one (exit 1), checks
only files changed since a revision when given one, and --fix repairs the file."""
import os
import shutil
import subprocess
import sys
import tempfile

source = sys.argv[1]
if not shutil.which("clang-format-14") and not shutil.which("clang-format"):
    print("SKIPPED: no clang-format")
    sys.exit(77)
with tempfile.TemporaryDirectory() as d:
    os.mkdir(os.path.join(d, "scripts"))
    shutil.copy(os.path.join(source, "scripts", "check-format"), os.path.join(d, "scripts"))
    shutil.copy(os.path.join(source, ".clang-format"), d)
    git = lambda *a: subprocess.run(["git", "-C", d, *a], check=True, capture_output=True)
    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "base")
    good, bad = os.path.join(d, "good.cc"), os.path.join(d, "bad.cc")
    open(good, "w").write("int add(int a, int b) { return a + b; }\n")
    open(bad, "w").write("int  add( int a,int b ){return a+b;}\n")
    git("add", "good.cc", "bad.cc", ".clang-format")
    run = lambda *a: subprocess.run([os.path.join(d, "scripts", "check-format"), *a], cwd=d,
                                    capture_output=True, text=True)
    r = run()
    if r.returncode == 77:
        print(r.stdout)
        sys.exit(77)
    assert r.returncode == 1 and "bad.cc" in r.stdout and "1 of 2 files" in r.stderr, (r.returncode, r.stdout, r.stderr)
    assert "+++ bad.cc (clang-format)" in r.stdout and "good.cc" not in r.stdout, r.stdout
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "two files")
    open(good, "a").write("int  sub(int a,int b){return a-b;}\n")  # changed since HEAD, misformatted
    r = run("HEAD")
    assert r.returncode == 1 and "good.cc" in r.stdout and "bad.cc" not in r.stdout, (r.stdout, r.stderr)
    assert run("--fix").returncode == 0
    r = run()
    assert r.returncode == 0 and open(bad).read() == "int add(int a, int b) { return a + b; }\n", (r.stdout, open(bad).read())
    assert run("no-such-rev").returncode == 2
print("check-format: names misformatted files, limits itself to a revision's changes, --fix repairs")

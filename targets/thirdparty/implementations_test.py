#!/usr/bin/env python3
"""implementations.py's checks of implementations.json on edited copies of the real file: what one
venv installs must agree, what two venvs install need not; a row's venv must be a name the
scripts create and one its adapter test can run; the pins of each venv are what its rows need.

usage: implementations_test.py   (standard library only; exit 1 on a failed check)
"""
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import implementations  # noqa: E402

REAL = implementations.load()
failed = 0


def check(ok, what):
    global failed
    if not ok:
        failed += 1
        print("FAIL:", what)


def edited(edit):
    data = copy.deepcopy(REAL)
    edit(data, {r["name"]: r for r in data["implementations"]})
    return implementations.validate(data)


def has(problems, *words):
    return any(all(w in p for w in words) for p in problems)


check(implementations.validate(REAL) == [], "the committed file: %s" % implementations.validate(REAL))

# fbgemm's set pins torch 2.14.1 and the torch set 2.15.0: fine in two venvs, a conflict in one.
check(implementations.pins("nodeps", ".venv-fbgemm", REAL).count("torch==2.14.1") == 1 and
      "torch==2.15.0" not in implementations.pins("nodeps", ".venv-fbgemm", REAL),
      ".venv-fbgemm's pins: %s" % implementations.pins("nodeps", ".venv-fbgemm", REAL))
check("torch==2.15.0" in implementations.pins("nodeps", ".venv", REAL) and
      "fbgemm_gpu-cpu==1.9.0" not in implementations.pins("nodeps", ".venv", REAL), ".venv's pins hold fbgemm's")
check(implementations.venvs(REAL) == [".venv", ".venv-fbgemm"], "venvs: %s" % implementations.venvs(REAL))
problems = edited(lambda d, rows: rows["fbgemm"].pop("venv"))
check(has(problems, "pypi fbgemm: torch==2.14.1", "set torch", "into .venv", "torch==2.15.0"),
      "fbgemm moved into .venv: %s" % problems)

# A set the rows of both venvs need goes into both.
check("numpy==2.4.6" in implementations.pins("install", ".venv", REAL) and
      "numpy==2.4.6" in implementations.pins("install", ".venv-fbgemm", REAL), "numpy's set in one venv only")

for venv in (".venv-lint", "venv", ".venv_fb", ".venv-"):
    problems = edited(lambda d, rows: rows["fbgemm"].__setitem__("venv", venv))
    check(has(problems, "(fbgemm): venv must be"), "venv %r accepted: %s" % (venv, problems))
problems = edited(lambda d, rows: rows["eigen"].__setitem__("venv", ".venv-eigen"))
check(has(problems, "(eigen): venv is for pipe adapters"), "a plugin row's venv: %s" % problems)
problems = edited(lambda d, rows: rows["fbgemm"].__setitem__("adapter_test", "pipe_adapters_test.py"))
check(has(problems, "(fbgemm): pipe_adapters_test.py runs its rows with .venv's python"),
      "a pipe_adapters_test row in .venv-fbgemm: %s" % problems)

# The target spec runs the adapter with its row's venv's python.
spec = implementations.target_spec(implementations.by_name(REAL)["fbgemm"], "/b", "/src")
check(spec == "pipe:/src/.venv-fbgemm/bin/python /src/targets/thirdparty/fbgemm_adapter.py", "fbgemm's spec: %s" % spec)
spec = implementations.target_spec(implementations.by_name(REAL)["pytorch-avx2"], "/b", "/src")
check(spec == "pipe:ATEN_CPU_CAPABILITY=avx2 /src/.venv/bin/python /src/targets/thirdparty/pytorch_adapter.py contiguous",
      "pytorch-avx2's spec: %s" % spec)

print("implementations_test: %s" % ("%d failed" % failed if failed else "all checks passed"))
sys.exit(1 if failed else 0)

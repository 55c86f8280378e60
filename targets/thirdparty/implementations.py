#!/usr/bin/env python3
"""Reads targets/thirdparty/implementations.json, the one row per third-party implementation that
everything else derives from, and writes or checks what is generated from it.

    implementations.py --check              # the file is valid and the generated tables match (ctest)
    implementations.py --write              # rewrite the generated tables
    implementations.py --venvs              # the virtual environments the rows run in, one a line
    implementations.py --pins install [--venv DIR]  # the pins scripts/install-thirdparty installs
                                            # normally into DIR (default .venv)
    implementations.py --pins nodeps [--venv DIR]   # ... and those it installs --no-deps afterwards
    implementations.py --names              # every implementation, one a line
    implementations.py --spec IMPL --build BUILD   # its target spec (certify.py's --target)
    implementations.py --verify-certificates CLI   # `CLI verify` on every committed certificate (ctest)

A row's members (only `name` and `adapter` are required):
  name          the implementation's name: certify.py's IMPL, docs/certifications/NAME/, the ctest names
  library       what is certified, in words
  adapter       {"plugin": CMAKE_TARGET} (BUILD/targets/thirdparty/CMAKE_TARGET.so), or
                {"pipe": SCRIPT, "args": [...], "env": {VAR: VALUE}}: the row's venv's python runs
                targets/thirdparty/SCRIPT ARGS with VAR=VALUE set (the pipe: target spec certify.py gives)
  pypi          names of the package sets under "pypi" it needs (each a list of exact pins, installed
                normally or --no-deps); scripts/install-thirdparty installs into each venv the union
                of the sets its rows need
  venv          the virtual environment (a folder of the source tree, .venv or .venv-SOMETHING) whose
                python runs the adapter (default .venv): a library built for another release of a
                package the project venv pins gets a venv of its own (FBGEMM and torch)
  module        the Python module the venv must import, else its checks skip saying so
  cpu_flags     /proc/cpuinfo flags the adapter needs, else its checks skip saying so
  sweep_stride  the certificate sweeps 1 binary32 input in S (default 1: every input)
  ci_stride     CI's `--check` sweeps 1 in S against expected-findings.stride-S.json; such a row also
                gets a `--check --full` ctest under label `long` (the certificate's own sweeps)
  timeout       seconds the adapter may take per request (default 10)
  adapter_test  the test beside the adapters that speaks to it: framework_adapters_test.py (one
                ctest per row) or pipe_adapters_test.py (one ctest for all such rows); the C++
                plugins' unit tests are registered in tests.cmake
  reports, capabilities   the version the adapter reports and what it provides (targets/thirdparty/README.md)
  version_shown, profile  docs/certifications/README.md's version and profile columns
  readme        its line in README.md's list (a line may name several rows; the others have none)

The generated tables list the implementations that have a committed certificate
(docs/certifications/NAME/certificate.json), in the order of the rows: a new row appears in them
when it is certified. The verdict column is computed from the expected findings (the 1-in-S ones
where CI samples). Standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "implementations.json")
ROW_KEYS = {"name", "library", "adapter", "pypi", "venv", "module", "cpu_flags", "sweep_stride", "ci_stride",
            "timeout", "adapter_test", "reports", "capabilities", "version_shown", "profile", "readme"}
DEFAULT_VENV = ".venv"
ADAPTER_TESTS = ("framework_adapters_test.py", "pipe_adapters_test.py")
DEFAULT_TIMEOUT = 10


def load(path=DATA):
    with open(path) as f:
        data = json.load(f)
    problems = validate(data)
    if problems:
        sys.exit("%s: %s" % (path, "; ".join(problems)))
    return data


def rows(data=None):
    return (data or load())["implementations"]


def by_name(data=None):
    return {r["name"]: r for r in rows(data)}


def venv_of(row):
    return row.get("venv", DEFAULT_VENV)


def venvs(data=None):
    """The venv folders the rows run in, the project venv first."""
    out = [DEFAULT_VENV]
    for r in rows(data):
        out += [venv_of(r)] if venv_of(r) not in out else []
    return out


def sets_of(venv, data):
    """The package sets the rows of one venv need, in the file's order."""
    used = {s for r in data.get("implementations", []) if venv_of(r) == venv for s in r.get("pypi", [])}
    return [s for s in data.get("pypi", {}) if s in used]


def validate(data):
    """What is wrong with the file, as messages naming the row and member."""
    problems = []
    sets = data.get("pypi", {})
    seen, used = set(), set()
    for name, s in sets.items():
        for kind in ("install", "nodeps"):
            for pin in s.get(kind, []):
                if not re.fullmatch(r"[A-Za-z0-9_.\-]+==[A-Za-z0-9_.+\-]+", pin):
                    problems.append("pypi %s: %r is not an exact NAME==VERSION pin" % (name, pin))
    for i, r in enumerate(data.get("implementations", [])):
        where = "row %d (%s)" % (i + 1, r.get("name", "no name"))
        if not isinstance(r.get("name"), str) or not re.fullmatch(r"[a-z0-9][a-z0-9_.\-]*", r.get("name", "")):
            problems.append("%s: name must be a lower-case word" % where)
        if r.get("name") in seen:
            problems.append("%s: a second row of that name" % where)
        seen.add(r.get("name"))
        for k in sorted(set(r) - ROW_KEYS):
            problems.append("%s: unknown member %r" % (where, k))
        if not re.fullmatch(r"\.venv(-[a-z0-9]+)?", str(venv_of(r))) or venv_of(r) == ".venv-lint":
            problems.append("%s: venv must be .venv or .venv-NAME (not .venv-lint, scripts/install-lint's)" % where)
        a = r.get("adapter", {})
        if set(a) == {"plugin"}:
            if "venv" in r:
                problems.append("%s: venv is for pipe adapters (a plugin runs in the runner)" % where)
        elif "pipe" in a and set(a) <= {"pipe", "args", "env"}:
            if not os.path.isfile(os.path.join(HERE, a["pipe"])):
                problems.append("%s: no adapter script targets/thirdparty/%s" % (where, a["pipe"]))
        else:
            problems.append("%s: adapter must be {plugin} or {pipe, args, env}" % where)
        for s in r.get("pypi", []):
            if s not in sets:
                problems.append("%s: no package set %r under pypi" % (where, s))
            used.add(s)
        for k in ("sweep_stride", "ci_stride", "timeout"):
            if k in r and not (isinstance(r[k], int) and r[k] >= 1):
                problems.append("%s: %s must be a whole number >= 1" % (where, k))
        if r.get("adapter_test", ADAPTER_TESTS[0]) not in ADAPTER_TESTS:
            problems.append("%s: adapter_test must be one of %s" % (where, " ".join(ADAPTER_TESTS)))
        if "adapter_test" in r and "pipe" not in a:
            problems.append("%s: adapter_test is for pipe adapters (plugins' tests are C++)" % where)
        if r.get("adapter_test") == ADAPTER_TESTS[1] and venv_of(r) != DEFAULT_VENV:
            problems.append("%s: %s runs its rows with %s's python; a row in a venv of its own takes %s" %
                            (where, ADAPTER_TESTS[1], DEFAULT_VENV, ADAPTER_TESTS[0]))
    for s in sorted(set(sets) - used):
        problems.append("pypi %s: no row uses it" % s)
    # One venv holds one release of each package: the sets installed together must agree.
    for venv in venvs(data) if not problems else []:
        pinned = {}
        for name in sets_of(venv, data):
            for kind in ("install", "nodeps"):
                for pin in sets[name].get(kind, []):
                    key = pin.split("==")[0].lower().replace("_", "-")
                    if pinned.setdefault(key, (pin, kind, name))[:2] != (pin, kind):
                        problems.append("pypi %s: %s (%s), but set %s, installed with it into %s, has %s (%s)" %
                                        (name, pin, kind, pinned[key][2], venv, *pinned[key][:2]))
    return problems


def venv_python(row, source=SOURCE):
    """The interpreter that runs a pipe adapter: its row's venv's python."""
    return os.path.join(source, venv_of(row), "bin", "python")


def target_spec(row, build, source=SOURCE):
    """The --target of `ninfer-conform certify` for a row. The Python adapters run under their
    row's venv (scripts/install-thirdparty)."""
    a = row["adapter"]
    if "plugin" in a:
        return "plugin:" + os.path.join(build, "targets", "thirdparty", a["plugin"] + ".so")
    words = ["%s=%s" % kv for kv in a.get("env", {}).items()]
    words += [venv_python(row, source), os.path.join(source, "targets", "thirdparty", a["pipe"])]
    return "pipe:" + " ".join(words + a.get("args", []))


def pins(kind, venv=DEFAULT_VENV, data=None):
    """The exact pins of the package sets one venv's rows need, installed normally (kind install)
    or --no-deps."""
    data = data or load()
    out = []
    for s in sets_of(venv, data):
        out += [p for p in data["pypi"][s].get(kind, []) if p not in out]
    return out


# --- the generated tables ----------------------------------------------------------------------

def certified(data, certs):
    return [r for r in rows(data) if os.path.isfile(os.path.join(certs, r["name"], "certificate.json"))]


def expected_findings(certs, row):
    """The findings the verdict column shows: CI's sampled ones where CI samples, else the
    certificate's."""
    name = "expected-findings.stride-%d.json" % row["ci_stride"] if "ci_stride" in row else "expected-findings.json"
    path = os.path.join(certs, row["name"], name)
    if not os.path.isfile(path):
        path = os.path.join(certs, row["name"], "expected-findings.json")
    with open(path) as f:
        return json.load(f)


def verdict_cell(findings):
    """The overall verdict, then "failed/judged" per judged suite with the cases passing only under
    a policy and which policies."""
    overall = findings["overall"].replace("under policies ", "under ").replace("under policy ", "under ")
    cells = []
    for suite in sorted(findings["suites"], key=lambda s: s.replace("convert.F32_TO_", "")):
        s = findings["suites"][suite]
        c = s["counts"]
        judged = sum(c.values()) - c.get("untested", 0)
        if not judged:
            continue
        text = "%s %d/%d" % (suite.replace("convert.F32_TO_", ""), c.get("fail", 0) + c.get("target-error", 0), judged)
        if c.get("pass-under-policy"):
            text += " (%d %s)" % (c["pass-under-policy"], ", ".join(s["policies"]))
        cells.append(text)
    return "**%s**: %s" % (overall, "; ".join(cells))


def certifications_table(data, certs):
    out = ["| implementation | version | verdict; failed/judged per suite (cases passing only under a NaN policy, and which) | profile it implements |",
           "|---|---|---|---|"]
    for r in certified(data, certs):
        out.append("| [`%s`](%s/certificate.md) | %s | %s | %s |" % (
            r["name"], r["name"], r.get("version_shown", ""), verdict_cell(expected_findings(certs, r)), r.get("profile", "")))
    return "\n".join(out) + "\n"


def adapters_table(data, certs):
    out = ["| implementation (`name`) | adapter | version reported | capabilities |", "|---|---|---|---|"]
    for r in certified(data, certs):
        a = r["adapter"]
        if "plugin" in a:
            adapter = "`%s.so`" % a["plugin"]
        else:
            adapter = "`%s`" % " ".join(["%s=%s" % kv for kv in a.get("env", {}).items()] + [a["pipe"]] + a.get("args", []))
        out.append("| %s (`%s`) | %s | %s | %s |" % (r.get("library", r["name"]), r["name"], adapter,
                                                    r.get("reports", ""), r.get("capabilities", "")))
    return "\n".join(out) + "\n"


def readme_list(data, certs):
    lines = [textwrap.fill(r["readme"], 99, initial_indent="- ", subsequent_indent="  ", break_long_words=False,
                           break_on_hyphens=False) for r in certified(data, certs) if r.get("readme")]
    count = ("Certificates for %d real implementations are in `docs/certifications/` (index, per-suite\n"
             "counts and the profile each implements in its README) and re-checked in CI (a changed finding\n"
             "fails the build)." % len(certified(data, certs)))
    return count, "\n".join(lines) + "\n"


def generated(data, certs):
    """{file: {section: text}} of every generated section."""
    count, bullets = readme_list(data, certs)
    return {
        os.path.join(certs, "README.md"): {"implementations": certifications_table(data, certs)},
        os.path.join(HERE, "README.md"): {"adapters": adapters_table(data, certs)},
        os.path.join(SOURCE, "README.md"): {"certified count": count + "\n", "certified": bullets},
    }


def begin(section):
    return "<!-- BEGIN %s: generated by targets/thirdparty/implementations.py --write from implementations.json -->\n" % section


def end(section):
    return "<!-- END %s -->\n" % section


def splice(text, section, body, path):
    b, e = begin(section), end(section)
    i, j = text.find(b), text.find(e)
    if i < 0 or j < i:
        raise ValueError("%s: no generated section %r (the markers %r ... %r)" % (path, section, b.strip(), e.strip()))
    return text[:i + len(b)] + body + text[j:]


def sync(certs, write):
    """Writes (or checks) every generated section; returns the files that differ."""
    data = load()
    stale = []
    for path, sections in generated(data, certs).items():
        with open(path) as f:
            text = f.read()
        new = text
        for section, body in sections.items():
            new = splice(new, section, body, path)
        if new != text:
            stale.append(path)
            if write:
                with open(path + ".tmp", "w") as f:
                    f.write(new)
                os.replace(path + ".tmp", path)
    return stale


def verify_certificates(cli, certs):
    """`ninfer-conform verify` on every committed certificate folder: its certificate.sha256 holds,
    its identity is whole and its files agree. Returns the problems."""
    problems = []
    for name in sorted(d for d in os.listdir(certs) if os.path.isfile(os.path.join(certs, d, "certificate.json"))):
        run = subprocess.run([cli, "verify", os.path.join(certs, name)], capture_output=True, text=True)
        if run.returncode != 0:
            problems.append("%s: verify exited %d: %s" % (name, run.returncode,
                                                          " | ".join(run.stdout.splitlines() + [run.stderr.strip()])))
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--certs", default=os.path.join(SOURCE, "docs", "certifications"))
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true")
    g.add_argument("--write", action="store_true")
    g.add_argument("--pins", choices=("install", "nodeps"))
    g.add_argument("--venvs", action="store_true")
    g.add_argument("--names", action="store_true")
    g.add_argument("--spec", metavar="IMPL")
    g.add_argument("--verify-certificates", metavar="CLI")
    p.add_argument("--build", default=os.path.join(SOURCE, "build"), help="with --spec: the build folder")
    p.add_argument("--venv", default=DEFAULT_VENV, help="with --pins: the venv folder (default .venv)")
    a = p.parse_args()
    if a.spec:
        if a.spec not in by_name():
            sys.exit("implementations.py: no row %r" % a.spec)
        print(target_spec(by_name()[a.spec], os.path.abspath(a.build)))
        return 0
    if a.pins:
        if a.venv not in venvs():
            sys.exit("implementations.py: no row runs in %r (the venvs: %s)" % (a.venv, " ".join(venvs())))
        print("\n".join(pins(a.pins, a.venv)))
        return 0
    if a.venvs:
        print("\n".join(venvs()))
        return 0
    if a.names:
        print("\n".join(r["name"] for r in rows()))
        return 0
    if a.verify_certificates:
        problems = verify_certificates(a.verify_certificates, a.certs)
        for p_ in problems:
            print("FAIL: " + p_)
        print("implementations.py: %d committed certificates, %s" % (
            len([d for d in os.listdir(a.certs) if os.path.isdir(os.path.join(a.certs, d))]),
            "%d do not verify as expected" % len(problems) if problems else "each verifies as expected"))
        return 1 if problems else 0
    data = load()
    # Every certificate folder belongs to a row (a folder of a removed row would go unchecked).
    orphans = sorted(d for d in os.listdir(a.certs) if os.path.isdir(os.path.join(a.certs, d)) and d not in by_name(data))
    if orphans:
        print("implementations.py: docs/certifications has folders of no row of implementations.json: %s" % " ".join(orphans))
        return 1
    try:
        stale = sync(a.certs, a.write)
    except ValueError as e:
        print("implementations.py: %s" % e)
        return 1
    if a.write:
        print("implementations.py: %s" % ("rewrote " + " ".join(os.path.relpath(s, SOURCE) for s in stale) if stale else "nothing to rewrite"))
        return 0
    for s in stale:
        print("implementations.py: %s is not what implementations.json gives; run targets/thirdparty/implementations.py --write"
              % os.path.relpath(s, SOURCE))
    if not stale:
        print("implementations.py: %d rows valid; the generated tables match" % len(rows(data)))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())

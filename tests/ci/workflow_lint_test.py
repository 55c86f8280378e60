#!/usr/bin/env python3
"""scripts/lint-workflows on the project's workflow files (must be clean) and on broken copies of
them made here (each must be reported, naming the file and what is wrong): a key the GitHub schema
does not know, a GitLab job key the schema does not know, a shell block that does not parse, a
cron minute out of range, a missing script, the nightly on a runner without the gpu label, a GitLab
nightly that also runs on pushes, and a history step that is skipped after a failed nightly.

Usage: workflow_lint_test.py SOURCE_DIR   (exit 77 without .venv-lint, except under CI=true)
"""
import os
import subprocess
import sys
import tempfile

SRC = os.path.abspath(sys.argv[1])
LINT = os.path.join(SRC, "scripts", "lint-workflows")
GH = open(os.path.join(SRC, ".github", "workflows", "gpu-nightly.yml")).read()
GL = open(os.path.join(SRC, ".gitlab-ci.yml")).read()
failures = []


def lint(*args):
    return subprocess.run([LINT, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def mutant(tmp, name, kind, text, old, new, expect):
    """A copy of a real file with one change; the lint must fail and print `expect`."""
    if old not in text:
        failures.append(f"{name}: the fixture's anchor {old!r} is not in the real file any more")
        return
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))
    p = lint(f"--{kind}", path)
    if p.returncode != 1 or expect not in p.stdout:
        failures.append(f"{name}: expected exit 1 and {expect!r}, got exit {p.returncode}:\n{p.stdout}")
    else:
        print(f"ok: {name}: reported ({expect})")


def main():
    p = lint()
    if p.returncode == 77:
        print("SKIPPED: " + p.stdout.strip())
        return 77
    if p.returncode != 0:
        failures.append(f"the project's workflow files: exit {p.returncode}\n{p.stdout}")
    else:
        print("ok: " + p.stdout.strip().splitlines()[-1])
    with tempfile.TemporaryDirectory() as tmp:
        mutant(tmp, "gh-schema.yml", "github", GH, "    timeout-minutes: 120",
               "    timeout-minutes: 120\n    timeout-minuets: 5", "timeout-minuets")
        mutant(tmp, "gh-shell.yml", "github", GH, "          rc=0\n          scripts/gpu-nightly || rc=$?",
               "          rc=0\n          if scripts/gpu-nightly; then rc=$?", "shell does not parse")
        mutant(tmp, "gh-cron.yml", "github", GH, '"17 3 * * *"', '"61 3 * * *"', "field '61' is not within 0-59")
        mutant(tmp, "gh-script.yml", "github", GH, "scripts/gpu-history record", "scripts/gpu-histroy record",
               "calls scripts/gpu-histroy")
        mutant(tmp, "gh-labels.yml", "github", GH, "[self-hosted, linux, x64, gpu]", "[self-hosted, linux, x64]",
               "needs the labels self-hosted and gpu")
        mutant(tmp, "gh-always.yml", "github", GH,
               "      - name: Append to the history and compare with the last kept run\n        if: ${{ always() }}",
               "      - name: Append to the history and compare with the last kept run\n        if: ${{ success() }}",
               "no step with `if: always()` runs scripts/gpu-history record")
        mutant(tmp, "gl-schema.yml", "gitlab", GL, "  timeout: 2h", "  timeout: 2h\n  artefacts: {}",
               "artefacts")
        mutant(tmp, "gl-rules.yml", "gitlab", GL, """    - if: '$CI_PIPELINE_SOURCE == "web"'""",
               """    - if: '$CI_PIPELINE_SOURCE == "push"'""", "is not restricted to schedule")
        mutant(tmp, "gl-tags.yml", "gitlab", GL, "tags: [gpu]", "tags: [docker]", "needs the tag gpu")
        mutant(tmp, "gl-shell.yml", "gitlab", GL, "    - hrc=0", "    - hrc=0; if true", "shell does not parse")
    for f in failures:
        print("FAIL: " + f)
    print(f"workflow lint: {len(failures)} failure(s)" if failures else "workflow lint: all checks passed")
    return 1 if failures else 0


sys.exit(main())

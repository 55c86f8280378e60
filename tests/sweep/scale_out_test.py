#!/usr/bin/env python3
"""Runs the scale-out examples of docs/scale-out/ as their schedulers would, with each scheduler's
environment simulated, and checks that the merged sweep equals one single-machine sweep.

The commands come from the example files themselves: the Slurm scripts are run whole, one task per
index of their `#SBATCH --array=`; the Kubernetes Jobs' container command and args are run once per
completion index (the Indexed Job) or once; the GitHub Actions jobs' `run:` steps that start a
ninfer-conform command and the GitLab CI jobs' `script:` lines are run per matrix node, jobs in
dependency order (build, checkout and artifact steps and `before_script` are the CI's plumbing: the
test puts the built ninfer-conform on PATH and every job shares one results folder). Only NC_DOMAINS (a few seconds of domains instead of
all) and NC_OUT (a temporary folder) are changed. Each shard report must name the shard its
scheduler index means (derived here from each engine's documented counting, not from the code), the
merge must equal the unsharded report byte for byte, the certificate must say conformant, and a
missing shard must make the Slurm merge step fail and name the shard.

Usage: scale_out_test.py NINFER_CONFORM SOURCE_DIR   (needs PyYAML: scripts/install-deps)
"""
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

NC, SRC = sys.argv[1], sys.argv[2]
EXAMPLES = os.path.join(SRC, "docs", "scale-out")
DOMAINS = "decode reconstruct.Q4G64_F16S reconstruct.NVFP4 encode.Q4G64_F16S encode.W8G32_F16S"
SCHEDULER_VARS = re.compile(r"^(GTEST_SHARD_INDEX|GTEST_TOTAL_SHARDS|SLURM_.*|JOB_COMPLETION.*|CI_NODE_.*|"
                            r"CIRCLE_NODE_.*|BUILDKITE_PARALLEL_.*)$")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def base_env(out):
    env = {k: v for k, v in os.environ.items() if not SCHEDULER_VARS.match(k)}
    env["PATH"] = os.path.dirname(os.path.abspath(NC)) + os.pathsep + env.get("PATH", "")
    return env


def override(env, out):
    """The two variables the test changes; each example must define or honour both."""
    env = dict(env)
    env["NC_DOMAINS"], env["NC_OUT"] = DOMAINS, out
    return env


def run(argv, env, cwd, what):
    p = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        fail(f"{what}: exit {p.returncode}\n{p.stdout}")
    return p


def bash(script, env, cwd, what):
    return run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], env, cwd, what)


def check_result(name, out, expected_shards, single):
    """expected_shards: {report file name: shard 'K/N' it must name}."""
    before = len(failures)
    for fname, shard in expected_shards.items():
        path = os.path.join(out, fname)
        if not os.path.exists(path):
            fail(f"{name}: no shard report {fname}")
            continue
        reports = json.load(open(path))
        reports = reports if isinstance(reports, list) else [reports]
        named = {r["shard"] for r in reports}
        if named != {shard}:
            fail(f"{name}: {fname} names shard(s) {sorted(named)}, the scheduler index means {shard}")
    merged = os.path.join(out, "merged.json")
    if not os.path.exists(merged) or open(merged, "rb").read() != single:
        fail(f"{name}: merged report differs from the single-machine run")
    cert = os.path.join(out, "certificate", "certificate.json")
    if not os.path.exists(cert):
        fail(f"{name}: no certificate")
        return
    c = json.load(open(cert))
    swept = {s["domain"] for s in c.get("sweeps", [])}
    if c.get("conformant") is not True or len(swept) != len(json.loads(single)):
        fail(f"{name}: certificate not conformant or without the merged sweeps ({len(swept)} domains)")
    if len(failures) == before:
        print(f"{name}: {len(expected_shards)} shards merged equal the single run; certificate conformant")


def slurm(work, single):
    out = os.path.join(work, "out")
    os.mkdir(out)
    sweep = os.path.join(EXAMPLES, "slurm-sweep.sh")
    spec = re.search(r"^#SBATCH --array=(\d+)-(\d+)(?::(\d+))?(?:%\d+)?$", open(sweep).read(), re.M)
    first, last, step = int(spec[1]), int(spec[2]), int(spec[3] or 1)
    ids = list(range(first, last + 1, step))
    env = override(base_env(out), out)
    expected = {}
    for k, task in enumerate(ids):  # Slurm's array variables, as sbatch --array=FIRST-LAST:STEP sets them
        e = dict(env, SLURM_JOB_ID=str(1000 + task), SLURM_ARRAY_JOB_ID="1000", SLURM_ARRAY_TASK_ID=str(task),
                 SLURM_ARRAY_TASK_MIN=str(first), SLURM_ARRAY_TASK_MAX=str(ids[-1]),
                 SLURM_ARRAY_TASK_STEP=str(step), SLURM_ARRAY_TASK_COUNT=str(len(ids)))
        run(["bash", sweep], e, work, f"slurm task {task}")
        expected[f"shard-{task}.json"] = f"{k}/{len(ids)}"
    merge = os.path.join(EXAMPLES, "slurm-merge.sh")
    run(["bash", merge], dict(env, SLURM_JOB_ID="2000"), work, "slurm merge")
    check_result("slurm", out, expected, single)
    # A lost task: the merge step must fail and say which shard is missing.
    lost = f"shard-{ids[1]}.json"
    os.remove(os.path.join(out, lost))
    p = subprocess.run(["bash", merge], env=env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode == 0 or f"missing shards {expected[lost]}" not in p.stdout:
        fail(f"slurm: merge with {lost} lost should fail naming shard {expected[lost]}:\n{p.stdout}")


def kubernetes(work, single):
    out = os.path.join(work, "out")
    os.mkdir(out)
    expected = {}
    for f in ("k8s-sweep-job.yaml", "k8s-merge-job.yaml"):
        job = yaml.safe_load(open(os.path.join(EXAMPLES, f)))
        spec = job["spec"]
        (container,) = spec["template"]["spec"]["containers"]
        env = base_env(out)
        env.update({e["name"]: str(e["value"]) for e in container.get("env", [])})
        env = override(env, out)
        argv = container.get("command", []) + container.get("args", [])
        if spec.get("completionMode") == "Indexed":
            n = spec["completions"]
            if env.get("JOB_COMPLETIONS") != str(n):
                fail(f"{f}: JOB_COMPLETIONS must equal spec.completions ({n})")
            for i in range(n):  # Kubernetes sets JOB_COMPLETION_INDEX = 0 .. completions-1
                run(argv, dict(env, JOB_COMPLETION_INDEX=str(i)), work, f"{f} index {i}")
                expected[f"shard-{i}.json"] = f"{i}/{n}"
        else:
            run(argv, env, work, f)
    check_result("kubernetes", out, expected, single)


def github_actions(work, single):
    out = os.path.join(work, "out")
    os.mkdir(out)
    wf = yaml.safe_load(open(os.path.join(EXAMPLES, "github-actions.yml")))
    jobs = wf["jobs"]
    needs = {j: [v["needs"]] if isinstance(v.get("needs"), str) else v.get("needs", []) for j, v in jobs.items()}
    order = []
    while len(order) < len(jobs):  # each job after the jobs it needs
        ready = [j for j in jobs if j not in order and all(n in order for n in needs[j])]
        if not ready:
            fail(f"github-actions: jobs {sorted(set(jobs) - set(order))} need jobs that never run")
            return
        order += ready
    expected = {}
    for name in order:
        job = jobs[name]
        matrix = job.get("strategy", {}).get("matrix", {})
        keys = list(matrix)
        for values in itertools.product(*(matrix[k] for k in keys)) if keys else [()]:
            combo = dict(zip(keys, values))

            def expand(text):
                text = re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: str(combo[m[1]]), str(text))
                if "${{" in text:
                    fail(f"github-actions: {name}: unsupported expression in {text!r}")
                return text

            env = base_env(out)
            env.update({k: expand(v) for k, v in {**wf.get("env", {}), **job.get("env", {})}.items()})
            env = override(env, out)
            for step in job["steps"]:
                if re.search(r"^\s*ninfer-conform ", step.get("run", ""), re.M):
                    bash(expand(step["run"]), env, work, f"github-actions {name} {combo} {step.get('name')}")
            if "CI_NODE_INDEX" in job.get("env", {}):  # GitLab's convention, which the example follows
                expected[f"shard-{env['CI_NODE_INDEX']}.json"] = f"{int(env['CI_NODE_INDEX']) - 1}/{env['CI_NODE_TOTAL']}"
    check_result("github-actions", out, expected, single)


def gitlab(work, single):
    out = os.path.join(work, "out")
    os.mkdir(out)
    ci = yaml.safe_load(open(os.path.join(EXAMPLES, "gitlab-ci.yml")))
    stages = ci["stages"]
    jobs = sorted((k for k, v in ci.items() if isinstance(v, dict) and "script" in v),
                  key=lambda k: stages.index(ci[k]["stage"]))
    expected = {}
    for name in jobs:
        job = ci[name]
        env = base_env(out)
        env.update({k: str(v) for k, v in {**ci.get("variables", {}), **job.get("variables", {})}.items()})
        env = override(env, out)
        n = job.get("parallel")
        for node in range(1, n + 1) if n else [None]:  # GitLab: CI_NODE_INDEX = 1 .. parallel
            e = dict(env, CI_NODE_INDEX=str(node), CI_NODE_TOTAL=str(n)) if n else env
            bash("\n".join(job["script"]), e, work, f"gitlab {name} node {node}")
            if n:
                expected[f"shard-{node}.json"] = f"{node - 1}/{n}"
    check_result("gitlab", out, expected, single)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        env = base_env(tmp)
        p = run([NC, "sweep", *DOMAINS.split(), "--target", "cpu", "--json", os.path.join(tmp, "single.json")],
                env, tmp, "single-machine sweep")
        if p.returncode:
            return 1
        single = open(os.path.join(tmp, "single.json"), "rb").read()
        for example in (slurm, kubernetes, github_actions, gitlab):
            work = os.path.join(tmp, example.__name__)
            os.mkdir(work)
            example(work, single)
    if failures:
        print(f"scale-out examples: {len(failures)} failure(s)")
        return 1
    print("scale-out examples: all checks passed")
    return 0


sys.exit(main())

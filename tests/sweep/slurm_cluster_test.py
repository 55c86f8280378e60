#!/usr/bin/env python3
"""Runs docs/scale-out/slurm-sweep.sh and slurm-merge.sh on a real Slurm cluster: Debian's
slurmctld, slurmd and munged (scripts/install-slurm), started here on localhost as one node with
every path in a temporary folder, and stopped afterwards.

The array is submitted as the scripts' header says (`sbatch --parsable slurm-sweep.sh`, then the
merge with `--dependency=afterany:` the array; the test then polls scontrol until the merge job
has ended). Slurm itself sets the array variables, so each task's shard comes from the real scheduler.
Only NC_DOMAINS (a few small domains) and NC_OUT (the temporary folder) are changed. Checked: every
array task COMPLETED with exit 0 and its report names the shard its task index means, the task's
log says the shard came from the Slurm job array, the merged report equals a single-machine sweep
byte for byte, the certificate is conformant and lists the merged sweeps, and a merge with one
shard lost fails as a Slurm job naming the missing shard. Afterwards no daemon or job process of the
cluster may be left, and the temporary folder is removed.

The node declares 64 CPUs (SlurmdParameters=config_overrides) whatever the machine has, so that the
script's own `#SBATCH --cpus-per-task=8` is granted unchanged and all 8 tasks run at once.

Usage: slurm_cluster_test.py NINFER_CONFORM SOURCE_DIR
Exit 0 pass, 1 fail, 77 skipped (Slurm or MUNGE not installed, or not root; under CI=true those
fail instead: scripts/test installs them through scripts/install-deps).
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

NC, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
EXAMPLES = os.path.join(SRC, "docs", "scale-out")
SWEEP, MERGE = os.path.join(EXAMPLES, "slurm-sweep.sh"), os.path.join(EXAMPLES, "slurm-merge.sh")
DOMAINS = "decode reconstruct.Q4G64_F16S reconstruct.NVFP4 encode.Q4G64_F16S encode.W8G32_F16S"
DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "scontrol", "sinfo", "munge")
START_S, JOB_S, STOP_S = 30, 180, 20  # bounds on each wait
failures = []
started = time.monotonic()


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def say(msg):
    print(f"[{time.monotonic() - started:5.1f} s] {msg}", flush=True)


def skip_or_fail(reason):
    if os.environ.get("CI"):
        print(f"FAIL: {reason} (CI must run this test: scripts/install-deps installs Slurm)")
        sys.exit(1)
    print(f"SKIPPED: {reason}")
    sys.exit(77)


def free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


SLURM_CONF = """\
# One-node cluster for tests/sweep/slurm_cluster_test.py: every path below is in {tmp}.
ClusterName=nctest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={tmp}/munge/munge.socket
StateSaveLocation={tmp}/ctld-state
SlurmdSpoolDir={tmp}/slurmd-spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/slurmctld.log
SlurmdLogFile={tmp}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName={host} NodeAddr=127.0.0.1 CPUs=64 State=UNKNOWN
PartitionName=nctest Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


class Cluster:
    def __init__(self, tmp):
        self.tmp = tmp
        self.procs = {}
        self.host = socket.gethostname().split(".")[0]
        self.conf = os.path.join(tmp, "slurm.conf")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "SBATCH_", "SALLOC_"))}
        self.env["SLURM_CONF"] = self.conf

    def daemon(self, name, argv):
        log = open(os.path.join(self.tmp, name + ".out"), "w")
        self.procs[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                            cwd=self.tmp, start_new_session=True)

    def start(self):
        t = self.tmp
        os.chmod(t, 0o711)  # munged requires search permission for all on its socket's folders
        os.makedirs(os.path.join(t, "munge"), mode=0o755)
        key = os.path.join(t, "munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)  # munged refuses a key readable by others
        ctld_port, slurmd_port = free_ports(2)
        with open(self.conf, "w") as f:
            f.write(SLURM_CONF.format(tmp=t, host=self.host, ctld_port=ctld_port, slurmd_port=slurmd_port))
        self.daemon("munged", ["munged", "--foreground", f"--key-file={key}", f"--socket={t}/munge/munge.socket",
                               f"--pid-file={t}/munge/munged.pid", f"--log-file={t}/munge/munged.log",
                               f"--seed-file={t}/munge/munged.seed"])
        self.wait_for(lambda: os.path.exists(f"{t}/munge/munge.socket"), "munged's socket")
        self.daemon("slurmctld", ["slurmctld", "-D", "-f", self.conf])
        self.daemon("slurmd", ["slurmd", "-D", "-f", self.conf, "-N", self.host])
        self.wait_for(lambda: self.client(["sinfo", "-h", "-o", "%t"], check=False).stdout.strip() == "idle",
                      "the node to be idle")
        say(f"cluster up: slurmctld on 127.0.0.1:{ctld_port}, slurmd {self.host} on :{slurmd_port}")

    def wait_for(self, ready, what):
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            for name, p in self.procs.items():
                if p.poll() is not None:
                    raise RuntimeError(f"{name} exited ({p.returncode}) while waiting for {what}:\n"
                                       + self.log_tail(name))
            if ready():
                return
            time.sleep(0.25)
        raise RuntimeError(f"no {what} after {START_S} s:\n" + "".join(self.log_tail(n) for n in self.procs))

    def log_tail(self, name):
        path = os.path.join(self.tmp, name + ".out")
        lines = open(path, errors="replace").read().splitlines()[-15:] if os.path.exists(path) else []
        return f"--- {name}:\n" + "\n".join(lines) + "\n"

    def client(self, argv, check=True, timeout=30, env=None, cwd=None):
        p = subprocess.run(argv, env=env or self.env, cwd=cwd or self.tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout)
        if check and p.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)}: exit {p.returncode}\n{p.stdout}")
        return p

    def stop(self):
        """scontrol shutdown stops slurmctld, which tells slurmd to stop; munged stops on SIGTERM, and
        only after both, since slurmctld signs that message with a MUNGE credential (with munged gone
        first, slurmd never hears it: CI saw this once). A Slurm daemon still running STOP_S later
        is sent SIGTERM, its documented clean shutdown, and said so; one still running STOP_S after
        that, or any process whose command line names the temporary folder, is a failure (and is
        killed so that nothing outlives the test)."""
        if "slurmctld" in self.procs and self.procs["slurmctld"].poll() is None:
            try:
                self.client(["scontrol", "shutdown"], check=False, timeout=STOP_S)
            except subprocess.TimeoutExpired:
                pass
        for name in ("slurmctld", "slurmd", "munged"):
            p = self.procs.get(name)
            if p is None:
                continue
            if name == "munged":
                p.send_signal(signal.SIGTERM)
            if ended(p):
                continue
            if name != "munged":
                say(f"{name} still running {STOP_S} s after scontrol shutdown; sending SIGTERM")
                p.send_signal(signal.SIGTERM)
                if ended(p):
                    continue
            fail(f"{name} still running {STOP_S} s after SIGTERM; killed\n" + self.log_tail(name))
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        for pid in leftover_processes(self.tmp):
            fail(f"process {pid} of the cluster left behind; killed")
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def ended(p):
    """Whether p exits within STOP_S."""
    try:
        p.wait(timeout=STOP_S)
        return True
    except subprocess.TimeoutExpired:
        return False


def leftover_processes(tmp):
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != os.getpid():
            try:
                cmd = open(f"/proc/{d}/cmdline", "rb").read().decode(errors="replace")
                environ = open(f"/proc/{d}/environ", "rb").read().decode(errors="replace")
            except OSError:
                continue
            if tmp in cmd or f"SLURM_CONF={tmp}/" in environ:
                found.append(int(d))
    return found


ENDED = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL",
         "DEADLINE", "PREEMPTED"}


def job_records(cluster, jid):
    """{array task id, or None for a plain job: (JobState, ExitCode)} from scontrol, which keeps
    finished jobs for MinJobAge (300 s by default)."""
    out = cluster.client(["scontrol", "-o", "show", "job", jid]).stdout
    records = {}
    for line in out.splitlines():
        f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        task = f.get("ArrayTaskId")
        records[int(task) if task and task.isdigit() else None] = (f["JobState"], f["ExitCode"])
    return records


def wait_job(cluster, jid):
    """Polls until every record of the job has ended (bounded by JOB_S); returns the records."""
    deadline = time.monotonic() + JOB_S
    while True:
        records = job_records(cluster, jid)
        if records and all(state in ENDED for state, _ in records.values()):
            return records
        if time.monotonic() > deadline:
            raise RuntimeError(f"job {jid} not ended after {JOB_S} s: {records}")
        time.sleep(0.5)


def submit(cluster, argv, env, work):
    return cluster.client(["sbatch", "--parsable", *argv], env=env, cwd=work).stdout.strip().split(";")[0]


def run_example(cluster, work, single):
    header = open(SWEEP).read()
    # The test submits what the header tells a user to submit; if the header changes, so must this.
    for cmd in ("jid=$(sbatch --parsable docs/scale-out/slurm-sweep.sh)",
                "sbatch --dependency=afterany:$jid docs/scale-out/slurm-merge.sh"):
        if cmd not in header:
            fail(f"slurm-sweep.sh's header no longer says `{cmd}`: update this test with it")
    spec = re.search(r"^#SBATCH --array=(\d+)-(\d+)(?::(\d+))?(?:%\d+)?$", header, re.M)
    ids = list(range(int(spec[1]), int(spec[2]) + 1, int(spec[3] or 1)))
    out = os.path.join(work, "nc-sweep")
    env = dict(cluster.env, NC_OUT=out, NC_DOMAINS=DOMAINS,
               PATH=os.path.dirname(NC) + os.pathsep + cluster.env.get("PATH", ""))
    jid = submit(cluster, [SWEEP], env, work)
    mjid = submit(cluster, [f"--dependency=afterany:{jid}", MERGE], env, work)
    say(f"submitted the array {jid} (tasks {ids[0]}..{ids[-1]}) and the merge {mjid}, which waits for it")
    (merge,) = wait_job(cluster, mjid).values()
    say(f"merge job {mjid} ended: {merge[0]}, exit {merge[1]}")
    if merge != ("COMPLETED", "0:0"):
        fail(f"merge job {mjid}: {merge[0]}, exit {merge[1]}\n" + slurm_log(work, mjid))
    tasks = wait_job(cluster, jid)
    if sorted(tasks) != ids:
        fail(f"array {jid} ran tasks {sorted(tasks)}, the script's --array means {ids}")
    for task, (state, code) in sorted(tasks.items()):
        if (state, code) != ("COMPLETED", "0:0"):
            fail(f"array task {jid}_{task}: {state} exit {code}\n" + slurm_log(work, f"{jid}_{task}"))
    for k, task in enumerate(ids):
        shard = f"{k}/{len(ids)}"
        path = os.path.join(out, f"shard-{task}.json")
        if not os.path.exists(path):
            fail(f"task {task}: no shard report {path}")
            continue
        reports = json.load(open(path))
        named = {r["shard"] for r in (reports if isinstance(reports, list) else [reports])}
        if named != {shard}:
            fail(f"task {task}: report names shard(s) {sorted(named)}; Slurm task {task} of {ids} means {shard}")
        log = slurm_log(work, f"{jid}_{task}")
        if f"shard {shard} from Slurm job array (SLURM_ARRAY_TASK_ID={task}" not in log:
            fail(f"task {task}: its log does not say the shard came from the Slurm job array:\n{log}")
    merged = os.path.join(out, "merged.json")
    if not os.path.exists(merged) or open(merged, "rb").read() != single:
        fail("the merged report differs from the single-machine sweep")
    cert = os.path.join(out, "certificate", "certificate.json")
    if os.path.exists(cert):
        c = json.load(open(cert))
        swept = {s["domain"] for s in c.get("sweeps", [])}
        if c.get("conformant") is not True or swept != {r["domain"] for r in json.loads(single)}:
            fail(f"certificate not conformant or without the merged sweeps: {c.get('verdict')}, {sorted(swept)}")
    else:
        fail("no certificate")
    if not failures:
        say(f"{len(ids)} Slurm array tasks merged equal the single-machine sweep; certificate conformant")

    # A lost shard: the merge job must fail, and its log must name the shard.
    lost = ids[1]
    os.remove(os.path.join(out, f"shard-{lost}.json"))
    ajid = submit(cluster, [MERGE], env, work)
    (again,) = wait_job(cluster, ajid).values()
    log = slurm_log(work, ajid)
    if again[0] != "FAILED" or f"missing shards 1/{len(ids)}" not in log:
        fail(f"merge job {ajid} with shard-{lost}.json lost: {again[0]}, exit {again[1]}; "
             f"it should fail naming shard 1/{len(ids)}:\n{log}")
    else:
        say(f"merge job {ajid} with shard-{lost}.json lost: {again[0]} (exit {again[1]}), naming shard 1/{len(ids)}")


def slurm_log(work, jid):
    """A job's output file as sbatch names it by default (slurm-%j.out, slurm-%A_%a.out for arrays)."""
    path = os.path.join(work, f"slurm-{jid}.out")
    return open(path, errors="replace").read() if os.path.exists(path) else f"(no {path})"


def main():
    missing = [c for c in DAEMONS + CLIENTS if not shutil.which(c)]
    if missing:
        skip_or_fail(f"{', '.join(missing)} not installed (scripts/install-slurm installs Debian's Slurm and MUNGE)")
    if os.geteuid() != 0:
        skip_or_fail("slurmd must run as root to launch jobs")
    tmp = tempfile.mkdtemp(prefix="nc-slurm-")
    cluster = Cluster(tmp)
    try:
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        p = subprocess.run([NC, "sweep", *DOMAINS.split(), "--target", "cpu", "--json", os.path.join(tmp, "single.json")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=JOB_S)
        if p.returncode:
            fail(f"single-machine sweep: exit {p.returncode}\n{p.stdout}")
            return 1
        single = open(os.path.join(tmp, "single.json"), "rb").read()
        cluster.start()
        run_example(cluster, work, single)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        fail(str(e))
    finally:
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        if os.path.exists(tmp):
            fail(f"{tmp} could not be removed")
    say("cluster stopped, no process left, temporary folder removed" if not failures else "cluster stopped")
    if failures:
        print(f"slurm cluster: {len(failures)} failure(s)")
        return 1
    print("slurm cluster: all checks passed")
    return 0


sys.exit(main())

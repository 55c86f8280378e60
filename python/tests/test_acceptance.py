"""Issue 31's acceptance, against the installed package: the README's script certifies ml_dtypes'
bfloat16 cast in process with the same findings (certify.py's findings()) as the executable through
the pipe adapter; the executable and the Python API write the same certificate bytes."""
import json
import os
import subprocess
import sys

import ninfer_conform

CLI = os.path.join(os.path.dirname(sys.executable), "ninfer-conform")  # the console script

STRIDE = "257"  # the committed certificates' CI stride; the README's script sweeps whole by default


def certificate(folder):
    with open(os.path.join(folder, "certificate.json")) as f:
        return json.load(f)


def test_script_certifies_ml_dtypes_bf16_as_the_pipe_adapter_does(tmp_path, source):
    import certify  # targets/thirdparty/certify.py
    script = os.path.join(source, "python", "examples", "certify_ml_dtypes_bf16.py")
    run = subprocess.run([sys.executable, script, str(tmp_path / "inproc"), STRIDE], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "conformant" in run.stdout
    adapter = os.path.join(source, "targets", "thirdparty", "ml_dtypes_adapter.py")
    cli = subprocess.run([CLI, "certify", "--target", "pipe:%s %s" % (sys.executable, adapter),
                          "--out", str(tmp_path / "pipe"), "--suite", "convert.F32_TO_BF16_RNE*",
                          "--sweep", "convert.F32_TO_BF16_RNE", "--stride", STRIDE, "--jobs", "2"],
                         capture_output=True, text=True)
    assert cli.returncode in (0, 1), cli.stderr
    inproc, pipe = certificate(tmp_path / "inproc"), certificate(tmp_path / "pipe")
    a, b = certify.findings(inproc), certify.findings(pipe)
    assert a == b, "\n".join(certify.diff(b, a))
    # What ml_dtypes is known to do (docs/certifications/ml_dtypes): conformant under nan-payload.
    assert inproc["conformant"] and a["suites"]["convert.F32_TO_BF16_RNE"]["policies"] == ["nan-payload"]
    assert a["sweeps"]["convert.F32_TO_BF16_RNE"]["covered"] > 0
    # Apart from who ran it (identity) and when, the certificate says the same thing.
    for c in (inproc, pipe):
        for volatile in ("generated_at", "identity", "environment"):
            c.pop(volatile)
    assert inproc == pipe
    assert certificate(tmp_path / "inproc")["identity"]["target"]["kind"] == "python"


def strip_volatile_md(text):
    return "\n".join(line for line in text.splitlines() if "generated" not in line.lower())


def test_python_certify_writes_the_executables_bytes(tmp_path):
    args = dict(suite="decode.BF16,convert.F32_TO_BF16_RNE", sweep="decode.BF16", jobs=2)
    cert = ninfer_conform.certify("cpu", out=tmp_path / "py", **args)
    assert cert.exit_code == 0 and cert.conformant
    # the options in the order certify() passes them, so the identity's command lines agree
    cli = subprocess.run([CLI, "certify", "--target", "cpu", "--out", str(tmp_path / "cli"), "--sweep", args["sweep"],
                          "--jobs", "2", "--suite", args["suite"], "--quiet"], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    py_json, cli_json = certificate(tmp_path / "py"), certificate(tmp_path / "cli")
    builds = [c["identity"]["tool"]["build_sha256"] for c in (py_json, cli_json)]
    assert builds[0] != builds[1]  # the module (Python) and the executable (CLI) are the builds hashed
    for c in (py_json, cli_json):
        assert c.pop("generated_at")
        c["identity"]["tool"].pop("build_sha256")
    assert py_json == cli_json
    for name in ("certificate.md", "certificate.html"):
        with open(tmp_path / "py" / name) as f, open(tmp_path / "cli" / name) as g:
            assert strip_volatile_md(f.read().replace(builds[0], builds[1])) == strip_volatile_md(g.read()), name
    assert subprocess.run([CLI, "verify", str(tmp_path / "py")], capture_output=True).returncode == 0

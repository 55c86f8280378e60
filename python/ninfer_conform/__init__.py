"""ninfer-conform from Python: certify an implementation in process.

A target is any object (a module works) with some of these methods, each taking and returning
NumPy arrays of words (bit patterns, never floats):

    convert(recipe, words)          recipe "F32_TO_BF16_RNE", ...; words: uint32 binary32 bits;
                                    returns the destination words (uint8/uint16/uint32)
    decode(word_type, words)        word_type "BF16", "E4M3FN", ...; returns uint32 binary32 bits
                                    (or a pair (bits, valid) where a word can have no value)
    validate_word(format, component, words)  returns 0/1 per word
    reconstruct(format, code, scale, divisor)  divisor is None except for NVFP4; returns uint32 bits
                                    (or (bits, valid): valid 0 where a pair has no value)
    dequantize(format, shape, codes, scales, divisor)   returns uint32 bits, one per code
    validate_tensor(format, shape, codes, scales, divisor)   returns "valid" or (rule, where)
    encode(format, source_type, words)   words: uint64 [rows, K]; returns (scales, codes) or
                                    "nonfinite" / "scale-overflow"
    parse_format(name)              name: bytes; returns the registry name (str) or False
    layout_offsets(format, layout, rows, k, row, block)   uint64 arrays in; returns
                                    (offset, plane_bytes) or (offset, plane_bytes, valid)

The tensor ops take shape as a tuple of ints (the last is K), codes and scales as flat uint32
arrays of the planes' words, row-major (codes.reshape(shape) is a view), and divisor as NVFP4's
d_w bits (an int) or None; rule is a corpus rule name ("scale-negative", ...) and where the flat
index of the offending word in the plane the rule names, or None where it cannot say. A
matrix result is read row-major; codes are signed integers.

and optionally `name` and `version` attributes. A method returns None, or raises
ninfer_conform.Unsupported, for a selector it does not provide (those cases are untested); a
missing method is a capability not provided. Any other exception is a target error. The input
arrays are read-only views of the runner's buffers, valid only during the call; results may be
NumPy arrays or any CPU DLPack tensor (torch, JAX).

replay(), certify() and sweep() run the same code as the `ninfer-conform` executable and write
the same files; they return the report the executable writes with --json (certificate.json for
certify), as a Report.
"""
import json as _json
import os as _os
import tempfile as _tempfile
import types as _types

from . import _core

__all__ = ["Unsupported", "Report", "ConformanceError", "replay", "certify", "sweep", "assert_conformant",
           "run_cli", "default_corpus", "version", "target_spec"]

_here = _os.path.dirname(_os.path.abspath(__file__))
EXECUTABLE = _os.path.join(_here, "bin", "ninfer-conform")
_core.set_host_paths(EXECUTABLE, _os.path.abspath(_core.__file__))


class Unsupported(Exception):
    """Raised by a target method for a selector it does not provide (as returning None)."""


class ConformanceError(AssertionError):
    """assert_conformant's failure: the message gives the verdict, departure profiles and first cases."""


def version():
    return _core.version()


def default_corpus():
    """The official corpus shipped in this package."""
    return _core.default_corpus()


def target_spec(target):
    """The spec a target is known by in reports: a string spec (cpu, pipe:COMMAND, plugin:PATH.so)
    as given; a Python object as python:NAME (its module's name, or its type's qualified name)."""
    if isinstance(target, str):
        return target
    if isinstance(target, _types.ModuleType):
        return "python:" + target.__name__
    t = type(target)
    return "python:%s.%s" % (t.__module__, t.__qualname__)


def run_cli(args, target=None):
    """Runs one ninfer-conform command in this process (args as on the command line, command
    name first), with `target` (a Python object) reachable as --target python:NAME. Returns the
    exit code: 0 success/conformant, 1 not conformant, 2 usage or corpus error."""
    args = [str(a) for a in args]
    if target is None or isinstance(target, str):
        return _core.run(args, None, "", Unsupported)
    return _core.run(args, target, target_spec(target), Unsupported)


class Report(dict):
    """A report as the executable writes it with --json (a dict), with the exit code and helpers."""

    def __init__(self, data, exit_code, files=None):
        super().__init__(data)
        self.exit_code = exit_code
        self.files = files or {}

    @property
    def conformant(self):
        return bool(self.get("conformant"))

    @property
    def verdict(self):
        return self.get("verdict", "")

    def suite(self, name):
        for s in self.get("suites", []):
            if s.get("suite") == name:
                return s
        raise KeyError(name)

    def policies(self):
        """The policies any judged suite needed to pass (its qualified verdict)."""
        return sorted({p for s in self.get("suites", []) for p in s.get("policies", [])})


def _options(args, **opts):
    for key, value in opts.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(map(str, value))]
        else:
            args += [flag, str(value)]
    return args


def _failed(command, rc):
    raise RuntimeError("ninfer-conform %s failed with exit code %d (usage or corpus error; its message is on standard "
                       "error)" % (command, rc))


def replay(target, suite=None, tag=None, require=None, jobs=None, corpus=None, tolerance=None, tail_batch=None,
           max_failures=None, json=None, junit=None, timeout=None, quiet=True, verbose=False):
    """`ninfer-conform replay`: judges every case of the selected suites. Returns the --json report
    (written to `json` too when given). verbose prints the executable's summary on stdout."""
    with _tempfile.TemporaryDirectory(prefix="ninfer-conform-") as tmp:
        path = json or _os.path.join(tmp, "replay.json")
        args = _options(["replay", "--target", target_spec(target)], suite=suite, tag=tag, require=require,
                        jobs=jobs, corpus=corpus, tolerance=tolerance, tail_batch=tail_batch,
                        max_failures=max_failures, json=path, junit=junit, timeout=timeout, quiet=quiet)
        rc = _run_quietly(args, target, verbose)
        if rc not in (0, 1):
            _failed("replay", rc)
        with open(path) as f:
            return Report(_json.load(f), rc, {"json": path} if json else {})


def certify(target, out, sweep=None, stride=None, jobs=None, require=None, suite=None, corpus=None,
            max_failures=None, allow_modified_corpus=False, no_geometry=False, tail_batch=None, html=None,
            sweep_report=None, timeout=None, quiet=True, verbose=False):
    """`ninfer-conform certify`: writes certificate.json, .md, .html and .sha256 into `out`, the
    same files the executable writes; returns certificate.json as a Report."""
    args = _options(["certify", "--target", target_spec(target), "--out", str(out)], sweep=sweep, stride=stride,
                    jobs=jobs, require=require, suite=suite, corpus=corpus, max_failures=max_failures,
                    allow_modified_corpus=allow_modified_corpus, no_geometry=no_geometry, tail_batch=tail_batch,
                    html=html, sweep_report=sweep_report, timeout=timeout, quiet=quiet)
    rc = _run_quietly(args, target, verbose)
    if rc not in (0, 1):
        _failed("certify", rc)
    files = {name: _os.path.join(str(out), "certificate." + name) for name in ("json", "md", "html", "sha256")}
    with open(files["json"]) as f:
        return Report(_json.load(f), rc, files)


def sweep(target, domains, jobs=None, stride=None, shard=None, keep=None, no_geometry=False, json=None,
          vectors=None, timeout=None, verbose=False):
    """`ninfer-conform sweep`: every input of each domain ("convert.F32_TO_BF16_RNE", a family such
    as "convert", or "all"). Returns the list of sweep reports (as --json writes them); exit_code
    on each is the command's (0 clean, 1 mismatches)."""
    if isinstance(domains, str):
        domains = [domains]
    with _tempfile.TemporaryDirectory(prefix="ninfer-conform-") as tmp:
        path = json or _os.path.join(tmp, "sweep.json")
        args = _options(["sweep"] + list(domains) + ["--target", target_spec(target)], jobs=jobs, stride=stride,
                        shard=shard, keep=keep, no_geometry=no_geometry, json=path, vectors=vectors, timeout=timeout)
        rc = _run_quietly(args, target, verbose)
        if rc not in (0, 1):
            _failed("sweep", rc)
        with open(path) as f:
            data = _json.load(f)
    return [Report(d, rc) for d in (data if isinstance(data, list) else [data])]


def _run_quietly(args, target, verbose):
    """Runs the command; its standard output (the summary the executable prints) is dropped
    unless verbose. Standard error (errors, a target's exceptions) always shows."""
    if verbose:
        return run_cli(args, target)
    import sys
    sys.stdout.flush()
    saved = _os.dup(1)
    try:
        with open(_os.devnull, "w") as null:
            _os.dup2(null.fileno(), 1)
            return run_cli(args, target)
    finally:
        _os.dup2(saved, 1)
        _os.close(saved)


from ._assert import assert_conformant  # noqa: E402

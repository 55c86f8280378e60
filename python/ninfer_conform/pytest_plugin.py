"""The pytest plugin (entry point pytest11): `pytest --ninfer-conform=module:TARGET` adds one test
per suite of the corpus the target is replayed on; each fails with the suite's departure profile
and first failing cases. Options: --ninfer-conform-require (default all), --ninfer-conform-policies
(comma list of allowed policies, e.g. nan-payload), --ninfer-conform-jobs. A test file can also
call ninfer_conform.assert_conformant(target, require=..., policies=...) itself."""
import importlib

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("ninfer-conform", "conformance of a numeric-format implementation")
    group.addoption("--ninfer-conform", metavar="MODULE:TARGET", default=None,
                    help="replay the ninfer-conform corpus against TARGET (an object or module with convert/decode/... "
                         "methods) imported from MODULE; one test per suite")
    group.addoption("--ninfer-conform-require", metavar="LIST", default="all",
                    help="what the target must provide in full and pass (suite names, globs, capabilities; default all)")
    group.addoption("--ninfer-conform-policies", metavar="LIST", default="",
                    help="policies a suite may pass under (comma list, e.g. nan-payload); default none")
    group.addoption("--ninfer-conform-jobs", metavar="N", type=int, default=None, help="replay workers")


def load_target(text):
    """MODULE:ATTR (ATTR may be dotted) or MODULE alone (the module is the target)."""
    module, _, attr = text.partition(":")
    if not module:
        raise pytest.UsageError("--ninfer-conform takes MODULE:TARGET, not %r" % text)
    try:
        obj = importlib.import_module(module)
    except ImportError as e:
        raise pytest.UsageError("--ninfer-conform: cannot import %s: %s" % (module, e))
    for part in filter(None, attr.split(".")):
        if not hasattr(obj, part):
            raise pytest.UsageError("--ninfer-conform: %s has no attribute %s" % (module, attr))
        obj = getattr(obj, part)
    if isinstance(obj, type):
        obj = obj()  # a class: its instance is the target
    return obj


class ConformanceSuite(pytest.Item):
    def __init__(self, *, run, suite_name, **kwargs):
        super().__init__(**kwargs)
        self.run = run
        self.suite_name = suite_name

    def runtest(self):
        from ._assert import explain
        report = self.run.report()
        policies = self.run.policies
        if self.suite_name is None:  # the run as a whole: requirements unmet
            if report.get("scope", {}).get("unmet"):
                raise ConformanceSuiteFailure(explain(report, policies))
            return
        s = report.suite(self.suite_name)
        one = dict(report)
        one["suites"] = [s]
        counts = s.get("counts", {})
        if (counts.get("fail", 0) or counts.get("target-error", 0) or s.get("target_problem")
                or set(s.get("policies", [])) - set(policies)):
            one["verdict"] = "%s: not conformant%s" % (self.suite_name, "" if policies else " (no policy allowed)")
            raise ConformanceSuiteFailure(explain(_Report(one), policies))
        if counts.get("untested", 0) and self.run.requires(self.suite_name):
            raise ConformanceSuiteFailure("%s: required, but %d cases untested (the target does not provide them)"
                                          % (self.suite_name, counts["untested"]))
        if not any(v for k, v in counts.items() if k != "untested"):
            pytest.skip("%s: not provided by the target" % self.suite_name)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ConformanceSuiteFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, "ninfer-conform %s" % (self.suite_name or "requirements")


class ConformanceSuiteFailure(Exception):
    pass


class _Report(dict):
    @property
    def verdict(self):
        return self.get("verdict", "")


class _Run:
    """One replay of the target, shared by the suite tests."""

    def __init__(self, config):
        self.spec = config.getoption("ninfer_conform")
        self.require = config.getoption("ninfer_conform_require")
        self.policies = [p for p in config.getoption("ninfer_conform_policies").split(",") if p]
        self.jobs = config.getoption("ninfer_conform_jobs")
        self._report = None

    def requires(self, suite):
        import fnmatch
        from ._vocabulary import CAPABILITIES
        for e in self.require.split(","):
            if e == "all" or fnmatch.fnmatchcase(suite, e) or (e in CAPABILITIES and suite.startswith(e + ".")):
                return True
        return False

    def report(self):
        if self._report is None:
            from . import replay
            target = load_target(self.spec)
            from ._vocabulary import CAPABILITIES
            suite = None if self.require == "all" else ",".join(
                e + ".*" if e in CAPABILITIES else e for e in self.require.split(","))
            self._report = replay(target, suite=suite, require=self.require, jobs=self.jobs)
        return self._report


def pytest_collection_modifyitems(session, config, items):
    if not config.getoption("ninfer_conform"):
        return
    run = _Run(config)
    load_target(run.spec)  # a bad MODULE:TARGET is a usage error now, not a failing test
    names = _suite_names(run)
    for name in names + [None]:
        items.append(ConformanceSuite.from_parent(session, name="ninfer-conform[%s]" % (name or "requirements"),
                                                  run=run, suite_name=name))


def _suite_names(run):
    """The corpus suites the replay covers, from the shipped manifest (no replay at collection)."""
    import json
    import os
    from . import default_corpus
    with open(os.path.join(default_corpus(), "MANIFEST.json")) as f:
        manifest = json.load(f)
    entries = manifest["suites"] if isinstance(manifest, dict) else manifest
    names = [e["suite"] for e in entries]
    return [n for n in names if run.requires(n)]

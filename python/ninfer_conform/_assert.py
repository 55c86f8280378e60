"""assert_conformant: a replay judged as a test would, with a message a test log can use."""

FIRST_CASES = 5


def _case_line(c):
    line = "    %s  %s  expect %s  got %s" % (c.get("id", "?"), c.get("inputs", ""), c.get("expect", ""), c.get("actual", ""))
    if c.get("policy"):
        line += "  (policy %s)" % c["policy"]
    if c.get("departure"):
        line += "  [%s]" % ", ".join(c["departure"])
    if c.get("note"):
        line += "  (%s)" % c["note"]
    return line


def explain(report, policies=()):
    """The lines that say why `report` is not conformant under `policies`: the verdict, then per
    suite at fault its counts, departure profile, diagnosis and first cases."""
    allowed = set(policies or ())
    lines = [report.verdict]
    unmet = report.get("scope", {}).get("unmet", [])
    if unmet:
        lines.append("  required but not provided in full: %s" % ", ".join(unmet))
    for s in report.get("suites", []):
        counts = s.get("counts", {})
        failed = counts.get("fail", 0) + counts.get("target-error", 0)
        needed = sorted(set(s.get("policies", [])) - allowed)
        if not failed and not needed and not s.get("target_problem"):
            continue
        lines.append("  %s: %s" % (s["suite"], ", ".join("%s %d" % (k, v) for k, v in counts.items() if v)))
        if s.get("departure_profile"):
            lines.append("    departure profile: %s" % s["departure_profile"])
        if s.get("target_problem"):
            lines.append("    target problem: %s" % s["target_problem"])
        for d in s.get("diagnosis", [])[:3]:
            lines.append("    diagnosis: %s" % d)
        if failed:
            lines.append("    first failing cases:")
            lines += [_case_line(c) for c in s.get("failures", [])[:FIRST_CASES]]
        if needed:
            lines.append("    passes only under polic%s %s, not allowed here (policies=%s); first such cases:"
                         % ("y" if len(needed) == 1 else "ies", ", ".join(needed), sorted(allowed)))
            lines += [_case_line(c) for c in s.get("policy_passes", []) if c.get("policy") in needed][:FIRST_CASES]
    return "\n".join(lines)


def assert_conformant(target, require="all", policies=(), suite=None, **replay_options):
    """Replays the suites named by `require` (a suite name, glob, capability or comma list; "all")
    against `target` and raises ConformanceError unless every one is conformant and provided in
    full, passing at most under the listed policies (e.g. policies=["nan-payload"]). Returns the
    report. `suite` narrows the replay (default: what `require` names); other keywords go to
    replay()."""
    from . import ConformanceError, replay
    if isinstance(require, (list, tuple)):
        require = ",".join(require)
    if isinstance(policies, str):
        policies = [policies]
    if suite is None:
        suite = require if require != "all" else None
        # A capability ("convert") selects the suites of that op.
        if suite is not None:
            from ._vocabulary import CAPABILITIES
            suite = ",".join(e + ".*" if e in CAPABILITIES else e for e in suite.split(","))
    report = replay(target, suite=suite, require=require, **replay_options)
    allowed = set(policies or ())
    if not report.conformant or not set(report.policies()) <= allowed:
        raise ConformanceError(explain(report, policies))
    return report

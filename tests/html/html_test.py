#!/usr/bin/env python3
"""Tests of the HTML certificates (runners/html_certificate.h) and the matrix
(docs/certifications/index.html).

    html_test.py pages CLI SOURCE     every committed certificate.html is what `render` draws from its
                                      certificate.json, byte for byte, twice; index.html is current
    html_test.py browser CLI SOURCE   headless Chromium (scripts/install-deps) loads the pages of
                                      highway-sse4, openvino, onnxruntime (failing by a pattern),
                                      numpy (conformant under nan-any), a fresh certificate of our
                                      own codec (conformant) and the matrix: no console message (a
                                      CSP violation, an error), no request leaving the file, a
                                      screenshot of the window's size that is not blank, and the
                                      counts the maps draw equal to certificate.json's

A checker that cannot fail proves nothing: both modes first run their checks on planted bad pages
(an external image, a tampered count, a stale page) and require them to be caught.
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print("FAIL: " + msg)


def render(cli, cert_json, out):
    r = subprocess.run([cli, "render", cert_json, "--html", out], capture_output=True, text=True)
    if r.returncode:
        fail("render %s exited %d: %s" % (cert_json, r.returncode, r.stderr.strip()))
    with open(out, "rb") as f:
        return f.read()


def pages_mode(cli, source, tmp):
    certs = os.path.join(source, "docs", "certifications")
    impls = sorted(d for d in os.listdir(certs) if os.path.isfile(os.path.join(certs, d, "certificate.json")))
    if len(impls) < 3:
        fail("only %d certificates under %s" % (len(impls), certs))
    for impl in impls:
        cj = os.path.join(certs, impl, "certificate.json")
        a = render(cli, cj, os.path.join(tmp, impl + ".a.html"))
        b = render(cli, cj, os.path.join(tmp, impl + ".b.html"))
        if a != b:
            fail("%s: two renders of the same certificate.json differ" % impl)
        committed = os.path.join(certs, impl, "certificate.html")
        if not os.path.exists(committed):
            fail("%s: no certificate.html committed" % impl)
        elif open(committed, "rb").read() != a:
            fail("%s: the committed certificate.html is not what render draws from certificate.json "
                 "(ninfer-conform render %s --html %s)" % (impl, cj, committed))
    # A planted change of one count must change the page (the render reads the JSON, not a cache).
    with open(os.path.join(certs, impls[0], "certificate.json")) as f:
        cert = json.load(f)
    cert["capabilities"][0]["cases"] += 1
    planted = os.path.join(tmp, "planted.json")
    with open(planted, "w") as f:
        json.dump(cert, f)
    if render(cli, planted, os.path.join(tmp, "planted.html")) == open(os.path.join(certs, impls[0], "certificate.html"), "rb").read():
        fail("a certificate.json with a changed count renders the committed page unchanged")
    # Members the renderer does not know (another branch's departure profile, per-suite policy-pass
    # records) are shown as they are; a certificate without sweeps still renders.
    cert["departure_profile"] = {"nan-any": {"convert.F32_TO_F16_RNE": "signalling NaN kept <signalling>"}}
    cert["suites"][0]["policy_passes"] = [{"policy": "nan-any", "count": 12345}]
    cert.pop("sweeps", None)
    with open(planted, "w") as f:
        json.dump(cert, f)
    page = render(cli, planted, os.path.join(tmp, "unknown.html")).decode()
    for want in ("Departure profile", "signalling NaN kept &lt;signalling&gt;", "policy_passes", "12345"):
        if want not in page:
            fail("a certificate with unknown members: %r is not on its page" % want)
    # index.html: current, and --check catches a stale one.
    index = os.path.join(source, "targets", "thirdparty", "index.py")
    r = subprocess.run([sys.executable, index, "--certs", certs, "--check"], capture_output=True, text=True)
    if r.returncode:
        fail("index.py --check: " + r.stdout.strip() + r.stderr.strip())
    stale = os.path.join(tmp, "stale")
    os.mkdir(stale)
    for impl in impls[:2]:
        os.mkdir(os.path.join(stale, impl))
        shutil.copy(os.path.join(certs, impl, "certificate.json"), os.path.join(stale, impl))
    subprocess.run([sys.executable, index, "--certs", stale, "--write"], check=True)
    shutil.rmtree(os.path.join(stale, impls[1]))
    if subprocess.run([sys.executable, index, "--certs", stale, "--check"], capture_output=True).returncode != 1:
        fail("index.py --check passed an index.html that lists a certificate no longer there")
    print("pages: %d certificates render byte-identically to their committed pages" % len(impls))


# ---- browser mode ----

class Dom(html.parser.HTMLParser):
    """What the loaded page holds: per map <svg> the summed counts of its rectangles; every
    attribute that would fetch something; the matrix rows."""

    def __init__(self):
        super().__init__()
        self.maps, self.fetching, self.matrix_rows, self.svg = {}, [], 0, None
        self.histograms = {}
        self.hist = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "srcset", "data", "poster", "background"):
            if k in a:
                self.fetching.append("%s %s=%s" % (tag, k, a[k]))
        if tag in ("script", "link", "iframe", "object", "embed", "base") or (tag == "image" and "href" in a):
            self.fetching.append(tag)
        if "style" in a and "url(" in a["style"]:
            self.fetching.append("style url()")
        if tag == "svg" and "map" in a.get("class", "").split():
            self.svg = a.get("id", "")
            self.maps[self.svg] = {"judged": 0, "mismatches": 0, "accepted": 0, "cells": 0}
        if tag == "svg" and "histogram" in a.get("class", "").split():
            self.hist = a.get("id", "")
            self.histograms[self.hist] = 0
        if tag == "rect" and self.svg is not None and "data-cells" in a:
            n = int(a["data-cells"])
            m = self.maps[self.svg]
            m["cells"] += n
            for k in ("judged", "mismatches", "accepted"):
                m[k] += n * int(a["data-" + k])
        if tag == "rect" and self.hist is not None and "data-count" in a:
            self.histograms[self.hist] += int(a["data-count"])
        if tag == "tr" and self.in_matrix_body:
            self.matrix_rows += 1
        if tag == "table" and a.get("id") == "matrix":
            self.in_matrix = True
        if tag == "tbody" and getattr(self, "in_matrix", False):
            self.in_matrix_body = True

    in_matrix_body = False

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = self.hist = None
        if tag == "tbody":
            self.in_matrix_body = False

    def handle_data(self, data):
        if "@import" in data or "url(" in data:
            self.fetching.append("CSS that fetches: " + data.strip()[:80])


def png_pixels(data):
    """(width, height, rows of RGB(A) bytes) of a PNG, 8-bit RGB or RGBA, non-interlaced."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError("PNG of depth %d colour type %d interlace %d" % (depth, colour, interlace))
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                  "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-default-apps", "--hide-scrollbars", "--enable-logging=stderr", "--v=0"]
WIDTH, HEIGHT = 1200, 1600


def chromium(browser, tmp, args, url):
    profile = tempfile.mkdtemp(dir=tmp)  # a fresh profile each time: nothing cached between pages
    r = subprocess.run([browser] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile] + args + [url],
                       capture_output=True, text=True, timeout=120)
    # Console messages of the page (a CSP violation, an error) are logged as CONSOLE lines.
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    return r, console


def check_page(browser, tmp, page, cert, name):
    """Problems of one page: console messages, fetching elements, screenshot, pictured counts."""
    problems = []
    url = "file://" + os.path.abspath(page)
    r, console = chromium(browser, tmp, ["--dump-dom"], url)
    if r.returncode:
        problems.append("chromium --dump-dom exited %d" % r.returncode)
    problems += ["console: " + l.split("CONSOLE", 1)[1][:200] for l in console]
    dom = Dom()
    dom.feed(r.stdout)
    problems += ["would fetch: " + f for f in dom.fetching]
    if "Content-Security-Policy" not in r.stdout:
        problems.append("no Content-Security-Policy in the loaded page")
    shot = os.path.join(tmp, name + ".png")
    r2, console2 = chromium(browser, tmp, ["--screenshot=" + shot, "--window-size=%d,%d" % (WIDTH, HEIGHT)], url)
    problems += ["console (screenshot): " + l.split("CONSOLE", 1)[1][:200] for l in console2]
    if not os.path.exists(shot):
        problems.append("no screenshot (chromium exited %d)" % r2.returncode)
    else:
        w, h, bpp, rows = png_pixels(open(shot, "rb").read())
        if (w, h) != (WIDTH, HEIGHT):
            problems.append("screenshot is %dx%d, not %dx%d" % (w, h, WIDTH, HEIGHT))
        colours = {}
        for row in rows[::4]:
            for x in range(0, len(row), bpp * 4):
                px = row[x:x + 3]
                colours[px] = colours.get(px, 0) + 1
        sampled = sum(colours.values())
        background = max(colours.values())
        # Not blank: text, tables and verdict colours cover some of the window.
        if len(colours) < 8 or sampled - background < sampled // 50:
            problems.append("screenshot is blank (%d colours, %d of %d sampled pixels off the background)" % (
                len(colours), sampled - background, sampled))
    if cert is not None:
        for s in cert.get("sweeps", []):
            if "cells" not in s or not s.get("provided", True):
                continue
            got = dom.maps.get("sweep-%s-map" % s["domain"])
            want = {"judged": s["covered"], "mismatches": s["mismatches"], "accepted": sum(s["accepted"].values()),
                    "cells": s["cells"]["columns"] * s["cells"]["rows"]}
            if got != want:
                problems.append("%s: the map draws %s, certificate.json says %s" % (s["domain"], got, want))
        for s in cert.get("suites", []):
            if s.get("ulp_errors"):
                got = dom.histograms.get("ulp-" + s["suite"])
                if got != sum(s["ulp_errors"].values()):
                    problems.append("%s: the histogram draws %s cases, certificate.json %d" % (
                        s["suite"], got, sum(s["ulp_errors"].values())))
    return problems, dom


def browser_mode(cli, source, tmp):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        fail("no chromium on PATH: scripts/install-deps installs Debian's chromium")
        return
    certs = os.path.join(source, "docs", "certifications")

    # Planted bad pages first: the checker must see an external request, a tampered count.
    bad = os.path.join(tmp, "bad.html")
    good_page = os.path.join(certs, "onnxruntime", "certificate.html")
    text = open(good_page).read()
    with open(bad, "w") as f:
        f.write(text.replace("<body>", "<body><img src=\"http://example.invalid/x.png\">", 1))
    problems, _ = check_page(browser, tmp, bad, None, "bad")
    if not any(p.startswith("console") for p in problems) or not any("would fetch" in p for p in problems):
        fail("a page with an external image passed the browser check: %s" % problems)
    with open(os.path.join(certs, "onnxruntime", "certificate.json")) as f:
        onnx = json.load(f)
    tampered = os.path.join(tmp, "tampered.html")
    marker = "data-mismatches=\"0\""
    with open(tampered, "w") as f:
        f.write(text.replace(marker, "data-mismatches=\"1\"", 1))
    if marker in text:
        problems, _ = check_page(browser, tmp, tampered, onnx, "tampered")
        if not any("the map draws" in p for p in problems):
            fail("a page whose map draws a count the JSON lacks passed: %s" % problems)
    else:
        fail("onnxruntime's page has no map cell to tamper with (no pictures?)")

    # Our own codec: a conformant certificate, made now.
    own = os.path.join(tmp, "cpu")
    r = subprocess.run([cli, "certify", "--target", "cpu", "--out", own, "--sweep", "decode.E4M3FN,decode.F16,decode.E2M1",
                        "--jobs", "2", "--max-failures", "100"], capture_output=True, text=True)
    if r.returncode != 0:
        fail("certify --target cpu exited %d (not conformant?): %s" % (r.returncode, r.stdout[-300:] + r.stderr[-300:]))
    pages = [("cpu (conformant)", os.path.join(own, "certificate.html"), os.path.join(own, "certificate.json"))]
    for impl, why in (("numpy", "conformant under nan-any"), ("highway-sse4", "failing: BF16 truncation"),
                      ("openvino", "failing: bf16 sticky bits, f8e4m3 band"), ("onnxruntime", "failing: [480, 496)")):
        pages.append(("%s (%s)" % (impl, why), os.path.join(certs, impl, "certificate.html"),
                      os.path.join(certs, impl, "certificate.json")))
    for name, page, cj in pages:
        with open(cj) as f:
            cert = json.load(f)
        problems, dom = check_page(browser, tmp, page, cert, name.split()[0])
        for p in problems:
            fail("%s: %s" % (name, p))
        pictured = sum(1 for s in cert.get("sweeps", []) if "cells" in s and s.get("provided", True))
        print("%s: loaded; %d maps checked against certificate.json%s" % (
            name, pictured, "" if pictured else " (this certificate.json has no cells: no pictures)"))
    index = os.path.join(certs, "index.html")
    problems, dom = check_page(browser, tmp, index, None, "index")
    for p in problems:
        fail("index.html: " + p)
    impls = [d for d in os.listdir(certs) if os.path.isfile(os.path.join(certs, d, "certificate.json"))]
    if dom.matrix_rows != len(impls):
        fail("index.html: the matrix has %d rows, there are %d certificates" % (dom.matrix_rows, len(impls)))
    print("index.html: loaded; %d rows" % dom.matrix_rows)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("pages", "browser"):
        sys.exit(__doc__)
    mode, cli, source = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        (pages_mode if mode == "pages" else browser_mode)(cli, source, tmp)
    if FAILURES:
        print("%d failures" % len(FAILURES))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

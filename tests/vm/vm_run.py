#!/usr/bin/env python3
"""Host side of the VM display test: boots the guest under qemu-system-x86_64, captures each frame
with the QEMU monitor's screendump while the guest holds it, and compares the capture with the
conformance references (tests/ref/<scene>.png).

Protocol (serial port, a QEMU socket chardev): the guest prints
    EGVM_FRAME <tag> <w>x<h> <panel format> bg=RRGGBB name@x,y ...
after wgpuSurfacePresent and waits for a line; the host screendumps, answers "go", and judges:
  - each scene's 64x64 square at (x, y) must equal its reference exactly: soft renders the same
    bytes on every board (tests/unit/scenes_hash_test.c), and the path to the screen adds no
    rounding for XRGB8888. For RGB565 screens the reference is first quantised to 5:6:5 with
    round-to-nearest (what emgpu's Present and the guest's packing do) and expanded back to 8
    bits by bit replication (what QEMU's pixman conversion does for screendump);
  - every other pixel of the configured w x h area must be the frame's clear color (so a frame
    that was not presented, or presented to the wrong buffer, fails).
The third frame of each run, "demo", is the `make demo` dashboard at 800x480: one tile,
demo_dashboard@0,0, judged the same way against tests/ref/demo_dashboard.png (how that reference
was checked: docs/displays.md, "The dashboard reference").
The GLES-through-GBM cases (helper gbm: "bochs-gbm", "cirrus-gbm") render on llvmpipe, not soft:
their tiles carry the scene's GPU tolerance, name@x,y~TOL/PERMILLE (tests/scenes/scene_list.c), and
a tile matches when at most PERMILLE per mille of its pixels differ by more than TOL in a channel
(on RGB565 screens TOL grows by 9, one 5-bit step after expansion, where TOL is not 0). They boot
the second initramfs (--initrd-gles: the dynamic program with Mesa and LLVM) with more memory.
The guest's own closing line ("N passed, N failed") is added to the totals. Prints one line
per check and a closing "N passed, N failed".

usage: vm_run.py --kernel K --initrd I [--initrd-gles I2] --ref DIR --out DIR [--jobs N] [--timeout S]
                 [--skip CASE]... CASE...
"""
import argparse
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib

# name: (QEMU display arguments, kernel arguments)
CASES = {
    # Built-in vesafb, no modules: 1024x768 XRGB8888 (mode 0x344) and RGB565 (mode 0x317).
    "fb-xrgb8888": ("-vga std", "vga=0x344 egvm.mods=none egvm.run=fb:/dev/fb0"),
    "fb-rgb565": ("-vga std", "vga=0x317 egvm.mods=none egvm.run=fb:/dev/fb0"),
    # bochs-drm: its fbdev emulation first (deferred I/O), then KMS dumb buffers on the same card.
    "bochs": ("-vga std", "egvm.mods=bochs egvm.run=fb:/dev/fb0,drm:/dev/dri/card0:xrgb8888"),
    # cirrus-drm scans out RGB565 (bochs and virtio-gpu only 32-bit formats); then XRGB8888 in
    # a mode that is not the preferred one (800x600; a 1234x567 request must be refused first).
    "cirrus": ("-vga cirrus", "egvm.mods=cirrus egvm.run=drm:/dev/dri/card0:rgb565,"
               "drm:/dev/dri/card0:xrgb8888:800x600"),
    # cirrusfb (the old fbdev driver, no DRM) pans in hardware (CRTC start address): 640x480
    # RGB565 with the virtual height doubled by the program (FBIOPUT_VSCREENINFO), so emgpu
    # double-buffers by panning; the first frame is drawn into the lower screen.
    "cirrusfb-pan": ("-vga cirrus", "egvm.mods=cirrusfb egvm.modopt=cirrusfb.ko:mode_option=640x480-16@60 "
                     "egvm.run=fb:/dev/fb0:tall"),
    # Opt-in (not in DEFAULT): DRM fbdev emulation with a virtual screen twice the height. Both
    # fail on Debian's 6.1 kernel: the pans succeed, but what is drawn in the lower screen never
    # reaches the display (the capture shows an empty screen; the upper screen's frame matches).
    # Our reading: the emulation's deferred I/O limits its damage rectangle to yres.
    "bochs-pan": ("-vga std", "egvm.mods=bochs egvm.modopt=drm_kms_helper.ko:drm_fbdev_overalloc=200 "
                  "egvm.run=fb:/dev/fb0"),
    "virtio-pan": ("-vga none -device virtio-gpu-pci", "egvm.mods=virtio "
                   "egvm.modopt=drm_kms_helper.ko:drm_fbdev_overalloc=200 egvm.run=fb:/dev/fb0"),
}

# Cases whose screen is smaller than the 800x480 dashboard: two frames per run, not three.
NO_DEMO = {"cirrusfb-pan"}

# helper gbm: GLES (llvmpipe) presenting natively through GBM + EGL on the KMS card: bochs-drm
# scans out XRGB8888, cirrus-drm RGB565. They boot the GLES initramfs with this much memory (MiB):
# it holds Mesa and LLVM (~205 MB), unpacked once more into the guest's rootfs.
CASES["bochs-gbm"] = ("-vga std", "egvm.mods=bochs egvm.run=gbm:/dev/dri/card0:xrgb8888")
CASES["cirrus-gbm"] = ("-vga cirrus", "egvm.mods=cirrus egvm.run=gbm:/dev/dri/card0:rgb565")
GLES_MEM_MIB = {"bochs-gbm": 1024, "cirrus-gbm": 1024}

DEFAULT = ["fb-xrgb8888", "fb-rgb565", "bochs", "cirrus", "cirrusfb-pan", "bochs-gbm", "cirrus-gbm"]

print_lock = threading.Lock()


def say(*a):
    with print_lock:
        print(*a, flush=True)


def read_png_rgb(path):
    """8-bit RGB/RGBA non-interlaced PNG -> (w, h, bytes RGB)."""
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", path
    i, idat, w = 8, b"", 0
    while i < len(d):
        n, t = struct.unpack(">I4s", d[i:i + 8])
        body = d[i + 8:i + 8 + n]
        if t == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (path, depth, ctype)
            bpp = 4 if ctype == 6 else 3
        elif t == b"IDAT":
            idat += body
        i += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    rgb = bytearray(w * h * 3)
    for p in range(w * h):
        rgb[3 * p:3 * p + 3] = out[bpp * p:bpp * p + 3]
    return w, h, bytes(rgb)


def read_ppm(path):
    d = open(path, "rb").read()
    tok, i = [], 0
    while len(tok) < 4:
        while d[i:i + 1].isspace(): i += 1
        if d[i:i + 1] == b"#":
            while d[i:i + 1] != b"\n": i += 1
            continue
        j = i
        while not d[j:j + 1].isspace(): j += 1
        tok.append(d[i:j]); i = j
    assert tok[0] == b"P6" and tok[3] == b"255", tok
    w, h = int(tok[1]), int(tok[2])
    return w, h, d[i + 1:i + 1 + w * h * 3]


def q565(rgb):
    """Round to nearest 5:6:5, expand by bit replication (pixman's 565 -> 888)."""
    out = bytearray(len(rgb))
    for i in range(0, len(rgb), 3):
        r, g, b = (rgb[i] * 31 + 127) // 255, (rgb[i + 1] * 63 + 127) // 255, (rgb[i + 2] * 31 + 127) // 255
        out[i], out[i + 1], out[i + 2] = r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2
    return bytes(out)


_refs, _refs_lock = {}, threading.Lock()


def reference(ref_dir, name, rgb565):
    """tests/ref/<name>.png as RGB (quantised as an RGB565 screen shows it), decoded once per run:
    the 800x480 dashboard is compared up to six times and pure-Python decoding takes ~0.6 s."""
    key = (name, rgb565)
    with _refs_lock:
        if key not in _refs:
            w, h, rgb = read_png_rgb(os.path.join(ref_dir, name + ".png"))
            _refs[key] = (w, h, q565(rgb) if rgb565 else rgb)
        return _refs[key]


class Case:
    def __init__(self, name, args):
        self.name, self.args = name, args
        self.passed, self.failed, self.lines = 0, 0, []
        self.frames, self.runs = 0, []

    def check(self, ok, what):
        if ok: self.passed += 1
        else: self.failed += 1
        self.lines.append(("ok   " if ok else "FAIL ") + self.name + ": " + what)

    def judge(self, shot, frame_line):
        m = re.match(r"EGVM_FRAME (\S+) (\d+)x(\d+) (\S+) bg=([0-9a-f]{6})(.*)", frame_line)
        if not m:
            self.check(False, "unreadable frame line: " + frame_line); return
        tag, cw, ch, fmt, bg = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), bytes.fromhex(m.group(5))
        where = "%s/%s (%dx%d %s)" % (self.runs[-1] if self.runs else "?", tag, cw, ch, fmt)
        try:
            sw, sh, px = read_ppm(shot)
        except Exception as e:  # a missing or short capture
            self.check(False, "%s: no screendump (%s)" % (where, e)); return
        if sw < cw or sh < ch:
            self.check(False, "%s: screen %dx%d is smaller than the frame" % (where, sw, sh)); return
        tiles, rest = [], None
        for t in m.group(6).split():
            if t.startswith("rest="):   # the screen outside the configured area must be this color
                rest = bytes.fromhex(t[5:]); continue
            name, xy = t.split("@")
            tol, permille = 0, 0
            if "~" in xy:   # a GPU-rendered tile: name@x,y~TOL/PERMILLE
                xy, tp = xy.split("~")
                tol, permille = (int(v) for v in tp.split("/"))
                if tol and fmt.endswith("565"): tol += 9
            x, y = (int(v) for v in xy.split(","))
            rw, rh, ref = reference(self.args.ref, name, fmt.endswith("565"))
            bad, first, maxd, beyond = 0, None, 0, 0
            for j in range(rh):
                got = px[((y + j) * sw + x) * 3:((y + j) * sw + x + rw) * 3]
                want = ref[j * rw * 3:(j + 1) * rw * 3]
                if got != want:
                    for i in range(rw):
                        g, w_ = got[3 * i:3 * i + 3], want[3 * i:3 * i + 3]
                        if g != w_:
                            bad += 1
                            d = max(abs(a - b) for a, b in zip(g, w_))
                            maxd = max(maxd, d)
                            if d > tol:
                                beyond += 1
                                if first is None: first = (i, j, tuple(g), tuple(w_))
            tiles.append((x, y, rw, rh))
            ok = beyond * 1000 <= permille * rw * rh if tol or permille else bad == 0
            detail = ""
            if tol or permille:
                detail = " (GPU tolerance %d/255, %d per mille: %d pixel(s) differ, max %d/255, %d beyond)" % (
                    tol, permille, bad, maxd, beyond)
            if not ok and first:
                detail += ": first beyond at %r got %r want %r" % (first[:2], first[2], first[3])
            elif not ok:
                detail += ": %d pixel(s) differ, max %d/255" % (bad, maxd)
            self.check(ok, "%s: scene %s at %d,%d%s" % (where, name, x, y, detail))
        # Background: the configured area minus the tiles, compared row by row.
        bad_rows = 0
        for yy in range(ch):
            row = px[yy * sw * 3:(yy * sw + cw) * 3]
            spans, x0 = [], 0
            for (x, y, rw, rh) in sorted(tiles):
                if y <= yy < y + rh:
                    spans.append((x0, x)); x0 = x + rw
            spans.append((x0, cw))
            if any(row[a * 3:b * 3] != bg * (b - a) for a, b in spans if b > a): bad_rows += 1
        self.check(bad_rows == 0, "%s: clear color #%s around the scenes%s" % (where, bg.hex(),
                   "" if bad_rows == 0 else ": %d row(s) differ" % bad_rows))
        if rest is not None:   # (helper gbm) right of and below the configured area
            bad_rows = sum(1 for yy in range(sh) if px[(yy * sw + (cw if yy < ch else 0)) * 3:(yy + 1) * sw * 3] !=
                           rest * (sw - (cw if yy < ch else 0)))
            self.check(bad_rows == 0, "%s: #%s outside the %dx%d frame%s" % (where, rest.hex(), cw, ch,
                       "" if bad_rows == 0 else ": %d row(s) differ" % bad_rows))

    def run(self):
        disp, append = CASES[self.name]
        a, out = self.args, self.args.out
        ser, mon = os.path.join(out, self.name + ".ser"), os.path.join(out, self.name + ".mon")
        for p in (ser, mon):
            if os.path.exists(p): os.unlink(p)
        log = open(os.path.join(out, self.name + ".log"), "w")
        t0 = time.time()
        gles = self.name in GLES_MEM_MIB
        if gles and not a.initrd_gles:
            self.check(False, "no GLES initramfs (--initrd-gles) for this case"); return
        cmd = ["qemu-system-x86_64", "-m", str(GLES_MEM_MIB.get(self.name, 256)), "-smp", "1", "-accel", "tcg",
               "-no-reboot", "-kernel", a.kernel, "-initrd", a.initrd_gles if gles else a.initrd, "-display", "none",
               "-append", "console=ttyS0 quiet panic=-1 " + append,
               "-chardev", "socket,id=ser,path=%s,server=on,wait=on" % ser, "-serial", "chardev:ser",
               "-monitor", "unix:%s,server=on,wait=off" % mon] + disp.split()
        q = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        s = connect(ser, q)
        m = connect(mon, q) if s else None
        if not s or not m:
            self.check(False, "QEMU did not start (see %s.log)" % self.name); q.kill(); q.wait(); return
        hmp(m, None)
        buf, done, shot_n, guest = b"", False, 0, None
        s.settimeout(1.0)
        limit = a.timeout * (4 if gles else 1)   # llvmpipe under TCG: shaders compile slowly
        while not done and time.time() - t0 < limit:
            try:
                d = s.recv(4096)
            except socket.timeout:
                if q.poll() is not None: break
                continue
            if not d: break
            buf += d
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                line = line.decode("latin-1").rstrip("\r")
                log.write(line + "\n"); log.flush()
                k = line.find("EGVM_")
                if k >= 0: line = line[k:]
                if line.startswith("EGVM_RUN "):
                    self.runs.append(line.split()[1])
                elif line.startswith("EGVM_FRAME "):
                    shot_n += 1
                    shot = os.path.abspath(os.path.join(out, "%s-%d.ppm" % (self.name, shot_n)))
                    if os.path.exists(shot): os.unlink(shot)
                    hmp(m, "screendump " + shot)
                    s.sendall(b"go\n")
                    self.frames += 1
                    self.judge(shot, line)
                elif line.startswith("EGVM_EXIT "):
                    self.check(line.endswith("rc=0"), "guest program %s exited: %s" % (self.runs[-1], line.split()[-1]))
                elif line.startswith("EGVM_ALL_DONE"):
                    done = True
                mm = re.match(r"^(\d+) passed, (\d+) failed", line)
                if mm:
                    self.check(int(mm.group(2)) == 0, "guest checks of %s: %s" % (self.runs[-1] if self.runs else "?", line))
        # GBM runs add a fourth frame: soft through the dumb buffers after GLES gave the CRTC back
        want = (2 if self.name in NO_DEMO else 4 if gles else 3) * len(append.split("egvm.run=")[1].split(","))
        self.check(done and self.frames == want, "%d of %d frames shown, guest %s" % (
            self.frames, want, "finished" if done else "did not finish in %ds" % limit))
        s.close(); m.close()
        try: q.wait(timeout=10)
        except subprocess.TimeoutExpired: q.kill(); q.wait()
        self.seconds = time.time() - t0


def connect(path, q):
    for _ in range(200):
        if q.poll() is not None: return None
        try:
            c = socket.socket(socket.AF_UNIX)
            c.connect(path)
            return c
        except OSError:
            time.sleep(0.05)
    return None


def hmp(m, command):
    """Sends one HMP command (None: just the banner) and reads up to the next prompt."""
    if command: m.sendall((command + "\n").encode())
    buf = b""
    m.settimeout(30)
    while b"(qemu)" not in buf:
        d = m.recv(4096)
        if not d: break
        buf += d
    return buf


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--initrd-gles", default=None)
    ap.add_argument("--skip", action="append", default=[], help="a case left out, reported as skipped")
    ap.add_argument("--ref", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=100)
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    cases = [Case(n, a) for n in (a.cases or DEFAULT) if n not in a.skip]
    pending = list(cases)
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not pending: return
                c = pending.pop(0)
            c.run()
            say("\n".join(c.lines))
            say("  %s: %.1f s" % (c.name, getattr(c, "seconds", 0.0)))

    threads = [threading.Thread(target=worker) for _ in range(max(1, min(a.jobs, len(cases))))]
    for t in threads: t.start()
    for t in threads: t.join()
    p = sum(c.passed for c in cases)
    f = sum(c.failed for c in cases)
    skipped = [n for n in (a.cases or DEFAULT) if n in a.skip]
    for n in skipped: print("SKIP %s (see the line above from vm_display_test.sh)" % n)
    print("%d passed, %d failed%s" % (p, f, ", %d skipped" % len(skipped) if skipped else ""))
    return 1 if f else 0


if __name__ == "__main__":
    sys.exit(main())

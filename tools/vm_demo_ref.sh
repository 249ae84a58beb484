#!/bin/sh
# Checks (and with --write, regenerates) tests/ref/demo_dashboard.png, the reference the VM display
# test compares the dashboard's screendumps with: the `make demo` dashboard at frame 75 rendered by
# soft, Vulkan (lavapipe) and GLES (llvmpipe) through tests/vm/vm_demo_ref, compared per channel.
# Tolerances (those of tests/scenes/scene_list.c): the 2D layer (SDF panels and gauges, blended
# quads, nearest-sampled glyphs) INTERP: 4/255, at most 2% of pixels above; the torus' 3D view
# EDGES: 24/255, 6%. The committed reference must also equal the soft picture exactly.
# Ends with "N passed, N failed"; a backend whose driver is missing is skipped by name.
#
# usage: tools/vm_demo_ref.sh [BUILD_DIR [--write]]     BUILD_DIR: a BOARD=host build (build/host)
set -eu
B=${1:-build/host}
WRITE=${2:-}
FRAME=75   # DEMO_VM_FRAME in tests/vm/vm_display_test.c
W=$B/vm/demo_ref
mkdir -p "$W"
make --no-print-directory -j2 -f Makefile -f tests/vm/vm.mk O="$B" BOARD=host "$B/tests/vm_demo_ref" \
    >"$W/build.log" 2>&1 || { cat "$W/build.log"; echo "0 passed, 1 failed"; exit 1; }
for b in soft vulkan gles; do
    EMGPU_TEST_BACKEND=$b "$B/tests/vm_demo_ref" "$W/$b.ppm" $FRAME >"$W/$b.log" 2>&1 || true
    cat "$W/$b.log"
done
exec python3 - "$W" tests/ref/demo_dashboard.png "$WRITE" <<'PY'
import os, struct, sys, zlib
sys.path.insert(0, "tests/vm")
from vm_run import read_png_rgb, read_ppm
w_dir, ref_path, write = sys.argv[1], sys.argv[2], sys.argv[3] == "--write"
passed = failed = skipped = 0
def check(ok, what):
    global passed, failed
    if ok: passed += 1
    else: failed += 1
    print(("ok   " if ok else "FAIL ") + what)
def ran(b):
    log = open(os.path.join(w_dir, b + ".log")).read()
    return "written" in log, log
ok, log = ran("soft")
if not ok:
    check(False, "soft did not render the dashboard"); print("%d passed, %d failed" % (passed, failed)); sys.exit(1)
view = [int(v) for v in log.split("view ")[1].split()[:4]]
sw, sh, soft = read_ppm(os.path.join(w_dir, "soft.ppm"))
if write:
    raw = b"".join(b"\0" + soft[y * sw * 3:(y + 1) * sw * 3] for y in range(sh))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", sw, sh, 8, 2, 0, 0, 0)) + \
          chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(ref_path, "wb").write(png)
    print("wrote " + ref_path)
rw, rh, ref = read_png_rgb(ref_path)
check((rw, rh) == (sw, sh) and ref == soft, "soft equals %s byte for byte" % ref_path)
vx, vy, vw, vh = view
for b in ("vulkan", "gles"):
    ok, log = ran(b)
    if not ok:
        if "SKIP" in log: skipped += 1; print("SKIP %s: driver missing" % b)
        else: check(False, "%s did not render the dashboard" % b)
        continue
    _, _, px = read_ppm(os.path.join(w_dir, b + ".ppm"))
    stats = {"2D layer": [0, 0, 0], "3D view": [0, 0, 0]}   # pixels, max diff, pixels over tolerance
    tol = {"2D layer": (4, 2.0), "3D view": (24, 6.0)}
    for y in range(sh):
        for x in range(sw):
            i = (y * sw + x) * 3
            d = max(abs(px[i] - ref[i]), abs(px[i + 1] - ref[i + 1]), abs(px[i + 2] - ref[i + 2]))
            k = "3D view" if vx <= x < vx + vw and vy <= y < vy + vh else "2D layer"
            s = stats[k]
            s[0] += 1; s[1] = max(s[1], d); s[2] += d > tol[k][0]
    for k, (n, mx, over) in stats.items():
        t, pct = tol[k]
        check(100.0 * over / n <= pct, "%s vs soft, %s: max %d/255, %.3f%% of %d pixels above %d/255 (allowed %.1f%%)" %
              (b, k, mx, 100.0 * over / n, n, t, pct))
print("%d passed, %d failed%s" % (passed, failed, ", %d skipped" % skipped if skipped else ""))
sys.exit(1 if failed else 0)
PY

#!/bin/sh
# fbdev and DRM/KMS surfaces on a real Linux kernel (issue #7): boots Debian's kernel under
# qemu-system-x86_64 with a busybox initramfs, runs tests/vm/vm_display_test (static, soft
# backend) on vesafb (XRGB8888, RGB565), bochs-drm (fbdev emulation + KMS dumb buffers) and
# cirrus-drm (KMS RGB565), and compares QEMU screendumps with tests/ref (tests/vm/vm_run.py):
# conformance scenes and the `make demo` dashboard (tests/ref/demo_dashboard.png). The *-gbm cases
# (helper gbm) run the GLES backend on llvmpipe presenting through GBM + EGL on the same two KMS
# drivers, from a second initramfs that holds Mesa (skipped by name when the host lacks Mesa).
# Ends with "N passed, N failed".
#
# usage: tools/vm_display_test.sh [BUILD_DIR [CASE...]]   BUILD_DIR: a BOARD=host build (build/host)
# Packages (tools/deps host): qemu-system-x86 busybox-static kmod cpio libdrm-dev python3, and for
# the *-gbm cases libegl-mesa0 libgbm1 libgles2 libgl1-mesa-dri (Mesa's EGL, GBM, GLES, DRI). The
# kernel is the linux-image package that linux-image-amd64 depends on, fetched with
# `apt-get download` and unpacked (never installed) into BUILD_DIR/vm/kernel on the first run.
set -eu
B=${1:-build/host}
[ $# -gt 0 ] && shift
W=$B/vm
mkdir -p "$W"
fail() { echo "vm_display_test: $*"; echo "0 passed, 1 failed"; exit 1; }
for t in qemu-system-x86_64 busybox cpio depmod modprobe python3; do
    command -v $t >/dev/null 2>&1 || [ -x /bin/$t ] || fail "$t is missing (run: sh tools/deps host)"
done

# 1. The guest program, linked statically from the host board's objects.
make --no-print-directory -j"$(nproc)" -f Makefile -f tests/vm/vm.mk O="$B" BOARD=host \
    "$B/tests/vm_display_test" "$B/tests/vm_display_test_dyn" >"$W/build.log" 2>&1 ||
    { cat "$W/build.log"; fail "build failed"; }

# 2. The kernel, unpacked once: vmlinuz, the DRM and virtio modules are all the guest needs.
K=$W/kernel
if [ ! -f "$K/ok-3" ]; then
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
    [ -n "$pkg" ] || fail "apt-cache knows no linux-image-amd64 (apt-get update?)"
    rm -rf "$K"; mkdir -p "$K"
    (cd "$K" && apt-get download -q "$pkg" >/dev/null 2>&1) || fail "apt-get download $pkg failed"
    dpkg-deb --fsys-tarfile "$K"/"$pkg"_*.deb | tar -x -C "$K" --wildcards './boot/vmlinuz-*' \
        './lib/modules/*/kernel/drivers/gpu/drm/*' './lib/modules/*/kernel/drivers/virtio/*' \
        './lib/modules/*/kernel/drivers/video/fbdev/cirrusfb.ko' \
        './lib/modules/*/modules.order' \
        './lib/modules/*/modules.builtin*' || fail "unpacking $pkg failed"
    rm -f "$K"/*.deb
    depmod -b "$K" "$(ls "$K/lib/modules")" || fail "depmod failed"   # the .deb ships no modules.dep
    touch "$K/ok-3"
fi
KV=$(ls "$K/lib/modules")

# 3. The initramfs: busybox, /init, the stripped program, the module stacks in load order.
R=$W/root
rm -rf "$R"; mkdir -p "$R/bin" "$R/mods" "$R/proc" "$R/sys" "$R/dev"
cp /bin/busybox "$R/bin/busybox"
cp tests/vm/init "$R/init"; chmod +x "$R/init"
strip -o "$R/vm_display_test" "$B/tests/vm_display_test"
for drv in bochs cirrus virtio cirrusfb; do
    mods=$drv; [ $drv = virtio ] && mods="virtio_pci virtio_gpu"
    for m in $mods; do modprobe -d "$K" -S "$KV" --show-depends $m; done | awk '$1 == "insmod" { print $2 }' |
        awk '!seen[$0]++' | while read -r f; do cp "$f" "$R/mods/"; basename "$f"; done > "$R/mods/$drv.list"
    [ -s "$R/mods/$drv.list" ] || fail "no modules for $drv in $KV"
done
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$W/initrd.gz"

# 3b. (helper gbm) The GLES initramfs: the same root plus the dynamically linked program, the
# loader, and Mesa as the host has it: glvnd's libEGL with Mesa's vendor library and json, libgbm,
# libGLESv2, libglapi, the kms_swrast DRI driver (Mesa's choice for bochs-drm and cirrus-drm:
# dumb buffers, llvmpipe), SPIRV-Cross (the GLES backend's) and the ldd closure of all of them, LLVM 15 included (~205 MB). Left
# uncompressed: the guest copies it instead of inflating ~60 MB under TCG.
MA=$(cc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
L=/usr/lib/$MA
MESA="$L/libEGL.so.1 $L/libEGL_mesa.so.0 $L/libgbm.so.1 $L/libGLESv2.so.2 $L/libglapi.so.0 $L/dri/kms_swrast_dri.so
      $L/libspirv-cross-c-shared.so.0"   # the last: emgpu's GLES backend dlopens it (SPIR-V to GLSL ES)
JSON=/usr/share/glvnd/egl_vendor.d/50_mesa.json
SKIP=
for f in $MESA $JSON; do
    [ -e "$f" ] && continue
    echo "vm_display_test: SKIP bochs-gbm cirrus-gbm: $f is missing (sh tools/deps host)"
    SKIP="--skip bochs-gbm --skip cirrus-gbm"
    break
done
if [ -z "$SKIP" ]; then
    G=$W/root-gles
    rm -rf "$G"; cp -a "$R" "$G"
    mkdir -p "$G/usr/lib/$MA/dri" "$G/lib64" "$G/usr/share/glvnd/egl_vendor.d"
    ln -s usr/lib "$G/lib"
    strip -o "$G/vm_display_test_dyn" "$B/tests/vm_display_test_dyn"
    cp "$JSON" "$G/usr/share/glvnd/egl_vendor.d/"
    for f in $MESA; do cp -L "$f" "$G/usr/lib/$MA/${f#$L/}"; done
    ln -s kms_swrast_dri.so "$G/usr/lib/$MA/dri/swrast_dri.so"
    for f in "$B/tests/vm_display_test_dyn" $MESA; do ldd "$f"; done |
        awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print "LD " $1 }' | sort -u |
        while read -r a b; do
            if [ "$a" = LD ]; then cp -L "$b" "$G/lib64/"; else
                [ -e "$G/usr/lib/$MA/${a##*/}" ] || cp -L "$a" "$G/usr/lib/$MA/"; fi
        done
    (cd "$G" && find . | cpio -o -H newc --quiet) > "$W/initrd-gles.cpio"
    rm -rf "$G"
fi

# 4. Boot, capture, compare.
jobs=$(nproc); [ "$jobs" -gt 4 ] && jobs=4
# shellcheck disable=SC2086   # $SKIP: zero or more words
exec python3 tests/vm/vm_run.py --kernel "$K/boot/vmlinuz-$KV" --initrd "$W/initrd.gz" \
    --initrd-gles "$W/initrd-gles.cpio" $SKIP --ref tests/ref --out "$W/out" --jobs "$jobs" "$@"

#!/bin/sh
# fbdev and DRM/KMS surfaces on a real Linux kernel (issue #7): boots Debian's kernel under
# qemu-system-x86_64 with a busybox initramfs, runs tests/vm/vm_display_test (static, soft
# backend) on vesafb (XRGB8888, RGB565), bochs-drm (fbdev emulation + KMS dumb buffers) and
# cirrus-drm (KMS RGB565), and compares QEMU screendumps with tests/ref (tests/vm/vm_run.py):
# conformance scenes and the `make demo` dashboard (tests/ref/demo_dashboard.png).
# Ends with "N passed, N failed".
#
# usage: tools/vm_display_test.sh [BUILD_DIR [CASE...]]   BUILD_DIR: a BOARD=host build (build/host)
# Packages (tools/deps host): qemu-system-x86 busybox-static kmod cpio libdrm-dev python3. The
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
    "$B/tests/vm_display_test" >"$W/build.log" 2>&1 || { cat "$W/build.log"; fail "build failed"; }

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

# 4. Boot, capture, compare.
jobs=$(nproc); [ "$jobs" -gt 4 ] && jobs=4
exec python3 tests/vm/vm_run.py --kernel "$K/boot/vmlinuz-$KV" --initrd "$W/initrd.gz" \
    --ref tests/ref --out "$W/out" --jobs "$jobs" "$@"

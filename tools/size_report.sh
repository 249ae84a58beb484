#!/bin/sh
# `make size`: emgpu's flash and RAM per module, and the application-sized pools named apart.
# Usage: size_report.sh BOARD SIZE NM BUILD   (SIZE and NM are the board's binutils)
#
# Two views:
#  1. Linked image (the figure that matters): examples/size_probe.c, a minimal application that
#     creates a device, buffers and a texture, records a clear and copies, submits and reads back,
#     linked with --gc-sections against the runtime objects. The linker map gives each kept input
#     section with its object, so every module's share is what a product would really ship.
#  2. Objects (fallback when the probe does not link yet): every section of every object in
#     BUILD/obj, before garbage collection; an upper bound.
# Columns: text (code), rodata (constants, tables, .ARM.exidx), data (initialised RAM, also
# stored in flash), bss (zeroed RAM). flash = text + rodata + data; ram = data + bss.
# Pools: every RAM symbol of at least POOL_MIN_B bytes (default 4096) is an application-sized
# block (object pools, arenas, command streams, the soft heap: all sized by EMGPU_* knobs); they
# are listed by name, and "runtime state" is the RAM that remains once they are taken out.
set -eu
board=$1; size_tool=$2; nm_tool=$3; build=$4
pool_min=${POOL_MIN_B:-4096}
obj=$build/obj
[ -d "$obj" ] || { echo "size_report: no objects under $obj (run make BOARD=$board first)" >&2; exit 1; }

# Module of an object path: kernel/<dir>, hal/<dir>, hal (registry), port; else what it is.
module_awk='
function module(p,   q, n, parts) {
    if (p ~ /\.a\(/) { q = p; sub(/\(.*/, "", q); sub(/.*\//, "", q); return "toolchain:" q }
    q = p; if (index(q, objdir "/") == 1) q = substr(q, length(objdir) + 2)
    n = split(q, parts, "/")
    if (parts[1] == "kernel" && n >= 3) return "kernel/" parts[2]
    if (parts[1] == "hal" && n >= 3) return "hal/" parts[2]
    if (parts[1] == "hal") return "hal"
    if (parts[1] == "port") return "port"
    if (parts[1] == "boards") return "board"
    if (q ~ /size_probe/ || parts[1] == "examples") return "app"
    return "other"
}
function hex(s,   i, c, v) {
    v = 0; s = tolower(s); sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v
}
function kind(s) {
    if (s ~ /^\.text/) return "text"
    if (s ~ /^\.(rodata|ARM\.ex|isr_vector)/) return "rodata"
    if (s ~ /^\.data/) return "data"
    if (s ~ /^\.bss/ || s == "COMMON") return "bss"
    return ""
}'

# Prints "module kind bytes name" rows; name is the section/symbol name (for the pool listing).
rows_from_map() {
    awk -v objdir="$obj" "$module_awk"'
    /^Linker script and memory map/ { on = 1; next }
    !on { next }
    # A long section name puts its address/size/object on the next line: join them.
    pending != "" { line = pending " " $0; pending = ""; $0 = line }
    /^ [.A-Za-z_][^ ]*$/ { pending = $0; next }
    /^ [.A-Z]/ && NF >= 4 && $2 ~ /^0x/ && $3 ~ /^0x/ {
        k = kind($1); if (k == "") next
        sz = hex($3); if (sz == 0) next
        print module($4), k, sz, $1
    }' "$1"
}

rows_from_objects() {
    find "$obj" -name '*.o' | sort | while read -r o; do
        "$size_tool" -A "$o" | awk -v o="$o" -v objdir="$obj" "$module_awk"'
            NR > 2 && NF >= 2 { k = kind($1); if (k != "" && $2 > 0) print module(o), k, $2, $1 }'
    done
}

probe_ok=0
map=$build/size_probe.map
if make --no-print-directory -s -f Makefile -f tools/size_probe.mk BOARD="$board" O="$build" \
        size-probe >"$build/size_probe.log" 2>&1; then
    probe_ok=1
    map=$(ls "$build"/size_probe*.map | head -n 1)
fi

rows=$(mktemp)
if [ "$probe_ok" = 1 ]; then
    rows_from_map "$map" > "$rows"
    echo "emgpu size report, board $board: linked image $(ls "$build"/size_probe* | grep -v -e '\.map$' -e '\.log$' | head -n 1)"
    echo "(examples/size_probe.c linked with --gc-sections; map: $map)"
else
    rows_from_objects > "$rows"
    echo "emgpu size report, board $board: OBJECTS ONLY, before --gc-sections (an upper bound)"
    echo "(examples/size_probe.c did not link yet; see $build/size_probe.log)"
fi

# The aim is stated for the Cortex-M7; other targets print their figures without it.
case "$size_tool" in arm-none-eabi-*) aim=1 ;; *) aim=0 ;; esac
awk -v pool_min="$pool_min" -v aim="$aim" '
{ m = $1; k = $2; sz = $3; name = $4
  mods[m] = 1; v[m, k] += sz
  if ((k == "bss" || k == "data") && sz >= pool_min && m !~ /^(app|board|toolchain)/) {
      np++; pm[np] = m; pn[np] = name; ps[np] = sz; pool[m] += sz; pools += sz }
}
function row(label, t, r, d, b) {
    printf "%-22s %8d %8d %8d %8d %8d %8d\n", label, t, r, d, b, t + r + d, d + b }
END {
    printf "%-22s %8s %8s %8s %8s %8s %8s\n", "module", "text", "rodata", "data", "bss", "flash", "ram"
    order = "kernel/base kernel/api kernel/track kernel/cmd kernel/format kernel/shader hal hal/soft hal/noop port"
    n = split(order, o, " ")
    for (m in mods) if (m ~ /^(kernel|hal)/ && index(" " order " ", " " m " ") == 0) o[++n] = m
    for (i = 1; i <= n; i++) {
        m = o[i]; if (!(m in mods)) continue
        row(m, v[m, "text"], v[m, "rodata"], v[m, "data"], v[m, "bss"])
        T += v[m, "text"]; R += v[m, "rodata"]; D += v[m, "data"]; B += v[m, "bss"]
        if (m ~ /^kernel/ || m == "hal" || m == "hal/soft") {
            kf += v[m, "text"] + v[m, "rodata"] + v[m, "data"]
            kr += v[m, "data"] + v[m, "bss"] - pool[m] }
    }
    row("emgpu total", T, R, D, B)
    for (m in mods) if (m ~ /^(app|board|toolchain)/) {
        split(m, parts, ":"); g = parts[1]; gt[g] += v[m, "text"]; gr[g] += v[m, "rodata"]; gd[g] += v[m, "data"]; gb[g] += v[m, "bss"]; gs[g] = 1 }
    for (g in gs) row("(not emgpu) " g, gt[g], gr[g], gd[g], gb[g])
    printf "\napplication-sized pools (RAM symbols >= %d B, sized by EMGPU_* knobs):\n", pool_min
    for (i = 1; i <= np; i++) printf "  %-16s %-40s %8d\n", pm[i], pn[i], ps[i]
    printf "  %-57s %8d\n", "pools total", pools
    printf "\nruntime state = emgpu RAM - pools: %d B\n", D + B - pools
    printf "kernel + hal/soft: flash %d B (%.1f KiB), runtime state %d B (%.1f KiB)\n", kf, kf / 1024, kr, kr / 1024
    if (aim) printf "aim on Cortex-M7: flash <= 48 KiB: %s; runtime state <= 8 KiB: %s\n",
        kf <= 48 * 1024 ? "met" : "MISSED", kr <= 8 * 1024 ? "met" : "MISSED"
}' "$rows"
rm -f "$rows"

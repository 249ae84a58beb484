# make bench-m7: compares the Cortex-M7 frames' image hashes (bench_m7.c: "bench-m7: NAME ...
# image HASH") with the host's soft frames of the same scenes (bench_main.c: "m7-ref: NAME image
# HASH"). Usage: awk -f tools/bench_m7_compare.awk RUN.txt M7.txt. Prints one line per scene.
function key(line,   k) { k = line; sub(/^[a-z0-9-]+: +/, "", k); sub(/ +(320x240|image).*$/, "", k); return k }
/^m7-ref: / { ref[key($0)] = $NF; next }
/^bench-m7: .* image / {
    k = key($0)
    if (!(k in ref)) printf "Cortex-M7 %-20s image %s: no host reference\n", k, $NF
    else printf "Cortex-M7 %-20s image %s: %s\n", k, $NF, ($NF == ref[k] ? "identical to the host's" : "DIFFERS from the host's " ref[k])
}

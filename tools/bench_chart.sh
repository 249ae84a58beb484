#!/bin/sh
# make bench: draws the runner's figures (DIR/scenes.dat, DIR/draws.dat) as PNG bar charts with
# gnuplot (pngcairo when the build has it, else the plain png terminal): DIR/scenes.png (ms per
# frame per backend, log scale, min-max error bars) and DIR/draws.png (CPU ns per draw, stacked
# encode / finish / submit). Usage: tools/bench_chart.sh DIR
set -eu
dir=$1
command -v gnuplot >/dev/null || { echo "bench_chart: gnuplot missing (tools/deps bench)"; exit 0; }
term="png size 1400,700"
gnuplot -e "set terminal" 2>&1 | grep -q pngcairo && term="pngcairo size 1400,700"
if [ -s "$dir/scenes.dat" ]; then
gnuplot <<GP
set terminal $term
set output "$dir/scenes.png"
set title "emgpu benchmark scenes 1-5, 800x480: ms per frame (median, min-max bars; lower is better)"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "ms per frame"
set xtics rotate by -30 scale 0
set key top left
plot "$dir/scenes.dat" using 2:3:4:xtic(1) title "soft", \
     "" using 5:6:7 title "gles (llvmpipe)", \
     "" using 8:9:10 title "vulkan (lavapipe)"
GP
echo "bench_chart: wrote $dir/scenes.png"
fi
if [ -s "$dir/draws.dat" ]; then
gnuplot <<GP
set terminal $term
set output "$dir/draws.png"
set title "Scene 6: 10k draws in one pass, CPU ns per draw (a: draw, b: setVertexBuffer+draw, c: setBindGroup(dyn)+draw)"
set style data histogram
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel "ns per draw"
set xtics rotate by -30 scale 0
set key top left
plot "$dir/draws.dat" using 2:xtic(1) title "encode", "" using 3 title "finish", "" using 4 title "submit"
GP
echo "bench_chart: wrote $dir/draws.png"
fi

/* make bench, Cortex-M7: the qemu-mps2-an500 board's knobs with room for the 320x240 scenes.
 *
 * Found before boards/qemu-mps2-an500/emgpu_board.h through `-iquote bench/m7` (bench/bench.mk),
 * so the board's own header stays as shipped. The scenes need a larger soft heap (a 320x240
 * RGB565 target + readback, 20k triangles of vertices: about 1 MiB; the machine has 4 MiB RAM)
 * a larger device heap for the scene-2 pipelines' bytecode, and room for their shader modules
 * (a pipeline keeps its modules alive: 3 pipelines x 2 modules).
 */
#ifndef EMGPU_BENCH_M7_BOARD_H
#define EMGPU_BENCH_M7_BOARD_H

#include "boards/qemu-mps2-an500/emgpu_board.h"

#undef EMGPU_SOFT_HEAP_BYTES
#define EMGPU_SOFT_HEAP_BYTES (2 * 1024 * 1024)
#undef EMGPU_MAX_SHADER_MODULES
#define EMGPU_MAX_SHADER_MODULES 8
#undef EMGPU_STATIC_RAM_BUDGET_BYTES
#define EMGPU_STATIC_RAM_BUDGET_BYTES (512 * 1024)

#endif /* EMGPU_BENCH_M7_BOARD_H */

# Benchmarks (hosted boards). `make bench-shader`: the SPIR-V front end (parse + validate +
# reflect) over the real-world corpus, as shipped and after tools/spv_reorder.py (the form a
# WebGPU app would pass; more modules reach the later rules), BENCH_REPS repetitions. Prints
# modules/s and MB/s (median, min, max), the machine and the command. Never fails on speed.
BENCH_REPS ?= 20
CORPUS_SPIRV ?= tests/corpus/spirv
SHADER_BENCH_BIN := $(BUILD)/bench/shader_bench$(EXE)

$(SHADER_BENCH_BIN): bench/shader_bench.c $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $< $(LIB) $(LDFLAGS) $(LDLIBS_BOARD) -o $@

.PHONY: bench-shader
bench-shader: $(SHADER_BENCH_BIN)
	@rm -rf $(BUILD)/bench/corpus_webgpu
	@python3 tools/spv_reorder.py --tree $(CORPUS_SPIRV) $(BUILD)/bench/corpus_webgpu
	$(TEST_RUN) $(SHADER_BENCH_BIN) -n $(BENCH_REPS) $(CORPUS_SPIRV)
	$(TEST_RUN) $(SHADER_BENCH_BIN) -n $(BENCH_REPS) $(BUILD)/bench/corpus_webgpu

# `make bench` (issue #8): the scene runner (bench/bench_main.c and friends) on the host board's
# backends: soft, gles (llvmpipe), vulkan (lavapipe), noop; then the Cortex-M7 instruction counts
# (bench/bench_m7.c under qemu-system-arm -icount) and `make size` for both boards (in their usual
# build/<board> directories, as the boards ship: not the bench configuration). Outputs:
# $(BUILD)/bench/results.txt (the table), scenes.png and draws.png (gnuplot), scene PNGs.
# Timing figures are never checked: only a scene that fails to render or mismatches soft fails.
# The runner links its own copy of the runtime, built with BENCH_CFLAGS: scene 6 records 10k draws
# in one pass, which needs a larger command stream than the host default (16 KiB), and scenes 1-5
# keep a soft, a gles and a vulkan device alive at once (the host default allows 2 devices and 16
# shader modules per instance; scene 2 keeps 6 alive per device).
BENCH_FRAMES ?= 11
# Soft worker threads for the headline table (LP_NUM_THREADS follows); the machine has 2 cores.
BENCH_THREADS ?= 2
BENCH_DIR := $(BUILD)/bench
BENCH_CFLAGS := -DEMGPU_COMMAND_STREAM_BYTES=4194304 -DEMGPU_MAX_DEVICES=4 -DEMGPU_MAX_SHADER_MODULES=32
BENCH_LIB := $(BENCH_DIR)/lib/libemgpu.a
BENCH_SHADER_SRC := $(sort $(wildcard bench/shaders/*.vert bench/shaders/*.frag))
BENCH_SPV := $(BENCH_SHADER_SRC:bench/shaders/%=$(BENCH_DIR)/shaders/%.spv)
BENCH_RUNNER := $(BENCH_DIR)/bench_runner$(EXE)
BENCH_RUNNER_SRC := bench/bench_main.c bench/bench_scene.c bench/bench_draws.c bench/bench_native.c \
                    bench/bench_raw_vk.c bench/bench_raw_gl.c
BENCH_HDR := bench/bench_scene.h bench/bench_host.h bench/bench_native.h

$(BENCH_DIR)/shaders/%.spv: bench/shaders/% tools/spv_reorder.py
	@mkdir -p $(dir $@)
	$(Q)glslangValidator -V --target-env vulkan1.1 -o $@.glslang $< >/dev/null
	$(Q)python3 tools/spv_reorder.py $@.glslang $@
	$(Q)spirv-val --target-env vulkan1.1 $@

$(BENCH_DIR)/bench_spv.c: $(BENCH_SPV) tools/embed_spv.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed_spv.sh $(BENCH_SPV) > $@

# The runtime with BENCH_CFLAGS, in its own build directory (a nested make of this Makefile); the
# objects are rebuilt when the flags change (make itself does not track flags).
.PHONY: bench-lib
bench-lib:
	@mkdir -p $(BENCH_DIR)/lib
	@if [ "$$(cat $(BENCH_DIR)/lib/flags 2>/dev/null)" != "$(EXTRA_CFLAGS) $(BENCH_CFLAGS)" ]; then \
	    rm -rf $(BENCH_DIR)/lib/obj $(BENCH_LIB); echo "$(EXTRA_CFLAGS) $(BENCH_CFLAGS)" > $(BENCH_DIR)/lib/flags; fi
	$(Q)$(MAKE) --no-print-directory BOARD=$(BOARD) O=$(BENCH_DIR)/lib EXTRA_CFLAGS="$(EXTRA_CFLAGS) $(BENCH_CFLAGS)" \
	    $(BENCH_DIR)/lib/libemgpu.a

$(BENCH_RUNNER): $(BENCH_RUNNER_SRC) $(BENCH_HDR) $(BENCH_DIR)/bench_spv.c bench-lib
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(BENCH_CFLAGS) $(BENCH_RUNNER_SRC) $(BENCH_DIR)/bench_spv.c $(BENCH_LIB) \
	    $(LDLIBS_BOARD) -lpng -lm -o $@

.PHONY: bench bench-run
bench:
	sh tools/deps host qemu-mps2-an500 bench
	$(MAKE) --no-print-directory BOARD=host bench-run
	$(MAKE) --no-print-directory BOARD=host bench-m7
	@echo "=== make size (static RAM and flash of the runtime as each board ships it)" | tee -a $(BENCH_DIR)/results.txt
	$(MAKE) --no-print-directory BOARD=host O= size | tee -a $(BENCH_DIR)/results.txt
	$(MAKE) --no-print-directory BOARD=qemu-mps2-an500 O= size | tee -a $(BENCH_DIR)/results.txt
	@echo "bench: table in $(BENCH_DIR)/results.txt, charts $(BENCH_DIR)/scenes.png and $(BENCH_DIR)/draws.png"

bench-run: $(BENCH_RUNNER)
	@echo "=== machine: $$(lscpu | sed -n 's/^Model name: *//p' | head -1), $$(nproc) cores" | tee $(BENCH_DIR)/results.txt
	@echo "=== $(BENCH_RUNNER) $(BENCH_DIR) $(BENCH_FRAMES) $(BENCH_THREADS)" | tee -a $(BENCH_DIR)/results.txt
	XDG_RUNTIME_DIR=$${XDG_RUNTIME_DIR:-/tmp} $(BENCH_RUNNER) $(BENCH_DIR) $(BENCH_FRAMES) $(BENCH_THREADS) > $(BENCH_DIR)/run.txt; \
	    st=$$?; cat $(BENCH_DIR)/run.txt; cat $(BENCH_DIR)/run.txt >> $(BENCH_DIR)/results.txt; exit $$st
	sh tools/bench_chart.sh $(BENCH_DIR)

# Cortex-M7: bench/bench_m7.c (scenes 1-3, 320x240 RGB565, soft) for qemu-mps2-an500, built in
# its own directory with the board's knobs adjusted by bench/m7/emgpu_board.h (-iquote puts it
# ahead of the board's header), and run under -icount shift=0 (instructions, see bench_m7.c; QEMU
# writes the semihosting console to stderr). Each
# frame's image hash is compared with the host's soft frame of the same scene (bench-run prints
# it): a report line, not a failure.
BENCH_M7_DIR := $(BUILD)/bench/m7

$(BUILD)/bench/bench_m7.elf: bench/bench_m7.c bench/bench_scene.c $(BENCH_HDR) $(BUILD)/bench/bench_spv.c \
        $(LIB) $(BOARD_LINK_DEPS)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) bench/bench_m7.c bench/bench_scene.c $(BUILD)/bench/bench_spv.c $(LIB) \
	    $(LDLIBS_BOARD) -lm -o $@

.PHONY: bench-m7
bench-m7:
	$(Q)$(MAKE) --no-print-directory BOARD=qemu-mps2-an500 O=$(BENCH_M7_DIR) EXTRA_CFLAGS="-iquote bench/m7" \
	    $(BENCH_M7_DIR)/bench/bench_m7.elf
	@echo "=== Cortex-M7 (qemu-system-arm -M mps2-an500 -icount shift=0): instructions per frame" | tee -a $(BENCH_DIR)/results.txt
	timeout 300 qemu-system-arm -M mps2-an500 -nographic -monitor none -icount shift=0 \
	    -semihosting-config enable=on,target=native -kernel $(BENCH_M7_DIR)/bench/bench_m7.elf > $(BENCH_DIR)/m7.txt 2>&1; \
	    st=$$?; cat $(BENCH_DIR)/m7.txt; cat $(BENCH_DIR)/m7.txt >> $(BENCH_DIR)/results.txt; exit $$st
	@[ -f $(BENCH_DIR)/run.txt ] && awk -f tools/bench_m7_compare.awk $(BENCH_DIR)/run.txt $(BENCH_DIR)/m7.txt \
	    | tee -a $(BENCH_DIR)/results.txt || true

# ---- vm_bench (helper "fast"; not part of `make bench`): the soft shader VM alone and a
# full-screen blended textured quad through the soft rasterizer (span path on and off).
VM_BENCH_BIN := $(BUILD)/bench/vm_bench$(EXE)

$(VM_BENCH_BIN): bench/vm_bench.c $(LIB) $(BUILD)/obj/spv_embed.o
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $< $(BUILD)/obj/spv_embed.o $(LIB) $(LDFLAGS) $(LDLIBS_BOARD) -lm -o $@

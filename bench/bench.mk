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

# Fuzz targets (hosted boards only), built with clang -fsanitize=fuzzer,address,undefined into
# $(BUILD)/fuzz/. Needs clang and libclang-rt-14-dev. `make fuzz-smoke` builds the SPIR-V target,
# seeds it with the compiled test shaders and the corpus, runs it for 40 s and prints exactly one
# line: "1 passed, 0 failed" or "0 passed, 1 failed" (the log stays in $(BUILD)/fuzz/).
# Longer runs: tests/fuzz/README.md.
FUZZ_CC ?= clang
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
              -I. -Iinclude -I$(BOARD_DIR) -idirafter $(SYSINC) $(EXTRA_CFLAGS)
# The front end and the base library it uses; nothing else of the runtime.
FUZZ_SPIRV_SRC = tests/fuzz/spirv_fuzz.c $(wildcard kernel/shader/spirv*.c) \
                 kernel/base/arena.c kernel/base/fmt.c kernel/base/util.c kernel/base/log.c
FUZZ_SPIRV_BIN := $(BUILD)/fuzz/spirv_fuzz
FUZZ_SECONDS ?= 40
# A fixed seed makes the CI run replay the same input sequence (no new finds from luck alone);
# longer exploratory runs pick their own (tests/fuzz/README.md).
FUZZ_SEED ?= 1
CORPUS_SPIRV ?= tests/corpus/spirv

$(FUZZ_SPIRV_BIN): $(FUZZ_SPIRV_SRC) $(wildcard kernel/shader/*.h kernel/base/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_SPIRV_SRC) -o $@

.PHONY: fuzz-smoke
# libFuzzer reads seed directories recursively and writes only into the first one (work/).
# tests/fuzz/regressions holds every input that once crashed (each run replays them first).
fuzz-smoke: $(FUZZ_SPIRV_BIN) $(SHADER_SPV) $(SHADER_BAD_SPV)
	@mkdir -p $(BUILD)/fuzz/work
	@if $(FUZZ_SPIRV_BIN) -seed=$(FUZZ_SEED) -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
	        -artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/work tests/fuzz/regressions $(BUILD)/tests/shaders \
	        $(wildcard $(CORPUS_SPIRV)) > $(BUILD)/fuzz/spirv_fuzz.log 2>&1; \
	    then echo "1 passed, 0 failed"; \
	    else echo "spirv_fuzz failed: see $(BUILD)/fuzz/spirv_fuzz.log and $(BUILD)/fuzz/crash-*" >&2; \
	         echo "0 passed, 1 failed"; exit 1; fi

# make demo: the dashboard demo's shaders and program (host boards). The Makefile's `demo` target
# builds $(BUILD)/demo$(EXE) and runs it; this file says how: the GLSL in examples/demo/shaders is
# compiled with glslangValidator and rewritten by tools/spv_reorder.py into the form WebGPU
# requires (as tests/shaders/shaders.mk does), embedded with
# tools/embed_spv.sh (looked up with eg_test_spv("demo_ui.vert")), and linked with libpng and
# libm; the simulator window (examples/sim) opens libX11 at run time, so nothing more is linked.
DEMO_SRC := examples/demo/demo.c examples/demo/demo_main.c examples/demo/demo_ui.c examples/demo/demo_window.c examples/sim/sim.c
DEMO_SHADER_SRC := $(sort $(wildcard examples/demo/shaders/*.vert examples/demo/shaders/*.frag))
DEMO_SPV := $(DEMO_SHADER_SRC:examples/demo/shaders/%=$(BUILD)/examples/demo/shaders/%.spv)
DEMO_SPV_OBJ := $(BUILD)/obj/examples/demo/demo_spv.o

$(BUILD)/examples/demo/shaders/%.spv: examples/demo/shaders/% tools/spv_reorder.py
	@mkdir -p $(dir $@)
	$(Q)glslangValidator -V --target-env vulkan1.1 -o $@.glslang $< >/dev/null
	$(Q)python3 tools/spv_reorder.py $@.glslang $@
	$(Q)spirv-val --target-env vulkan1.1 $@

$(BUILD)/examples/demo/demo_spv.c: $(DEMO_SPV) tools/embed_spv.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed_spv.sh $(DEMO_SPV) > $@

$(DEMO_SPV_OBJ): $(BUILD)/examples/demo/demo_spv.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/demo$(EXE): $(DEMO_SRC) examples/demo/demo.h examples/sim/sim.h examples/demo/font5x7.h $(DEMO_SPV_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $(DEMO_SRC) $(DEMO_SPV_OBJ) $(LIB) $(LDLIBS_BOARD) -lpng -lm -o $@

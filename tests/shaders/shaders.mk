# Shader test inputs, built into $(BUILD)/tests/shaders/ (hosted boards only). Included by the
# Makefile after its own rules: GLSL 450 sources compiled with glslangValidator (SPIR-V 1.3
# through --target-env vulkan1.1, so storage buffers use the StorageBuffer class) and checked by
# spirv-val; negative modules assembled with spirv-as. Tools: glslang-tools, spirv-tools.
# The GLSL modules are built on every board (glslang runs on the build machine) and embedded
# into the unit-test binary (tools/embed_spv.sh -> eg_test_spv("name.frag")), so unit tests and
# scenes find them on Cortex-M too.
SHADER_SRC := $(sort $(wildcard tests/shaders/*.vert tests/shaders/*.frag tests/shaders/*.comp))
SHADER_SPV := $(SHADER_SRC:tests/shaders/%=$(BUILD)/tests/shaders/%.spv)
# Valid modules glslang cannot produce (e.g. OpPhi in switch targets, as optimizers emit), written
# in SPIR-V assembly: NAME.STAGE.spvasm is embedded as "NAME.STAGE" like the GLSL ones.
SHADER_ASM := $(sort $(wildcard tests/shaders/*.spvasm))
SHADER_SPV += $(SHADER_ASM:tests/shaders/%.spvasm=$(BUILD)/tests/shaders/%.spv)

$(BUILD)/tests/shaders/%.spv: tests/shaders/%.spvasm
	@mkdir -p $(dir $@)
	$(Q)spirv-as --target-env vulkan1.1 -o $@ $<
	$(Q)spirv-val --target-env vulkan1.1 $@

# tools/spv_reorder.py then puts callees before callers and gives Output/Private/Function
# variables an OpConstantNull initializer (two WebGPU rules glslang output breaks); spirv-val
# checks both glslang's output and the rewritten module.
# limits_*: shaders at the size limits of a test board's module slot (EMGPU_MAX_SPIRV_WORDS,
# 1024 words by default), built without debug names (-g0) so that the code, not OpName, fills it.
$(BUILD)/tests/shaders/limits_%: GLSLANG_EXTRA := -g0
$(BUILD)/tests/shaders/%.spv: tests/shaders/% tools/spv_reorder.py
	@mkdir -p $(dir $@)
	$(Q)glslangValidator -V $(GLSLANG_EXTRA) --target-env vulkan1.1 -o $@.glslang $< >/dev/null
	$(Q)spirv-val --target-env vulkan1.1 $@.glslang
	$(Q)python3 tools/spv_reorder.py $@.glslang $@
	$(Q)spirv-val --target-env vulkan1.1 $@

$(BUILD)/spv_embed.c: $(SHADER_SPV) tools/embed_spv.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed_spv.sh $(SHADER_SPV) > $@

$(BUILD)/obj/spv_embed.o: $(BUILD)/spv_embed.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

ifeq ($(HOSTED),1)
SHADER_BAD_SRC := $(wildcard tests/shaders/invalid/*.spvasm)
SHADER_BAD_SPV := $(SHADER_BAD_SRC:tests/shaders/invalid/%.spvasm=$(BUILD)/tests/shaders/invalid/%.spv)

all: $(SHADER_SPV) $(SHADER_BAD_SPV)

# Negative cases break WebGPU rules, not SPIR-V syntax;
# and some cases (a bad word count, a too-small bound) are patched after assembly by a one-line
# "; patch: <word index> <hex value>" on line 2 of the source.
$(BUILD)/tests/shaders/invalid/%.spv: tests/shaders/invalid/%.spvasm
	@mkdir -p $(dir $@)
	$(Q)spirv-as --target-env spv1.5 -o $@ $<
	$(Q)sed -n '2s/^; patch: *//p' $< | while read -r at val; do \
	    printf "$$(printf '\\%03o\\%03o\\%03o\\%03o' $$((val & 255)) $$((val >> 8 & 255)) \
	        $$((val >> 16 & 255)) $$((val >> 24 & 255)))" | \
	    dd of=$@ bs=4 seek=$$at conv=notrunc status=none; done
endif

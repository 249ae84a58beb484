# VM display test (tests/vm): the guest program, linked statically so that it runs alone in a
# busybox initramfs. Read after the Makefile by tools/vm_display_test.sh
# (make -f Makefile -f tests/vm/vm.mk ...), so it reuses the board's objects (BOARD=host).
# It also shows the `make demo` dashboard (examples/demo/demo.c, demo_ui.c: the same renderer),
# so its shader table embeds the test shaders and the demo's shaders together.
VM_DISPLAY_BIN := $(BUILD)/tests/vm_display_test
VM_SPV_OBJ := $(BUILD)/obj/tests/vm/vm_spv_embed.o
VM_DEMO_OBJ := $(BUILD)/obj/examples/demo/demo.o $(BUILD)/obj/examples/demo/demo_ui.o
VM_DISPLAY_DEPS := $(SCENE_OBJ) $(VM_SPV_OBJ) $(VM_DEMO_OBJ) $(BUILD)/obj/tests/harness/harness.o \
                   $(BUILD)/obj/tests/harness/test_device.o

$(BUILD)/tests/vm/vm_spv_embed.c: $(SHADER_SPV) $(DEMO_SPV) tools/embed_spv.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed_spv.sh $(SHADER_SPV) $(DEMO_SPV) > $@

$(VM_SPV_OBJ): $(BUILD)/tests/vm/vm_spv_embed.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# glibc warns that dlopen in a static program needs the shared libraries at run time: the
# guest has none, which is fine (the GPU backends report no adapter; the test uses soft).
$(VM_DISPLAY_BIN): tests/vm/vm_display_test.c examples/demo/demo.h $(VM_DISPLAY_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	@rm -f $@   # the pipe below hides the linker's status: a failed link must leave no binary
	$(CC) $(CFLAGS) $(LDFLAGS) -static $< $(VM_DISPLAY_DEPS) $(LIB) $(LDLIBS_BOARD) -o $@ 2>&1 | \
	    { grep -v -e 'statically linked applications requires at runtime' -e 'in function' || true; }
	@test -x $@

# helper gbm: the same program linked dynamically, for the GLES-through-GBM cases: it dlopens
# Mesa (libEGL, libgbm, libGLESv2, kms_swrast), which tools/vm_display_test.sh copies into a
# second initramfs together with this binary's and Mesa's shared libraries.
VM_DISPLAY_DYN_BIN := $(BUILD)/tests/vm_display_test_dyn
$(VM_DISPLAY_DYN_BIN): tests/vm/vm_display_test.c examples/demo/demo.h $(VM_DISPLAY_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(VM_DISPLAY_DEPS) $(LIB) $(LDLIBS_BOARD) -o $@

# The dashboard's reference check on the host (tools/vm_demo_ref.sh): renders the same frame on
# the backend EMGPU_TEST_BACKEND names (soft, vulkan/lavapipe, gles/llvmpipe) and writes a PPM.
VM_DEMO_REF_BIN := $(BUILD)/tests/vm_demo_ref
$(VM_DEMO_REF_BIN): tests/vm/vm_demo_ref.c examples/demo/demo.h $(VM_SPV_OBJ) $(VM_DEMO_OBJ) \
                    $(BUILD)/obj/tests/harness/harness.o $(BUILD)/obj/tests/harness/test_device.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(VM_SPV_OBJ) $(VM_DEMO_OBJ) $(BUILD)/obj/tests/harness/harness.o \
	    $(BUILD)/obj/tests/harness/test_device.o $(LIB) $(LDLIBS_BOARD) -o $@

-include $(BUILD)/tests/vm_display_test.d $(BUILD)/tests/vm_demo_ref.d

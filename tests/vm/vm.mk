# VM display test (tests/vm): the guest program, linked statically so that it runs alone in a
# busybox initramfs. Read after the Makefile by tools/vm_display_test.sh
# (make -f Makefile -f tests/vm/vm.mk ...), so it reuses the board's objects (BOARD=host).
VM_DISPLAY_BIN := $(BUILD)/tests/vm_display_test
VM_DISPLAY_DEPS := $(SCENE_OBJ) $(BUILD)/obj/spv_embed.o $(BUILD)/obj/tests/harness/harness.o \
                   $(BUILD)/obj/tests/harness/test_device.o

# glibc warns that dlopen in a static program needs the shared libraries at run time: the
# guest has none, which is fine (the GPU backends report no adapter; the test uses soft).
$(VM_DISPLAY_BIN): tests/vm/vm_display_test.c $(VM_DISPLAY_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	@rm -f $@   # the pipe below hides the linker's status: a failed link must leave no binary
	$(CC) $(CFLAGS) $(LDFLAGS) -static $< $(VM_DISPLAY_DEPS) $(LIB) $(LDLIBS_BOARD) -o $@ 2>&1 | \
	    { grep -v -e 'statically linked applications requires at runtime' -e 'in function' || true; }
	@test -x $@

-include $(BUILD)/tests/vm_display_test.d

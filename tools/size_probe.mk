# Extra rule for `make size` (read together with the Makefile: make -f Makefile -f tools/size_probe.mk):
# links examples/size_probe.c against the runtime objects (not the archive, so the linker map names
# each object's directory) with --gc-sections, so the flash figure counts only what an application
# that creates, records, submits and reads back actually keeps.
SIZE_PROBE := $(BUILD)/size_probe$(EXE)

.PHONY: size-probe
size-probe: $(SIZE_PROBE)

$(SIZE_PROBE): $(BUILD)/obj/examples/size_probe.o $(RUNTIME_OBJ) $(BOARD_LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--gc-sections -Wl,-Map=$(BUILD)/size_probe.map $< $(RUNTIME_OBJ) \
	    $(LDLIBS_BOARD) -o $@

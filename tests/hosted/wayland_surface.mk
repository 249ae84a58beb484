# (helper wayland) tests/hosted/wayland_surface_test.c, included by the Makefile after its own rules.
# The test is the application: it links libwayland-client (the runtime itself only dlopens it) and
# libpng (to read weston-screenshooter's capture), and makes its xdg_toplevel through xdg-shell
# glue that wayland-scanner generates from wayland-protocols at build time. Cross boards and
# machines without those packages build the generic rule's stub instead, which reports the test
# as skipped by name. The conformance scenes (tests/scenes/scenes.mk's SCENE_OBJ) are linked too. Packages: libwayland-dev wayland-protocols libpng-dev (build), weston (run).
WL_XDG_XML := /usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
WL_TEST_OK := $(if $(CROSS),,$(if $(filter 1,$(HOSTED)),$(if $(wildcard $(WL_XDG_XML)),$(shell \
    command -v wayland-scanner >/dev/null 2>&1 && test -f /usr/include/wayland-client.h && \
    test -f /usr/include/png.h && echo 1))))

ifeq ($(WL_TEST_OK),1)
$(BUILD)/wayland/xdg-shell-client.h: $(WL_XDG_XML)
	@mkdir -p $(dir $@)
	wayland-scanner client-header $< $@

$(BUILD)/wayland/xdg-shell-protocol.c: $(WL_XDG_XML)
	@mkdir -p $(dir $@)
	wayland-scanner private-code $< $@

$(BUILD)/obj/wayland/xdg-shell-protocol.o: $(BUILD)/wayland/xdg-shell-protocol.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(CFLAGS_BOARD) -c $< -o $@

$(BUILD)/tests/wayland_surface_test$(EXE): tests/hosted/wayland_surface_test.c \
        $(BUILD)/wayland/xdg-shell-client.h $(BUILD)/obj/wayland/xdg-shell-protocol.o \
        $(BUILD)/obj/tests/harness/harness.o $(BUILD)/obj/tests/harness/test_device.o $(LIB) \
        $(SCENE_OBJ) $(BUILD)/obj/spv_embed.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DEG_WAYLAND_TEST=1 -I$(BUILD)/wayland $(LDFLAGS) $< \
	    $(BUILD)/obj/wayland/xdg-shell-protocol.o $(SCENE_OBJ) $(BUILD)/obj/spv_embed.o \
	    $(BUILD)/obj/tests/harness/harness.o \
	    $(BUILD)/obj/tests/harness/test_device.o $(LIB) $(LDLIBS_BOARD) -lwayland-client -lpng -o $@
endif

# Conformance scenes (tests/scenes), included by the Makefile after its own rules.
# The scene objects go into the unit-test binary on every board (tests/unit/scenes_hash_test.c:
# reduced size, hashes) and into the hosted runner tests/hosted/scenes_test.c (full size, PNGs
# compared with tests/ref/). The runner links libpng, a library of the build machine: cross
# boards (CROSS set) have none, so there it is built without PNG support and checks soft against
# the full-size hashes in tests/ref/scene_hashes.h instead. Scene shaders are
# tests/shaders/scene_*.{vert,frag,comp}, compiled and embedded by tests/shaders/shaders.mk.
SCENE_SRC := $(wildcard tests/scenes/*.c)
SCENE_OBJ := $(SCENE_SRC:%.c=$(BUILD)/obj/%.o)
SCENES_PNG := $(if $(CROSS),0,1)

UNIT_OBJ += $(SCENE_OBJ)
$(UNIT_BIN): $(SCENE_OBJ)

ifeq ($(HOSTED),1)
$(BUILD)/tests/scenes_test$(EXE): tests/hosted/scenes_test.c $(SCENE_OBJ) $(BUILD)/obj/spv_embed.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DEG_SCENES_PNG=$(SCENES_PNG) $(LDFLAGS) $< $(SCENE_OBJ) $(BUILD)/obj/spv_embed.o \
	    $(LIB) $(LDLIBS_BOARD) $(if $(filter 1,$(SCENES_PNG)),-lpng) -o $@
endif

-include $(SCENE_OBJ:.o=.d)

/* Shared between the reflection files (spirv_reflect.c, spirv_reflect_use.c); not exported. */
#ifndef EG_SHADER_SPIRV_REFLECT_INTERNAL_H
#define EG_SHADER_SPIRV_REFLECT_INTERNAL_H

#include "kernel/shader/spirv_internal.h"

/* Every resource variable of the module (UniformConstant / Uniform / StorageBuffer), filled
 * once; each entry point then copies the ones it statically uses. */
typedef struct eg_reflect_resources {
    uint32_t count;
    eg_shader_binding_t *bindings;   /* module-wide, in declaration order */
    uint32_t *var_ids;               /* the OpVariable result id of bindings[i] */
    uint32_t function_count;         /* OpFunction instructions in the module */
    uint32_t sampling_count;         /* sampling instructions in the module (pair capacity) */
    uint32_t workgroup_count;        /* module-scope Workgroup variables */
    uint32_t *workgroup_ids;         /* their result ids */
    /* Scratch shared by every entry point's walk (allocated once, not per entry): */
    uint32_t *work;                  /* function_count: the call-graph worklist */
    uint8_t *flags;                  /* count + workgroup_count: EG_REFLECT_USED_* per variable */
    uint16_t *map;                   /* count: module resource index -> entry binding index */
    eg_shader_pair_t *pairs;         /* sampling_count */
} eg_reflect_resources_t;

enum { EG_REFLECT_USED = 1, EG_REFLECT_USED_COMPARE = 2, EG_REFLECT_USED_FILTERED = 4 };

/* Arena array of count * elem_B bytes (any non-NULL pointer when count is 0); on a full arena
 * fills the error naming the arena's knob and returns NULL. */
void *eg_reflect_array(eg_spirv_ctx_t *c, uint32_t count, size_t elem_B, const char *what);

/* Fills e->bindings / binding_count, e->pairs / pair_count and e->workgroup_storage_B from the
 * entry point's static use (spirv_reflect_use.c). */
bool eg_reflect_static_use(eg_spirv_ctx_t *c, eg_reflect_resources_t *res, eg_shader_entry_t *e);
/* Allocates res's scratch arrays and lists the Workgroup variables (spirv_reflect_use.c). */
bool eg_reflect_use_init(eg_spirv_ctx_t *c, eg_reflect_resources_t *res);

#endif /* EG_SHADER_SPIRV_REFLECT_INTERNAL_H */

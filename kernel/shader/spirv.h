/* SPIR-V front end: parse, WebGPU execution-environment validation and reflection.
 *
 * Every backend consumes shaders through this one front end (the Mesa split: API-agnostic
 * checks first, per-driver lowering after). Input is SPIR-V 1.0-1.5 words as passed in
 * WGPUShaderSourceSPIRV. eg_spirv_parse runs three steps over the caller's words, which must
 * outlive the result (the shader module keeps them in its slot):
 *
 *  1. Parse (spirv_parse.c). Header checks (magic, version, bound, schema), then one walk over
 *     the instruction stream. Every word count is checked against the end of the module before
 *     any operand is read, so truncated or malformed input never reads out of bounds; every
 *     result id is checked against the bound and defined once. The walk fills a per-id table
 *     (eg_spirv_id_t: where the id is defined and by which opcode, plus a few flags), placed
 *     in the caller's arena: bound * 8 bytes. An arena too small is an error naming its knob.
 *  2. Validate (spirv_validate*.c). The WebGPU Execution Environment for SPIR-V
 *     (gpuweb/spirv-execution-env, with the relaxations issue #3 lists): allowed capabilities,
 *     extensions, extended instruction sets, memory model, entry points, execution models and
 *     modes, decorations and built-ins, types, storage classes, runtime arrays, function order
 *     (callee before caller, which makes the call graph acyclic: the check is one forward loop,
 *     no recursion), Workgroup storage only from GLCompute, the opcode allow-list, OpUndef and
 *     the OpVectorShuffle 0xFFFFFFFF literal. Each rule has its own name (spirv_rules.h) and
 *     its message names the rule, the instruction index, opcode and result id.
 *  3. Reflect (spirv_reflect.c). Per entry point: stage, workgroup size, resource bindings
 *     (group, binding, kind), vertex inputs and fragment outputs (location, type), placed in
 *     the same arena, for pipeline creation to check against layouts and vertex/target state.
 *
 * The first failing rule stops the work and fills eg_spirv_error_t. Nothing allocates from a
 * heap and nothing recurses.
 */
#ifndef EG_SHADER_SPIRV_H
#define EG_SHADER_SPIRV_H

#include "kernel/base/arena.h"
#include "kernel/shader/spirv_rules.h"

typedef enum eg_spirv_rule {
#define X(NAME, summary) EG_SPIRV_RULE_##NAME,
    EG_SPIRV_RULES(X)
#undef X
    EG_SPIRV_RULE_COUNT
} eg_spirv_rule_t;

/** Rule name as it appears in messages ("OpUndef forbidden" is rule "UNDEF"). */
const char *eg_spirv_rule_name(eg_spirv_rule_t rule);

#define EG_SPIRV_MESSAGE_MAX 200

/** Where and why a module was rejected. inst_index counts instructions from 0 (the first one
 *  after the header); opcode and result_id are 0 when the failure is not at one instruction. */
typedef struct eg_spirv_error {
    eg_spirv_rule_t rule;
    uint32_t inst_index, opcode, result_id;
    char message[EG_SPIRV_MESSAGE_MAX];
} eg_spirv_error_t;

/* Per-id facts from the parse: the defining instruction's word offset and opcode. */
typedef struct eg_spirv_id {
    uint32_t def_at;     /* word offset of the defining instruction; 0 = not defined */
    uint16_t op;         /* SpvOp of the defining instruction */
    uint16_t flags;      /* EG_SPIRV_ID_* */
} eg_spirv_id_t;

typedef enum eg_shader_stage {
    EG_SHADER_STAGE_VERTEX, EG_SHADER_STAGE_FRAGMENT, EG_SHADER_STAGE_COMPUTE
} eg_shader_stage_t;

typedef enum eg_shader_binding_kind {
    EG_SHADER_BINDING_UNIFORM,            /* Uniform + Block */
    EG_SHADER_BINDING_STORAGE_READ_ONLY,  /* StorageBuffer + Block, every member NonWritable */
    EG_SHADER_BINDING_STORAGE,            /* StorageBuffer + Block, writable */
    EG_SHADER_BINDING_SAMPLED_TEXTURE,    /* OpTypeImage Sampled = 1 */
    EG_SHADER_BINDING_STORAGE_TEXTURE,    /* OpTypeImage Sampled = 2 */
    EG_SHADER_BINDING_SAMPLER             /* OpTypeSampler (comparison is decided by use: TODO(#3)) */
} eg_shader_binding_kind_t;

/** Scalar base type of an interface variable. */
typedef enum eg_shader_scalar {
    EG_SHADER_SCALAR_F32, EG_SHADER_SCALAR_I32, EG_SHADER_SCALAR_U32, EG_SHADER_SCALAR_BOOL
} eg_shader_scalar_t;

typedef struct eg_shader_binding {
    uint32_t group, binding;       /* DescriptorSet, Binding decorations */
    uint8_t kind;                  /* eg_shader_binding_kind_t */
    uint8_t dim;                   /* textures: SpvDim (1D=0, 2D=1, 3D=2, Cube=3) */
    uint8_t arrayed, multisampled; /* textures: OpTypeImage Arrayed / MS */
    uint8_t sample_type;           /* sampled textures: eg_shader_scalar_t of Sampled Type */
    uint8_t depth;                 /* textures: OpTypeImage Depth operand (0, 1, 2 = unknown) */
    uint8_t non_readable, non_writable; /* storage textures: access from decorations */
    uint32_t format;               /* storage textures: SpvImageFormat */
} eg_shader_binding_t;

typedef struct eg_shader_io {
    uint32_t location;
    uint8_t scalar;                /* eg_shader_scalar_t */
    uint8_t components;            /* 1..4 */
} eg_shader_io_t;

typedef struct eg_shader_entry {
    const char *name;              /* points into the module's words (NUL-terminated there) */
    eg_shader_stage_t stage;
    uint32_t function_id;
    uint32_t workgroup_size[3];    /* LocalSize; {0,0,0} for render stages */
    uint32_t binding_count, input_count, output_count;
    const eg_shader_binding_t *bindings; /* every resource of the module (static use: TODO(#3)) */
    const eg_shader_io_t *inputs;        /* Input variables with a Location */
    const eg_shader_io_t *outputs;       /* Output variables with a Location */
} eg_shader_entry_t;

typedef struct eg_spirv_module {
    const uint32_t *words;
    uint32_t word_count, version, bound;
    uint32_t inst_count;
    eg_spirv_id_t *ids;            /* bound entries, in the arena */
    uint32_t entry_count;
    eg_shader_entry_t *entries;    /* in the arena */
} eg_spirv_module_t;

/** Parses, validates and reflects `word_count` words. On success fills *m (pointing into the
 *  words and the arena) and returns true; on failure fills *err and returns false. The arena's
 *  knob is named when it is too small. Arena use: about 8 B per id of the bound, plus the
 *  reflection (tens of bytes per entry point and per interface variable). */
bool eg_spirv_parse(eg_spirv_module_t *m, const uint32_t *words, uint32_t word_count,
                    eg_arena_t *arena, eg_spirv_error_t *err);

/** The entry point named `name` for `stage`; with name "" or NULL, the module's only entry point
 *  for that stage. NULL when there is none or when "" is ambiguous. */
const eg_shader_entry_t *eg_spirv_find_entry(const eg_spirv_module_t *m, eg_shader_stage_t stage,
                                             const char *name);

#endif /* EG_SHADER_SPIRV_H */

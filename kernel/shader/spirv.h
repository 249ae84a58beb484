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
 *  3. Reflect (spirv_reflect*.c). Per entry point: stage, workgroup size, the resource bindings
 *     it statically uses (group, binding, kind, texture class and view dimension, storage
 *     texture format/access, sampler comparison use, buffer minimum binding size), the
 *     texture+sampler pairs of its sampling instructions, stage inputs/outputs (location, type,
 *     interpolation, sampling) and the built-ins it uses; per module the specialization
 *     constants. All placed in the same arena, for pipeline creation to check against layouts
 *     and vertex/target state, and to derive layout "auto".
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
    EG_SHADER_BINDING_SAMPLER             /* OpTypeSampler (comparison: used_compare, from its use) */
} eg_shader_binding_kind_t;

/** Scalar base type of an interface variable. */
typedef enum eg_shader_scalar {
    EG_SHADER_SCALAR_F32, EG_SHADER_SCALAR_I32, EG_SHADER_SCALAR_U32, EG_SHADER_SCALAR_BOOL
} eg_shader_scalar_t;

/** Sampled texture class (issue #3): WebGPU's sampleType compatibility needs more than the
 *  scalar type. DEPTH: OpTypeImage Depth = 1 (WGSL texture_depth_*: layout sampleType Depth);
 *  FLOAT: f32 with Depth 0 or 2 (layout Float or UnfilterableFloat); SINT / UINT. */
typedef enum eg_shader_texture_class {
    EG_SHADER_TEXTURE_FLOAT, EG_SHADER_TEXTURE_DEPTH, EG_SHADER_TEXTURE_SINT, EG_SHADER_TEXTURE_UINT
} eg_shader_texture_class_t;

/** Interpolation of an inter-stage variable (issue #3). */
typedef enum eg_shader_interp {
    EG_SHADER_INTERP_PERSPECTIVE, EG_SHADER_INTERP_LINEAR /* NoPerspective */, EG_SHADER_INTERP_FLAT
} eg_shader_interp_t;

typedef enum eg_shader_sampling {
    EG_SHADER_SAMPLING_CENTER, EG_SHADER_SAMPLING_CENTROID, EG_SHADER_SAMPLING_SAMPLE
} eg_shader_sampling_t;

/** Built-ins an entry point uses (issue #3): a bit per built-in, in eg_shader_entry_t's
 *  builtins_in (Input variables) and builtins_out (Output variables, e.g. FragDepth written).
 *  "Uses" means: listed in the OpEntryPoint interface (directly or as a member of a gl_PerVertex
 *  style block; glslang lists only what the entry point references). */
enum {
    EG_SHADER_BUILTIN_POSITION = 1u << 0,        /* vertex out */
    EG_SHADER_BUILTIN_VERTEX_INDEX = 1u << 1,
    EG_SHADER_BUILTIN_INSTANCE_INDEX = 1u << 2,
    EG_SHADER_BUILTIN_FRONT_FACING = 1u << 3,
    EG_SHADER_BUILTIN_FRAG_COORD = 1u << 4,
    EG_SHADER_BUILTIN_FRAG_DEPTH = 1u << 5,
    EG_SHADER_BUILTIN_SAMPLE_ID = 1u << 6,
    EG_SHADER_BUILTIN_SAMPLE_MASK = 1u << 7,
    EG_SHADER_BUILTIN_LOCAL_INVOCATION_ID = 1u << 8,
    EG_SHADER_BUILTIN_LOCAL_INVOCATION_INDEX = 1u << 9,
    EG_SHADER_BUILTIN_GLOBAL_INVOCATION_ID = 1u << 10,
    EG_SHADER_BUILTIN_WORKGROUP_ID = 1u << 11,
    EG_SHADER_BUILTIN_NUM_WORKGROUPS = 1u << 12,
    EG_SHADER_BUILTIN_POINT_SIZE = 1u << 13,
    EG_SHADER_BUILTIN_CLIP_DISTANCE = 1u << 14,
};

/** A texture and a sampler used together by one sampling instruction (issue #3): indices into
 *  the entry's bindings[]. WebGPU forbids a Filtering sampler with an UnfilterableFloat texture. */
typedef struct eg_shader_pair {
    uint16_t texture, sampler;
    uint8_t compare;               /* a Dref instruction */
    uint8_t pad_[3];
} eg_shader_pair_t;

/** A specialization constant (issue #3): pipeline-overridable constants map to SpecIds. */
typedef struct eg_shader_spec_const {
    uint32_t spec_id;              /* SpecId decoration: the WGPUConstantEntry key, in decimal */
    uint32_t result_id;
    uint8_t scalar;                /* eg_shader_scalar_t (OpSpecConstantTrue/False: BOOL) */
    uint8_t pad_[3];
    uint32_t default_bits;         /* default value, 32-bit pattern */
} eg_shader_spec_const_t;

typedef struct eg_shader_binding {
    uint32_t group, binding;       /* DescriptorSet, Binding decorations */
    uint8_t kind;                  /* eg_shader_binding_kind_t */
    uint8_t dim;                   /* textures: SpvDim (1D=0, 2D=1, 3D=2, Cube=3) */
    uint8_t arrayed, multisampled; /* textures: OpTypeImage Arrayed / MS */
    uint8_t sample_type;           /* sampled textures: eg_shader_scalar_t of Sampled Type */
    uint8_t depth;                 /* textures: OpTypeImage Depth operand (0, 1, 2 = unknown) */
    uint8_t non_readable, non_writable; /* storage textures: access from decorations */
    uint32_t format;               /* storage textures: SpvImageFormat */
    /* ---- added by issue #3 (iface): per-entry static use ---- */
    uint8_t used_compare;          /* samplers: used by an OpImage*Dref* (through OpSampledImage):
                                    *   a comparison sampler. textures: compared (depth) */
    uint8_t used_filtered;         /* samplers and textures: used by a non-Dref sampling op
                                    * (OpImageSample*, OpImageGather, OpImageQueryLod) */
    uint8_t texture_class;         /* sampled textures: eg_shader_texture_class_t, what WebGPU's
                                    * sampleType rules need (depth / float / sint / uint) */
    uint8_t view_dim;              /* textures: WGPUTextureViewDimension from dim + arrayed */
    uint32_t texture_format;       /* storage textures: WGPUTextureFormat for `format`; 0 if none */
    uint8_t storage_access;        /* storage textures: WGPUStorageTextureAccess (from
                                    * NonReadable/NonWritable: WriteOnly / ReadOnly / ReadWrite) */
    uint8_t pad_[3];
    uint64_t min_size_B;           /* buffers: WebGPU minimum binding size of the Block: the last
                                    * member's Offset + its size (a runtime array counts one
                                    * element, ArrayStride), rounded up to the block's alignment */
} eg_shader_binding_t;

typedef struct eg_shader_io {
    uint32_t location;
    uint8_t scalar;                /* eg_shader_scalar_t */
    uint8_t components;            /* 1..4 */
    /* ---- added by issue #3 (iface) ---- */
    uint8_t interpolation;         /* eg_shader_interp_t: Flat / NoPerspective decorations */
    uint8_t sampling;              /* eg_shader_sampling_t: Centroid / Sample decorations */
} eg_shader_io_t;

typedef struct eg_shader_entry {
    const char *name;              /* points into the module's words (NUL-terminated there) */
    eg_shader_stage_t stage;
    uint32_t function_id;
    uint32_t workgroup_size[3];    /* LocalSize; {0,0,0} for render stages */
    uint32_t binding_count, input_count, output_count;
    const eg_shader_binding_t *bindings; /* the resources this entry point statically uses: its
                                          * call graph (walked iteratively from function_id)
                                          * references the variable through OpLoad, OpStore,
                                          * OpAccessChain, OpArrayLength, OpImageTexelPointer,
                                          * atomics, OpCopyMemory or as an OpFunctionCall argument */
    const eg_shader_io_t *inputs;        /* Input variables with a Location */
    const eg_shader_io_t *outputs;       /* Output variables with a Location */
    /* ---- added by issue #3 (iface) ---- */
    uint32_t builtins_in, builtins_out;  /* EG_SHADER_BUILTIN_* bits */
    uint32_t pair_count;
    const eg_shader_pair_t *pairs;       /* texture+sampler pairs of its sampling instructions */
    uint32_t workgroup_storage_B;        /* GLCompute: bytes of the Workgroup variables it uses */
    uint8_t depth_replacing;             /* fragment: ExecutionMode DepthReplacing/Greater/Less */
    uint8_t pad_[3];
} eg_shader_entry_t;

typedef struct eg_spirv_module {
    const uint32_t *words;
    uint32_t word_count, version, bound;
    uint32_t inst_count;
    eg_spirv_id_t *ids;            /* bound entries, in the arena */
    uint32_t entry_count;
    eg_shader_entry_t *entries;    /* in the arena */
    /* ---- added by issue #3 (iface) ---- */
    uint32_t spec_const_count;
    const eg_shader_spec_const_t *spec_consts;   /* OpSpecConstant* with a SpecId, in the arena */
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

/* The shared shader IR: one validated entry point of a SPIR-V module, in compact arena tables.
 *
 * The front end (spirv.h) proves a module follows the WebGPU rules; eg_ir_build then turns ONE
 * entry point into flat tables that a backend lowers without re-parsing SPIR-V words: the soft
 * backend compiles them to its lane bytecode; the GPU backends keep using the SPIR-V itself.
 * docs/shader-ir.md describes the tables and their invariants.
 *
 * IDS. Every SPIR-V result id the entry point needs (types, constants, global variables, the
 * reachable functions, their parameters, blocks and instruction results) gets a dense id
 * 1..value_count-1 in module order; 0 means "none". values[id] says what an id is (type,
 * constant, variable, ...). Operands that are ids are renumbered; literal operands are kept.
 *
 * FUNCTIONS are those reachable from the entry point, callee before caller (the validator's
 * FUNCTION_ORDER rule), the entry point last. Blocks are in SPIR-V order (a block after its
 * dominator); each records its structured merge info (OpSelectionMerge / OpLoopMerge are folded
 * into the block and not kept as instructions) and ends with its terminator.
 *
 * MEMORY. Everything lives in the caller's arena; building is one bounded walk (no recursion,
 * no heap). An arena too small fails with a message naming the arena's knob.
 */
#ifndef EG_SHADER_IR_H
#define EG_SHADER_IR_H

#include "kernel/shader/spirv.h"

typedef enum eg_ir_type_kind {
    EG_IR_VOID, EG_IR_BOOL, EG_IR_INT, EG_IR_UINT, EG_IR_FLOAT,
    EG_IR_VECTOR, EG_IR_MATRIX, EG_IR_ARRAY, EG_IR_RUNTIME_ARRAY, EG_IR_STRUCT,
    EG_IR_POINTER, EG_IR_IMAGE, EG_IR_SAMPLER, EG_IR_SAMPLED_IMAGE, EG_IR_FUNCTION
} eg_ir_type_kind_t;

/** Resolved storage class of a pointer or variable (SpvStorageClass values, kept as they are). */
typedef uint32_t eg_ir_storage_t;

/** One struct member: layout decorations (buffer blocks) and member built-ins (gl_PerVertex). */
typedef struct eg_ir_member {
    uint32_t type;
    uint32_t offset_B;          /* Offset decoration (0 when absent) */
    uint32_t matrix_stride_B;   /* MatrixStride (0 when absent) */
    uint8_t  row_major;         /* RowMajor decoration */
    uint8_t  non_writable;
    uint16_t builtin;           /* SpvBuiltIn + 1; 0 = not a built-in */
} eg_ir_member_t;

typedef struct eg_ir_type {
    uint8_t  kind;              /* eg_ir_type_kind_t */
    uint8_t  block;             /* struct decorated Block */
    uint16_t count;             /* vector components, matrix columns, array length, struct members,
                                 * function parameters */
    uint32_t elem;              /* vector/matrix column/array element/pointee/image sampled type/
                                 * function return type */
    uint32_t scalars;           /* 32-bit scalars when flattened (runtime array: of one element) */
    uint32_t stride_B;          /* ArrayStride of arrays (0 when absent) */
    eg_ir_storage_t storage;    /* pointers */
    const eg_ir_member_t *members;  /* struct: [count] */
    const uint32_t *params;     /* function type: parameter types [count] */
    /* images: OpTypeImage operands */
    uint8_t  dim, depth, arrayed, ms, sampled;
    uint32_t format;
} eg_ir_type_t;

typedef struct eg_ir_const {
    uint32_t type;
    uint32_t spec_id;           /* SpecId, or ~0u for a plain constant */
    const uint32_t *scalars;    /* the value flattened to 32-bit scalars ([type.scalars]); bool: 0/1;
                                 * spec constants: their default */
} eg_ir_const_t;

typedef struct eg_ir_var {
    uint32_t id;
    uint32_t type;              /* the variable's pointee type (not its pointer type) */
    eg_ir_storage_t storage;
    uint32_t group, binding;    /* resources: DescriptorSet/Binding, else ~0u */
    uint32_t location, component; /* Input/Output: Location (~0u when absent) */
    uint16_t builtin;           /* SpvBuiltIn + 1; 0 = none (see members for block built-ins) */
    uint8_t  flat, noperspective, centroid, sample;   /* sample: per-sample interpolation */
    uint8_t  non_writable, non_readable;
    uint32_t init;              /* initializer constant id, or 0 */
} eg_ir_var_t;

typedef struct eg_ir_inst {
    uint16_t op;                /* SpvOp */
    uint16_t operand_count;
    uint32_t type;              /* result type id, 0 when none */
    uint32_t result;            /* result id, 0 when none */
    const uint32_t *operands;   /* ids renumbered; literals as in SPIR-V */
} eg_ir_inst_t;

typedef enum eg_ir_merge_kind { EG_IR_MERGE_NONE, EG_IR_MERGE_SELECTION, EG_IR_MERGE_LOOP } eg_ir_merge_kind_t;

typedef struct eg_ir_block {
    uint32_t label;             /* the block's id */
    uint32_t first_inst, inst_count;   /* into eg_ir_t.insts; the last one is the terminator */
    uint8_t  merge_kind;        /* eg_ir_merge_kind_t */
    uint32_t merge, cont;       /* merge block, loop continue target (ids), 0 when none */
} eg_ir_block_t;

typedef struct eg_ir_function {
    uint32_t id;
    uint32_t type;              /* return type */
    uint32_t first_param, param_count;  /* params are consecutive ids */
    uint32_t first_block, block_count;  /* into eg_ir_t.blocks; first = entry block */
} eg_ir_function_t;

typedef enum eg_ir_value_kind {
    EG_IR_VAL_NONE, EG_IR_VAL_TYPE, EG_IR_VAL_CONST, EG_IR_VAL_VAR, EG_IR_VAL_FUNCTION,
    EG_IR_VAL_PARAM, EG_IR_VAL_LABEL, EG_IR_VAL_INST, EG_IR_VAL_EXT_SET
} eg_ir_value_kind_t;

typedef struct eg_ir_value {
    uint8_t  kind;              /* eg_ir_value_kind_t */
    uint32_t type;              /* value's type id (types: 0) */
    uint32_t index;             /* into the table of its kind (params: function index;
                                 * instructions: insts; labels: blocks) */
} eg_ir_value_t;

typedef struct eg_ir {
    eg_shader_stage_t stage;
    uint32_t workgroup_size[3];
    uint8_t  depth_replacing;   /* fragment: DepthReplacing execution mode */
    uint32_t value_count;       /* ids are 1..value_count-1 */
    eg_ir_value_t *values;
    uint32_t type_count, const_count, var_count, function_count, block_count, inst_count;
    eg_ir_type_t *types;
    eg_ir_const_t *consts;
    eg_ir_var_t *vars;          /* module-scope variables (Function ones stay instructions) */
    eg_ir_function_t *functions;/* callee before caller; the entry point is the last */
    eg_ir_block_t *blocks;
    eg_ir_inst_t *insts;
    uint32_t glsl_std_450;      /* id of the GLSL.std.450 import, 0 when absent */
} eg_ir_t;

typedef struct eg_ir_error {
    char message[EG_SPIRV_MESSAGE_MAX];
} eg_ir_error_t;

/** Builds the IR of `entry` (an entry of the parsed, validated module m) into `arena`. False with
 *  err->message filled (naming the arena's knob when it is too small, or the construct the IR
 *  does not represent). */
bool eg_ir_build(const eg_spirv_module_t *m, const eg_shader_entry_t *entry, eg_arena_t *arena,
                 eg_ir_t *out, eg_ir_error_t *err);

static inline const eg_ir_type_t *eg_ir_type(const eg_ir_t *ir, uint32_t id)
{
    return &ir->types[ir->values[id].index];
}
/** Type of a value (constant, variable pointer, instruction result, parameter). */
static inline uint32_t eg_ir_type_of(const eg_ir_t *ir, uint32_t id) { return ir->values[id].type; }
/** Scalars of type `id` when flattened (vec4 = 4, mat3 = 9, struct = sum of members). */
static inline uint32_t eg_ir_scalars(const eg_ir_t *ir, uint32_t type) { return eg_ir_type(ir, type)->scalars; }
/** Scalar kind (EG_IR_BOOL/INT/UINT/FLOAT) at the bottom of a scalar/vector/matrix type. */
eg_ir_type_kind_t eg_ir_scalar_kind(const eg_ir_t *ir, uint32_t type);

#endif /* EG_SHADER_IR_H */

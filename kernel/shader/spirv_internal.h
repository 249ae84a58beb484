/* Shared state and helpers of the SPIR-V front end's files (not exported beyond kernel/shader). */
#ifndef EG_SHADER_SPIRV_INTERNAL_H
#define EG_SHADER_SPIRV_INTERNAL_H

#define EG_SPIRV_HEADER_WORDS_ 5u   /* magic, version, generator, bound, schema */

/* Utility code: SpvHasResultAndType (which words of an instruction hold its result). */
#define SPV_ENABLE_UTILITY_CODE 1
#include <spirv/unified1/spirv.h>

#include "kernel/shader/spirv.h"

/* eg_spirv_id_t.flags */
enum {
    EG_SPIRV_ID_BLOCK = 1u << 0,           /* struct decorated Block */
    EG_SPIRV_ID_BUFFER_BLOCK = 1u << 1,    /* struct decorated BufferBlock */
    EG_SPIRV_ID_HAS_RUNTIME_ARRAY = 1u << 2, /* struct whose last member is a runtime array */
    EG_SPIRV_ID_USES_WORKGROUP = 1u << 3,  /* function touches Workgroup storage (transitively) */
    EG_SPIRV_ID_ENTRY = 1u << 4,           /* function named by an OpEntryPoint */
    EG_SPIRV_ID_ALIGN_SHIFT = 5,           /* bits 5-6: struct's std430 alignment, 2 << code (spirv_layout.c) */
    EG_SPIRV_ID_LAYOUT_UBO = 1u << 7,      /* struct reached from a Uniform block: check std140 */
    EG_SPIRV_ID_LAYOUT_SSBO = 1u << 8,     /* struct reached from a StorageBuffer block: check std430 */
    EG_SPIRV_ID_LAYOUT_UBO_DONE = 1u << 9,
    EG_SPIRV_ID_LAYOUT_SSBO_DONE = 1u << 10,
    EG_SPIRV_ID_USES_BARRIER = 1u << 11,   /* function executes OpControlBarrier (transitively) */
};

/* Logical-layout sections (SPIR-V 2.4), in the order they must appear. */
typedef enum eg_spirv_section {
    SEC_CAPABILITY, SEC_EXTENSION, SEC_EXT_INST_IMPORT, SEC_MEMORY_MODEL, SEC_ENTRY_POINT,
    SEC_EXECUTION_MODE, SEC_DEBUG, SEC_ANNOTATION, SEC_GLOBAL, SEC_FUNCTION
} eg_spirv_section_t;

typedef struct eg_spirv_ctx {
    eg_spirv_module_t *m;
    eg_spirv_error_t *err;
    eg_arena_t *arena;
    uint32_t anno_begin, anno_end;   /* word range of the annotation section */
    uint32_t memory_model;           /* SpvMemoryModel; ~0 until seen */
    uint32_t entry_seen;
} eg_spirv_ctx_t;

/* Fills ctx->err ("rule NAME: instruction #I OpX (result %R): detail") and returns false. */
bool eg_spirv_fail(eg_spirv_ctx_t *c, eg_spirv_rule_t rule, uint32_t at_word, const char *fmt, ...)
    EG_PRINTF(4, 5);
const char *eg_spirv_op_name(uint32_t op);

static inline uint32_t eg_spirv_wc(const eg_spirv_module_t *m, uint32_t at) { return m->words[at] >> 16; }
static inline uint32_t eg_spirv_op(const eg_spirv_module_t *m, uint32_t at) { return m->words[at] & 0xffffu; }
/* Operand word i (word 0 is the opcode word) of the instruction at `at`; 0 past its end. */
static inline uint32_t eg_spirv_word(const eg_spirv_module_t *m, uint32_t at, uint32_t i)
{
    return i < eg_spirv_wc(m, at) ? m->words[at + i] : 0;
}
/* The defining instruction of id (word offset), or 0 when id is out of range or undefined. */
static inline uint32_t eg_spirv_def(const eg_spirv_module_t *m, uint32_t id)
{
    return id && id < m->bound ? m->ids[id].def_at : 0;
}
static inline uint32_t eg_spirv_def_op(const eg_spirv_module_t *m, uint32_t id)
{
    return id && id < m->bound ? m->ids[id].op : 0;
}
/* Index of the word after the literal string starting at word i of the instruction at `at`, or
 * 0 when the string has no NUL inside the instruction. */
uint32_t eg_spirv_string_end(const eg_spirv_module_t *m, uint32_t at, uint32_t i);
/* Finds a Decoration on id (OpDecorate) and returns its first literal through *value. */
bool eg_spirv_find_decoration(const eg_spirv_ctx_t *c, uint32_t id, uint32_t decoration, uint32_t *value);

bool eg_spirv_validate_module(eg_spirv_ctx_t *c);
bool eg_spirv_validate_functions(eg_spirv_ctx_t *c);
bool eg_spirv_validate_layout(eg_spirv_ctx_t *c);
/* One OpDecorate / OpMemberDecorate (spirv_validate_deco.c). */
bool eg_spirv_check_decoration(eg_spirv_ctx_t *c, uint32_t w, uint32_t op);
/* Control flow of the function from the OpFunction at fn_at to the OpFunctionEnd at end_at. */
bool eg_spirv_validate_cfg(eg_spirv_ctx_t *c, uint32_t fn_at, uint32_t end_at);
/* Operand ids of every instruction: defined, and of the kind the opcode's table row says. */
bool eg_spirv_validate_operands(eg_spirv_ctx_t *c);
bool eg_spirv_reflect(eg_spirv_ctx_t *c);

#endif /* EG_SHADER_SPIRV_INTERNAL_H */

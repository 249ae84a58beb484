/* hal/d3d12 TPF emitter internals: the emitter state, scalarized values, token/operand writers. */
#ifndef EG_D3D_TPF_INTERNAL_H
#define EG_D3D_TPF_INTERNAL_H

#include <spirv/unified1/spirv.h>

#include "hal/d3d12/d3d_tpf.h"

/* ---- TPF encoding (d3d11TokenizedProgramFormat; numbers as vkd3d-shader's reader reads them) ---- */
enum {
    TPF_ADD = 0x00, TPF_AND = 0x01, TPF_BREAK = 0x02, TPF_BREAKC = 0x03, TPF_CASE = 0x06,
    TPF_CONTINUE = 0x07, TPF_DEFAULT = 0x0a, TPF_DERIV_RTX = 0x0b, TPF_DERIV_RTY = 0x0c,
    TPF_DISCARD = 0x0d, TPF_DIV = 0x0e, TPF_DP2 = 0x0f, TPF_DP3 = 0x10, TPF_DP4 = 0x11,
    TPF_ELSE = 0x12, TPF_ENDIF = 0x15, TPF_ENDLOOP = 0x16, TPF_ENDSWITCH = 0x17, TPF_EQ = 0x18,
    TPF_EXP = 0x19, TPF_FRC = 0x1a, TPF_FTOI = 0x1b, TPF_FTOU = 0x1c, TPF_GE = 0x1d,
    TPF_IADD = 0x1e, TPF_IF = 0x1f, TPF_IEQ = 0x20, TPF_IGE = 0x21, TPF_ILT = 0x22,
    TPF_IMAD = 0x23, TPF_IMAX = 0x24, TPF_IMIN = 0x25, TPF_IMUL = 0x26, TPF_INE = 0x27,
    TPF_INEG = 0x28, TPF_ISHL = 0x29, TPF_ISHR = 0x2a, TPF_ITOF = 0x2b, TPF_LD = 0x2d,
    TPF_LD2DMS = 0x2e, TPF_LOG = 0x2f, TPF_LOOP = 0x30, TPF_LT = 0x31, TPF_MAD = 0x32,
    TPF_MIN = 0x33, TPF_MAX = 0x34, TPF_MOV = 0x36, TPF_MOVC = 0x37, TPF_MUL = 0x38,
    TPF_NE = 0x39, TPF_NOT = 0x3b, TPF_OR = 0x3c, TPF_RESINFO = 0x3d, TPF_RET = 0x3e,
    TPF_ROUND_NE = 0x40, TPF_ROUND_NI = 0x41, TPF_ROUND_PI = 0x42, TPF_ROUND_Z = 0x43,
    TPF_RSQ = 0x44, TPF_SAMPLE = 0x45, TPF_SAMPLE_C = 0x46, TPF_SAMPLE_C_LZ = 0x47,
    TPF_SAMPLE_L = 0x48, TPF_SAMPLE_D = 0x49, TPF_SAMPLE_B = 0x4a, TPF_SQRT = 0x4b,
    TPF_SWITCH = 0x4c, TPF_SINCOS = 0x4d, TPF_UDIV = 0x4e, TPF_ULT = 0x4f, TPF_UGE = 0x50,
    TPF_UMUL = 0x51, TPF_UMAX = 0x53, TPF_UMIN = 0x54, TPF_USHR = 0x55, TPF_UTOF = 0x56,
    TPF_XOR = 0x57, TPF_DCL_RESOURCE = 0x58, TPF_DCL_CONSTANT_BUFFER = 0x59,
    TPF_DCL_SAMPLER = 0x5a, TPF_DCL_INPUT = 0x5f, TPF_DCL_INPUT_SGV = 0x60,
    TPF_DCL_INPUT_PS = 0x62, TPF_DCL_INPUT_PS_SGV = 0x63, TPF_DCL_INPUT_PS_SIV = 0x64,
    TPF_DCL_OUTPUT = 0x65, TPF_DCL_OUTPUT_SIV = 0x67, TPF_DCL_TEMPS = 0x68,
    TPF_DCL_INDEXABLE_TEMP = 0x69, TPF_DCL_GLOBAL_FLAGS = 0x6a, TPF_GATHER4 = 0x6d,
    TPF_LOD = 0x6c, TPF_SAMPLE_INFO = 0x6f, TPF_BUFINFO = 0x79, TPF_GATHER4_C = 0x7e, TPF_RCP = 0x81,
    TPF_F32TOF16 = 0x82, TPF_F16TOF32 = 0x83, TPF_COUNTBITS = 0x86, TPF_FIRSTBIT_HI = 0x87,
    TPF_FIRSTBIT_LO = 0x88, TPF_FIRSTBIT_SHI = 0x89, TPF_UBFE = 0x8a, TPF_IBFE = 0x8b,
    TPF_BFI = 0x8c, TPF_BFREV = 0x8d, TPF_DCL_THREAD_GROUP = 0x9b, TPF_DCL_UAV_TYPED = 0x9c,
    TPF_DCL_UAV_RAW = 0x9d, TPF_DCL_TGSM_RAW = 0x9f, TPF_DCL_RESOURCE_RAW = 0xa1,
    TPF_LD_UAV_TYPED = 0xa3, TPF_STORE_UAV_TYPED = 0xa4, TPF_LD_RAW = 0xa5, TPF_STORE_RAW = 0xa6,
    TPF_ATOMIC_CMP_STORE = 0xac, TPF_IMM_ATOMIC_IADD = 0xb4, TPF_IMM_ATOMIC_AND = 0xb5,
    TPF_IMM_ATOMIC_OR = 0xb6, TPF_IMM_ATOMIC_XOR = 0xb7, TPF_IMM_ATOMIC_EXCH = 0xb8,
    TPF_IMM_ATOMIC_CMP_EXCH = 0xb9, TPF_IMM_ATOMIC_IMAX = 0xba, TPF_IMM_ATOMIC_IMIN = 0xbb,
    TPF_IMM_ATOMIC_UMAX = 0xbc, TPF_IMM_ATOMIC_UMIN = 0xbd, TPF_SYNC = 0xbe
};
#define TPF_NZ (1u << 18)            /* conditional instructions: test non-zero */
#define TPF_SAT (1u << 13)           /* saturate the destination */

/* Operand (register) types. */
enum {
    TPF_R_TEMP = 0x00, TPF_R_INPUT = 0x01, TPF_R_OUTPUT = 0x02, TPF_R_XTEMP = 0x03, TPF_R_IMM32 = 0x04,
    TPF_R_SAMPLER = 0x06, TPF_R_RESOURCE = 0x07, TPF_R_CB = 0x08, TPF_R_DEPTH = 0x0c, TPF_R_NULL = 0x0d,
    TPF_R_OMASK = 0x0f, TPF_R_UAV = 0x1e, TPF_R_TGSM = 0x1f, TPF_R_THREAD_ID = 0x20,
    TPF_R_GROUP_ID = 0x21, TPF_R_LOCAL_ID = 0x22, TPF_R_COVERAGE = 0x23, TPF_R_LOCAL_INDEX = 0x24
};
#define TPF_SWZ_XYZW 0xe4u

/* D3D_NAME system values (signatures and dcl_*_siv/sgv). */
enum { TPF_NAME_POSITION = 1, TPF_NAME_VERTEX_ID = 6, TPF_NAME_INSTANCE_ID = 8, TPF_NAME_FRONT_FACE = 9,
       TPF_NAME_SAMPLE_INDEX = 10 };

/* ---- values ---- */

/** One 32-bit scalar of a value: a component of a temp (r<t/4>.<t%4>) or an immediate. */
typedef struct tpf_sc {
    uint32_t v;
    uint32_t imm;      /* 1: v is the bits */
} tpf_sc_t;

typedef enum tpf_val_kind { TV_NONE, TV_COMPS, TV_PTR, TV_RES, TV_SIMAGE } tpf_val_kind_t;

typedef struct tpf_val {
    uint8_t kind;      /* tpf_val_kind_t */
    uint16_t n;        /* scalars (TV_COMPS) */
    uint32_t idx;      /* comps index / ptrs index / res index (TV_SIMAGE: image res | sampler res << 16) */
} tpf_val_t;

/* SP_IMAGE: a storage texel (OpImageTexelPointer), only used by atomics: res = the typed UAV,
 * base = comps index of its integer coordinate, mstride_B = the coordinate's scalar count. */
typedef enum tpf_space { SP_REG, SP_XREG, SP_CB, SP_RAW, SP_TGSM, SP_IMAGE } tpf_space_t;

/** A pointer: storage + byte offset (static part + an optional dynamic scalar). REG space
 *  (Function/Private/Input/Output variables) is flattened at 4 bytes a scalar; buffers use their
 *  layout decorations. */
typedef struct tpf_ptr {
    uint8_t space;          /* tpf_space_t */
    uint8_t row_major;      /* the matrix this points into (or is) is row-major */
    uint8_t has_dyn;
    uint16_t res;           /* SP_CB/SP_RAW: resource index; SP_XREG: x#; SP_TGSM: g# */
    uint32_t type;          /* pointee type */
    uint32_t base;          /* SP_REG: comps index of the variable's scalar 0 */
    uint32_t off_B;
    uint32_t mstride_B;     /* matrix stride of the matrix this points into (or is) */
    uint32_t dyn_align;     /* gcd-ish of the dynamic part (power of two) */
    tpf_sc_t dyn;           /* dynamic byte offset */
} tpf_ptr_t;

typedef enum tpf_res_class { RC_CB, RC_SRV_RAW, RC_UAV_RAW, RC_TEX, RC_UAV_TYPED, RC_SAMPLER } tpf_res_class_t;

typedef struct tpf_res {
    uint8_t cls;            /* tpf_res_class_t */
    uint8_t dim;            /* TPF resource dimension (dcl_resource) */
    uint8_t ret;            /* return data type (1 unorm .. 5 float) */
    uint8_t comparison;     /* samplers used with depth comparison */
    uint32_t range;         /* SM 5.1 range id (per class) */
    uint32_t space, reg;
    uint32_t var;           /* IR variable id (0: the sysvals cbuffer) */
} tpf_res_t;

typedef struct tpf_sig_elem {
    uint32_t name;          /* 0 TEXCOORD, else "SV_*" per sysval / target */
    uint32_t index, sysval, comp_type, reg;
    uint8_t mask, rw;
    uint8_t interp;         /* pixel inputs: TPF interpolation mode */
} tpf_sig_elem_t;

/* Registers without signature elements that the shader uses (tpf_t.special). */
enum { SPC_THREAD_ID = 1, SPC_GROUP_ID = 2, SPC_LOCAL_ID = 4, SPC_LOCAL_INDEX = 8, SPC_COVERAGE_IN = 16,
       SPC_DEPTH_OUT = 32, SPC_MASK_OUT = 64 };

#define TPF_MAX_SIG 40u
#define TPF_MAX_RES 64u
#define TPF_MAX_CONSTRUCTS 64u
#define TPF_MAX_XREGS 32u
#define TPF_MAX_TGSM 32u

typedef enum tpf_sig_name { SN_TEXCOORD, SN_POSITION, SN_VERTEX_ID, SN_INSTANCE_ID, SN_FRONT_FACE,
                            SN_SAMPLE_INDEX, SN_TARGET, SN_DEPTH, SN_COVERAGE } tpf_sig_name_t;

/* Structured control flow: the constructs open around the code being emitted. */
typedef enum tpf_cons_kind { CK_IF, CK_LOOP, CK_SWITCH, CK_CALL } tpf_cons_kind_t;
typedef struct tpf_cons {
    uint8_t kind;
    uint8_t in_else;
    uint32_t merge;         /* merge block label (CK_CALL: 0) */
    uint32_t header;        /* CK_LOOP: the header label */
    uint32_t other;         /* CK_IF: the else target (0: none); CK_SWITCH: the switch instruction */
    uint32_t from;          /* CK_IF: the header label (for phi copies into the else branch) */
    uint32_t next;          /* CK_SWITCH: next target to open; CK_CALL: caller's resume instruction */
    uint32_t fn;            /* CK_CALL: callee function index; caller block in `header` */
    uint8_t ret_check;      /* CK_LOOP/CK_SWITCH inside a callee that returns from within: after
                             * closing it, `break` again when the call's return flag is set */
    uint32_t flag;          /* CK_CALL: temp set to ~0 by a return from inside a loop/switch;
                             * CK_LOOP: temp set to ~0 by a break from inside a switch */
    uint8_t brk_check;      /* CK_SWITCH: after closing it, `break` when the loop's flag is set */
} tpf_cons_t;

typedef struct tpf {
    const eg_d3d_tpf_in_t *in;
    const eg_ir_t *ir;
    eg_arena_t *arena;
    eg_d3d_tpf_error_t *err;
    bool failed;
    /* token buffers */
    uint32_t *code; uint32_t code_n, code_cap;
    uint32_t *decl; uint32_t decl_n, decl_cap;
    /* values */
    tpf_val_t *vals;                 /* [value_count] */
    tpf_sc_t *comps; uint32_t comps_n, comps_cap;
    tpf_ptr_t *ptrs; uint32_t ptrs_n, ptrs_cap;
    uint32_t temps;                  /* scalar temps allocated (4 per r#) */
    uint8_t *var_indexed;            /* [value_count]: Function/Private variable needs x# */
    uint8_t *cmp_sampler;            /* [value_count]: sampler variable used for comparison */
    uint8_t *var_used;               /* [value_count]: module variable the entry point accesses */
    uint32_t xreg_n; uint32_t xreg_size[TPF_MAX_XREGS];
    uint32_t tgsm_n; uint32_t tgsm_size_B[TPF_MAX_TGSM];
    tpf_res_t res[TPF_MAX_RES]; uint32_t res_n;
    uint32_t range_n[6];
    int32_t sysvals_res;             /* index of the sysvals cbuffer, -1 until used */
    /* interface */
    tpf_sig_elem_t isig[TPF_MAX_SIG]; uint32_t isig_n;
    tpf_sig_elem_t osig[TPF_MAX_SIG]; uint32_t osig_n;
    uint32_t special;                /* SPC_* */
    uint32_t input_regs;             /* next free input register after the locations */
    /* control flow */
    tpf_cons_t cons[TPF_MAX_CONSTRUCTS]; uint32_t cons_n;
    uint32_t *call_result;           /* [function_count]: caller's result id per active call */
    uint32_t cur_fn;                 /* function being walked */
    uint32_t blk, inst;              /* walk position: block index, instruction index in it */
    bool walking;
    uint32_t cont_end;               /* code_n right after the last `continue` */
    uint32_t brk_end;                /* code_n right after the last `break` */
    bool uses_discard;
} tpf_t;

/* d3d_tpf.c: failures, tokens, temps, values */
bool tpf_fail(tpf_t *t, const char *fmt, ...) EG_PRINTF(2, 3);
bool tpf_unsupported(tpf_t *t, const eg_ir_inst_t *in, const char *what);
/** The imm_atomic_* opcode, value and comparator of a SPIR-V atomic (load = or 0, store =
 *  exchange, ISub = add of the negated value); false for an opcode that is not an atomic. */
bool tpf_atomic_operands(tpf_t *t, const eg_ir_inst_t *in, uint32_t *op, tpf_sc_t *v, tpf_sc_t *cmp);
void tpf_tok(tpf_t *t, uint32_t w);
void tpf_dtok(tpf_t *t, uint32_t w);
uint32_t tpf_temp(tpf_t *t);                     /* one scalar temp */
uint32_t tpf_vtemp(tpf_t *t);                    /* a whole r# (4 scalars), returns the r# */
tpf_val_t *tpf_val(tpf_t *t, uint32_t id);
tpf_sc_t *tpf_comps(tpf_t *t, uint32_t id, uint32_t *n);
tpf_val_t tpf_new_comps(tpf_t *t, uint32_t n);   /* fresh temps */
tpf_val_t tpf_alias_comps(tpf_t *t, uint32_t n); /* slots to fill */
tpf_sc_t *tpf_c(tpf_t *t, const tpf_val_t *v);
tpf_sc_t tpf_imm(uint32_t bits);
tpf_sc_t tpf_tsc(uint32_t temp);
uint32_t tpf_new_ptr(tpf_t *t, const tpf_ptr_t *p);

/* Instruction writer: operands are appended between tpf_begin and tpf_end. */
void tpf_begin(tpf_t *t, uint32_t opcode_token);
void tpf_end(tpf_t *t);
void tpf_o_dst(tpf_t *t, uint32_t temp);         /* r#.c of one scalar temp */
void tpf_o_dstv(tpf_t *t, uint32_t reg, uint32_t mask);
void tpf_o_src(tpf_t *t, tpf_sc_t s);            /* scalar temp (select_1) or l(bits) */
void tpf_o_srcv(tpf_t *t, uint32_t reg, uint32_t swz);
void tpf_o_imm4(tpf_t *t, const uint32_t v[4]);
void tpf_o_reg(tpf_t *t, uint32_t type, uint32_t order, const uint32_t *idx, uint32_t comps_mode_bits);
void tpf_o_res(tpf_t *t, uint32_t res, uint32_t swz);   /* t#/u#/s#/cb# of res[res] (2D index) */
/* Emits op dst_temp <- srcs (scalars). */
void tpf_op1(tpf_t *t, uint32_t op, uint32_t dst, tpf_sc_t a);
void tpf_op2(tpf_t *t, uint32_t op, uint32_t dst, tpf_sc_t a, tpf_sc_t b);
void tpf_op3(tpf_t *t, uint32_t op, uint32_t dst, tpf_sc_t a, tpf_sc_t b, tpf_sc_t c);
tpf_sc_t tpf_mov_new(tpf_t *t, tpf_sc_t a);
tpf_sc_t tpf_sel(tpf_t *t, tpf_sc_t c, tpf_sc_t a, tpf_sc_t b);
/* Packs up to 4 scalars into one r# (x, y, z, w); missing ones are 0. */
uint32_t tpf_pack(tpf_t *t, const tpf_sc_t *s, uint32_t n);
uint32_t tpf_sysvals(tpf_t *t);                  /* res index of the sysvals cbuffer */
tpf_sc_t tpf_cb_load(tpf_t *t, uint32_t res, uint32_t row, uint32_t comp);

/* d3d_tpf_container.c */
bool tpf_container(tpf_t *t, eg_d3d_tpf_out_t *out);

/* d3d_tpf_io.c: module variables (inputs are read into temps here), epilogue, declarations */
bool tpf_globals(tpf_t *t);
bool tpf_epilogue(tpf_t *t);
bool tpf_declare(tpf_t *t);
uint32_t tpf_res_of(tpf_t *t, const eg_ir_var_t *v, tpf_res_class_t cls);

/* d3d_tpf_flow.c */
bool tpf_walk(tpf_t *t);

/* d3d_tpf_alu.c */
bool tpf_alu(tpf_t *t, const eg_ir_inst_t *in, bool *handled);
bool tpf_ext(tpf_t *t, const eg_ir_inst_t *in);
tpf_sc_t tpf_bool_const(uint32_t v);

/* d3d_tpf_mem.c */
bool tpf_mem(tpf_t *t, const eg_ir_inst_t *in, bool *handled);
bool tpf_image(tpf_t *t, const eg_ir_inst_t *in, bool *handled);
/* d3d_tpf_image.c: an atomic (SPIR-V 3.32.18) whose pointer is a storage texel (SP_IMAGE). */
bool tpf_image_atomic(tpf_t *t, const eg_ir_inst_t *in, const tpf_ptr_t *p);
bool tpf_prescan(tpf_t *t);
void tpf_load_ptr(tpf_t *t, const tpf_ptr_t *p, tpf_sc_t *out, uint32_t n);
void tpf_store_ptr(tpf_t *t, const tpf_ptr_t *p, const tpf_sc_t *src, uint32_t n);
tpf_val_t tpf_var_regs(tpf_t *t, uint32_t type, uint32_t init);

#endif /* EG_D3D_TPF_INTERNAL_H */

/* Shader modules: the Impl struct (SPIR-V words; the front end's result later).
 *
 * The module copies the application's SPIR-V into its own slot (EMGPU_MAX_SPIRV_WORDS words),
 * so the caller's buffer may be freed after wgpuDeviceCreateShaderModule returns. Backends read
 * `code`/`word_count`; they never see WGSL (emgpu accepts SPIR-V only). The SPIR-V front end
 * (kernel/shader) parses, validates and reflects the module into `spirv`, in the slot's arena.
 *
 * Compilation info (wgpuShaderModuleGetCompilationInfo): a module that was rejected keeps the
 * reason as one WGPUCompilationMessage (type Error, the validation error's text); a valid one
 * has no message. lineNum and linePos are 0 (SPIR-V has no source lines); offset and length
 * are the byte range of the failing instruction inside the SPIR-V words (instruction word
 * offset * 4, word count * 4), or 0 and 0 when the failure is not at one instruction (header,
 * source chaining, a missing entry point). Both live in the slot: `info` stays valid while
 * the module is alive.
 */
#ifndef EG_API_SHADER_MODULE_H
#define EG_API_SHADER_MODULE_H

#include "kernel/api/object.h"
#include "kernel/shader/spirv.h"

#define EG_SPIRV_MAGIC 0x07230203u
#define EG_SPIRV_HEADER_WORDS 5u   /* magic, version, generator, bound, schema */

struct WGPUShaderModuleImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
    uint32_t word_count;      /* SPIR-V words in code (>= EG_SPIRV_HEADER_WORDS when valid) */
    uint32_t version;         /* header word 1: 0x00MMmm00 */
    const uint32_t *code;     /* points at words[] */
    uint32_t words[EMGPU_MAX_SPIRV_WORDS];
    eg_spirv_module_t spirv;  /* front end result (kernel/shader): entry points, reflection */
    uint32_t spirv_mem[EMGPU_SHADER_ARENA_BYTES / 4];   /* its arena (EMGPU_SHADER_ARENA_BYTES) */
    WGPUCompilationInfo info;             /* 0 or 1 message */
    WGPUCompilationMessage message;       /* the rejection, when there is one */
    char message_text[EMGPU_ERROR_MESSAGE_MAX];
};

/** True when the valid module has an entry point `name` for `stage` ("" = its only one). */
bool eg_shader_module_has_entry(const struct WGPUShaderModuleImpl *sm, eg_shader_stage_t stage,
                                const char *name);

#endif /* EG_API_SHADER_MODULE_H */

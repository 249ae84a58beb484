/* Shader modules: the Impl struct (SPIR-V words; the front end's result later).
 *
 * The module copies the application's SPIR-V into its own slot (EMGPU_MAX_SPIRV_WORDS words),
 * so the caller's buffer may be freed after wgpuDeviceCreateShaderModule returns. Backends read
 * `code`/`word_count`; they never see WGSL (emgpu accepts SPIR-V only). Only the header is
 * checked so far: the SPIR-V front end (kernel/shader, TODO(#3)) will parse, validate and
 * reflect the module and attach its result here.
 */
#ifndef EG_API_SHADER_MODULE_H
#define EG_API_SHADER_MODULE_H

#include "kernel/api/object.h"

#define EG_SPIRV_MAGIC 0x07230203u
#define EG_SPIRV_HEADER_WORDS 5u   /* magic, version, generator, bound, schema */

struct WGPUShaderModuleImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
    uint32_t word_count;      /* SPIR-V words in code (>= EG_SPIRV_HEADER_WORDS when valid) */
    uint32_t version;         /* header word 1: 0x00MMmm00 */
    const uint32_t *code;     /* points at words[] */
    uint32_t words[EMGPU_MAX_SPIRV_WORDS];
};

#endif /* EG_API_SHADER_MODULE_H */

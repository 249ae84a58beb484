/* Shader modules: SPIR-V intake (copy and header checks) and the module's entry points. */
#include "kernel/api/shader_module.h"

#include "kernel/api/bind_group_layout.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"

/* Finds the one source struct in the chain. SPIR-V is the only accepted source; WGSL gets its
 * own message because it is what most samples pass. */
static bool find_source(const eg_vctx_t *v, const WGPUShaderModuleDescriptor *d,
                        const WGPUShaderSourceSPIRV **out)
{
    *out = NULL;
    for (const WGPUChainedStruct *c = d->nextInChain; c; c = c->next) {
        EG_CHECK(v, c->sType != WGPUSType_ShaderSourceWGSL, SM_WGSL_UNSUPPORTED,
                 "WGSL is not supported: emgpu accepts SPIR-V only (WGPUShaderSourceSPIRV)");
        EG_CHECK(v, c->sType == WGPUSType_ShaderSourceSPIRV, UNKNOWN_STYPE,
                 "nextInChain: sType 0x%x is not accepted (expected WGPUSType_ShaderSourceSPIRV)",
                 (unsigned)c->sType);
        EG_CHECK(v, *out == NULL, UNKNOWN_STYPE, "nextInChain: WGPUShaderSourceSPIRV chained twice");
        *out = (const WGPUShaderSourceSPIRV *)(const void *)c;
    }
    EG_CHECK(v, *out != NULL, SM_NO_SOURCE,
             "no source: chain a WGPUShaderSourceSPIRV (sType ShaderSourceSPIRV) to nextInChain");
    return true;
}

/* Spec: createShaderModule() accepts any code and reports problems through compilation info;
 * in the C API a module that fails to parse is an invalid object with a validation error.
 * Until the SPIR-V front end exists only the header is checked. TODO(#3): parse the module
 * (kernel/shader): WebGPU execution environment rules, entry points, reflection. */
static bool validate_spirv(const eg_vctx_t *v, const WGPUShaderSourceSPIRV *src)
{
    EG_CHECK(v, src->code != NULL && src->codeSize > 0, SM_SPIRV_EMPTY,
             "WGPUShaderSourceSPIRV: code is %s and codeSize is %u; both must be set",
             src->code ? "set" : "NULL", src->codeSize);
    EG_CHECK(v, src->codeSize >= EG_SPIRV_HEADER_WORDS, SM_SPIRV_HEADER,
             "WGPUShaderSourceSPIRV.codeSize %u words is shorter than the 5-word SPIR-V header "
             "(codeSize counts 32-bit words, not bytes)", src->codeSize);
    EG_CHECK(v, src->code[0] == EG_SPIRV_MAGIC, SM_SPIRV_MAGIC,
             "WGPUShaderSourceSPIRV.code[0] is 0x%08x, not the SPIR-V magic number 0x07230203%s",
             src->code[0], src->code[0] == 0x03022307u ? " (the words are byte-swapped)" : "");
    if (src->codeSize > EMGPU_MAX_SPIRV_WORDS)
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                       "WGPUShaderSourceSPIRV.codeSize %u words exceeds what a module holds "
                       "(EMGPU_MAX_SPIRV_WORDS = %u)", src->codeSize, (unsigned)EMGPU_MAX_SPIRV_WORDS);
    return true;
}

static void destroy_sm(void *object)
{
    struct WGPUShaderModuleImpl *sm = object;
    struct WGPUDeviceImpl *dev = sm->obj.device;
    if (!sm->obj.invalid) dev->hal->shader_module_destroy(dev->hal_dev, sm);
    eg_object_free(sm);
}

WGPUShaderModule wgpuDeviceCreateShaderModule(WGPUDevice device, WGPUShaderModuleDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateShaderModule", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    struct WGPUShaderModuleImpl *sm = eg_object_alloc(&v, device, EG_KIND_SHADER_MODULE);
    if (!sm) return NULL;
    eg_object_set_label(&sm->obj, descriptor->label);
    v.label = sm->obj.label;
    const WGPUShaderSourceSPIRV *src;
    if (!find_source(&v, descriptor, &src) || !validate_spirv(&v, src)) {
        sm->obj.invalid = 1;
        return sm;
    }
    eg_memcpy(sm->words, src->code, (size_t)src->codeSize * sizeof(uint32_t));
    sm->word_count = src->codeSize;
    sm->version = sm->words[1];
    sm->code = sm->words;
    /* The SPIR-V front end: parse, WebGPU execution-environment rules, reflection. */
    eg_arena_t arena;
    eg_spirv_error_t err;
    eg_arena_init(&arena, "shader module", "EMGPU_SHADER_ARENA_BYTES", sm->spirv_mem, sizeof sm->spirv_mem);
    if (!eg_spirv_parse(&sm->spirv, sm->words, sm->word_count, &arena, &err)) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_SM_SPIRV_INVALID, "%s", err.message);
        sm->obj.invalid = 1;
        return sm;
    }
    eg_status_t st = device->hal->shader_module_create(device->hal_dev, sm);
    if (st != EG_STATUS_OK) sm->obj.invalid = !eg_binding_hal_fail(&v, st, "shader module");
    return sm;
}

bool eg_shader_module_has_entry(const struct WGPUShaderModuleImpl *sm, eg_shader_stage_t stage,
                                const char *name)
{
    return !sm->obj.invalid && eg_spirv_find_entry(&sm->spirv, stage, name) != NULL;
}

void wgpuShaderModuleSetLabel(WGPUShaderModule shaderModule, WGPUStringView label)
{
    if (!eg_handle_live(shaderModule, EG_KIND_SHADER_MODULE, "wgpuShaderModuleSetLabel")) return;
    eg_object_set_label(&shaderModule->obj, label);
}

void wgpuShaderModuleAddRef(WGPUShaderModule shaderModule)
{
    if (!eg_handle_live(shaderModule, EG_KIND_SHADER_MODULE, "wgpuShaderModuleAddRef")) return;
    eg_object_ref(shaderModule);
}

void wgpuShaderModuleRelease(WGPUShaderModule shaderModule)
{
    if (!eg_handle_live(shaderModule, EG_KIND_SHADER_MODULE, "wgpuShaderModuleRelease")) return;
    eg_object_unref(shaderModule, destroy_sm);
}

/* Shader modules: SPIR-V intake, the front end's verdict, entry points and compilation info. */
#include "kernel/api/shader_module.h"

#include "kernel/api/bind_group_layout.h"
#include "kernel/api/device.h"
#include "kernel/api/future.h"
#include "kernel/api/instance.h"
#include "kernel/base/fmt.h"

/* Rejects the module: keeps the text as its compilation message (byte range offset/length in
 * the SPIR-V, 0/0 when not at an instruction) and dispatches the same text as the error. */
static bool reject(const eg_vctx_t *v, struct WGPUShaderModuleImpl *sm, WGPUErrorType type, eg_error_code_t code,
                   uint64_t offset_B, uint64_t length_B, const char *fmt, ...) EG_PRINTF(7, 8);
static bool reject(const eg_vctx_t *v, struct WGPUShaderModuleImpl *sm, WGPUErrorType type, eg_error_code_t code,
                   uint64_t offset_B, uint64_t length_B, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = eg_vfmt(sm->message_text, sizeof sm->message_text, fmt, ap);
    va_end(ap);
    sm->message.message = (WGPUStringView){ sm->message_text, n };
    sm->message.type = WGPUCompilationMessageType_Error;
    sm->message.offset = offset_B;
    sm->message.length = length_B;
    sm->info.messageCount = 1;
    sm->info.messages = &sm->message;
    sm->obj.invalid = 1;
    return eg_fail(v, type, code, "%s", sm->message_text);
}

/* Finds the one source struct in the chain. SPIR-V is the only accepted source; WGSL gets its
 * own message because it is what most samples pass. */
static bool find_source(const eg_vctx_t *v, struct WGPUShaderModuleImpl *sm, const WGPUShaderModuleDescriptor *d,
                        const WGPUShaderSourceSPIRV **out)
{
    *out = NULL;
    for (const WGPUChainedStruct *c = d->nextInChain; c; c = c->next) {
        if (c->sType == WGPUSType_ShaderSourceWGSL)
            return reject(v, sm, WGPUErrorType_Validation, EG_E_SM_WGSL_UNSUPPORTED, 0, 0,
                          "WGSL is not supported: emgpu accepts SPIR-V only (WGPUShaderSourceSPIRV)");
        if (c->sType != WGPUSType_ShaderSourceSPIRV)
            return reject(v, sm, WGPUErrorType_Validation, EG_E_UNKNOWN_STYPE, 0, 0,
                          "nextInChain: sType 0x%x is not accepted (expected WGPUSType_ShaderSourceSPIRV)",
                          (unsigned)c->sType);
        if (*out)
            return reject(v, sm, WGPUErrorType_Validation, EG_E_UNKNOWN_STYPE, 0, 0,
                          "nextInChain: WGPUShaderSourceSPIRV chained twice");
        *out = (const WGPUShaderSourceSPIRV *)(const void *)c;
    }
    if (!*out)
        return reject(v, sm, WGPUErrorType_Validation, EG_E_SM_NO_SOURCE, 0, 0,
                      "no source: chain a WGPUShaderSourceSPIRV (sType ShaderSourceSPIRV) to nextInChain");
    return true;
}

/* Spec: createShaderModule() accepts any code and reports problems through compilation info;
 * in the C API a module that fails is also an invalid object with a validation error. These
 * are the checks before the front end runs: the words exist and fit the slot. */
static bool validate_spirv(const eg_vctx_t *v, struct WGPUShaderModuleImpl *sm, const WGPUShaderSourceSPIRV *src)
{
    if (!src->code || src->codeSize == 0)
        return reject(v, sm, WGPUErrorType_Validation, EG_E_SM_SPIRV_EMPTY, 0, 0,
                      "WGPUShaderSourceSPIRV: code is %s and codeSize is %u; both must be set",
                      src->code ? "set" : "NULL", src->codeSize);
    if (src->codeSize < EG_SPIRV_HEADER_WORDS)
        return reject(v, sm, WGPUErrorType_Validation, EG_E_SM_SPIRV_HEADER, 0, 0,
                      "WGPUShaderSourceSPIRV.codeSize %u words is shorter than the 5-word SPIR-V header "
                      "(codeSize counts 32-bit words, not bytes)", src->codeSize);
    if (src->code[0] != EG_SPIRV_MAGIC)
        return reject(v, sm, WGPUErrorType_Validation, EG_E_SM_SPIRV_MAGIC, 0, 4,
                      "WGPUShaderSourceSPIRV.code[0] is 0x%08x, not the SPIR-V magic number 0x07230203%s",
                      src->code[0], src->code[0] == 0x03022307u ? " (the words are byte-swapped)" : "");
    if (src->codeSize > EMGPU_MAX_SPIRV_WORDS)
        return reject(v, sm, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND, 0, 0,
                      "WGPUShaderSourceSPIRV.codeSize %u words exceeds what a module holds "
                      "(EMGPU_MAX_SPIRV_WORDS = %u)", src->codeSize, (unsigned)EMGPU_MAX_SPIRV_WORDS);
    return true;
}

/* Word offset of instruction `index` (0 = the first after the header), or 0 when the walk does
 * not reach it. The front end parsed everything before a failing instruction, so the counts
 * up to it are sane; the walk still stops on a zero word count. */
static uint32_t inst_word_offset(const uint32_t *w, uint32_t word_count, uint32_t index)
{
    uint32_t at = EG_SPIRV_HEADER_WORDS;
    for (uint32_t i = 0; i < index && at < word_count; i++) {
        uint32_t wc = w[at] >> 16;
        if (wc == 0) return 0;
        at += wc;
    }
    return at < word_count ? at : 0;
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
    if (!find_source(&v, sm, descriptor, &src) || !validate_spirv(&v, sm, src)) return sm;
    eg_memcpy(sm->words, src->code, (size_t)src->codeSize * sizeof(uint32_t));
    sm->word_count = src->codeSize;
    sm->version = sm->words[1];
    sm->code = sm->words;
    /* The SPIR-V front end: parse, WebGPU execution-environment rules, reflection. */
    eg_arena_t arena;
    eg_spirv_error_t err;
    eg_arena_init(&arena, "shader module", "EMGPU_SHADER_ARENA_BYTES", sm->spirv_mem, sizeof sm->spirv_mem);
    if (!eg_spirv_parse(&sm->spirv, sm->words, sm->word_count, &arena, &err)) {
        bool at_inst = err.opcode != 0 || err.result_id != 0;
        uint32_t at = at_inst ? inst_word_offset(sm->words, sm->word_count, err.inst_index) : 0;
        uint32_t len = at ? (sm->words[at] >> 16) : 0;
        reject(&v, sm, WGPUErrorType_Validation, EG_E_SM_SPIRV_INVALID, (uint64_t)at * 4u, (uint64_t)len * 4u,
               "%s", err.message);
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

/* ---- compilation info ---- */

/* Runs just before the callback: the module must still be the one the future was made for
 * (result.type holds its {index, gen} ref). A module released before delivery answers
 * CallbackCancelled with no info, since its slot (holding the info) may be reused. */
static void info_deliver(eg_future_slot_t *f)
{
    struct WGPUShaderModuleImpl *sm = f->hook_object;
    eg_pool_t *pool = eg_pool_of(sm, EG_KIND_SHADER_MODULE);
    eg_ref_t ref = { (uint16_t)(f->result.type & 0xffffu), (uint16_t)(f->result.type >> 16) };
    if (!pool || eg_pool_resolve(pool, ref) != sm) {
        f->result.status = WGPUCompilationInfoRequestStatus_CallbackCancelled;
        f->result.info = NULL;
        return;
    }
    f->result.info = &sm->info;
}

/* Spec getCompilationInfo(): resolves with the module's messages; an invalid module answers
 * too (its message says why it was rejected). The future completes at once. */
WGPUFuture wgpuShaderModuleGetCompilationInfo(WGPUShaderModule shaderModule, WGPUCompilationInfoCallbackInfo callbackInfo)
{
    WGPUFuture f = { 0 };
    if (!eg_handle_live(shaderModule, EG_KIND_SHADER_MODULE, "wgpuShaderModuleGetCompilationInfo")) {
        if (callbackInfo.callback)
            callbackInfo.callback(WGPUCompilationInfoRequestStatus_CallbackCancelled, NULL,
                                  callbackInfo.userdata1, callbackInfo.userdata2);
        return f;
    }
    struct WGPUDeviceImpl *dev = shaderModule->obj.device;
    eg_ref_t ref = eg_pool_ref(eg_pool_of(shaderModule, EG_KIND_SHADER_MODULE), shaderModule);
    eg_future_desc_t fd;
    eg_memset(&fd, 0, sizeof fd);
    fd.kind = EG_FUTURE_COMPILATION_INFO;
    fd.callback_info = &callbackInfo;
    fd.device = dev;
    fd.on_deliver = info_deliver;
    fd.hook_object = shaderModule;
    fd.result.status = WGPUCompilationInfoRequestStatus_Success;
    fd.result.type = (uint32_t)ref.index | (uint32_t)ref.gen << 16;
    fd.result.info = &shaderModule->info;
    f.id = eg_future_add(dev->instance, &fd);
    return f;
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

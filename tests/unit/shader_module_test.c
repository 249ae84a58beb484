/* Tests for wgpuDeviceCreateShaderModule: SPIR-V intake and header checks. */
#include "config/emgpu_config.h"
#include "kernel/api/shader_module.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/test_spirv.h"
#include "tests/shaders/spv_embed.h"

/* The smallest header: magic, version 1.3, generator 0, id bound 1, schema 0 (SPIR-V spec §2.3). */
static const uint32_t tiny_spirv[5] = { 0x07230203u, 0x00010300u, 0u, 1u, 0u };

static WGPUShaderModule make_module(WGPUDevice d, const uint32_t *code, uint32_t words)
{
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = code;
    src.codeSize = words;
    WGPUShaderModuleDescriptor desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    desc.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &desc);
}

EG_TEST(shader_module, spirv_copied)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint32_t words[EG_TEST_SPIRV_MIN_WORDS];
    for (uint32_t i = 0; i < EG_TEST_SPIRV_MIN_WORDS; i++) words[i] = eg_test_spirv_min[i];
    WGPUShaderModule m = make_module(d, words, EG_TEST_SPIRV_MIN_WORDS);
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(m != NULL);
    words[0] = 0;                                     /* the module keeps its own copy */
    EG_EXPECT_EQ_U(m->word_count, EG_TEST_SPIRV_MIN_WORDS);
    EG_EXPECT_EQ_U(m->code[0], EG_SPIRV_MAGIC);
    wgpuShaderModuleAddRef(m);
    wgpuShaderModuleRelease(m);
    wgpuShaderModuleSetLabel(m, (WGPUStringView){ "vs", 2 });
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

EG_TEST(shader_module, source_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
    wgsl.code = (WGPUStringView){ "@vertex fn main() {}", WGPU_STRLEN };
    WGPUShaderModuleDescriptor desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    desc.nextInChain = &wgsl.chain;
    WGPUShaderModule m = wgpuDeviceCreateShaderModule(d, &desc);
    EG_EXPECT(m != NULL);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_WGSL_UNSUPPORTED, "WGSL is not supported");
    wgpuShaderModuleRelease(m);
    desc.nextInChain = NULL;
    m = wgpuDeviceCreateShaderModule(d, &desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_NO_SOURCE, "WGPUShaderSourceSPIRV");
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

EG_TEST(shader_module, header_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUShaderModule m = make_module(d, NULL, 5);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_SPIRV_EMPTY, "code is NULL");
    wgpuShaderModuleRelease(m);
    m = make_module(d, tiny_spirv, 0);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_SPIRV_EMPTY, "codeSize is 0");
    wgpuShaderModuleRelease(m);
    m = make_module(d, tiny_spirv, 4);                /* shorter than the 5-word header */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_SPIRV_HEADER, "codeSize 4");
    wgpuShaderModuleRelease(m);
    static const uint32_t swapped[5] = { 0x03022307u, 0x00010300u, 0u, 1u, 0u };
    m = make_module(d, swapped, 5);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_SPIRV_MAGIC, "byte-swapped");
    wgpuShaderModuleRelease(m);
    static uint32_t big[EMGPU_MAX_SPIRV_WORDS + 1] = { 0x07230203u, 0x00010300u, 0u, 1u, 0u };
    m = make_module(d, big, EMGPU_MAX_SPIRV_WORDS + 1);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, INLINE_BOUND, "EMGPU_MAX_SPIRV_WORDS");
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

EG_TEST(shader_module, pool_capacity_plus_one)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static WGPUShaderModule ms[EMGPU_MAX_SHADER_MODULES];
    for (uint32_t i = 0; i < EMGPU_MAX_SHADER_MODULES; i++) ms[i] = make_module(d, eg_test_spirv_min, EG_TEST_SPIRV_MIN_WORDS);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(make_module(d, eg_test_spirv_min, EG_TEST_SPIRV_MIN_WORDS) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_SHADER_MODULES");
    for (uint32_t i = 0; i < EMGPU_MAX_SHADER_MODULES; i++) wgpuShaderModuleRelease(ms[i]);
    eg_test_device_release();
}

/* ---- wgpuShaderModuleGetCompilationInfo ---- */

typedef struct info_seen {
    uint32_t calls;
    WGPUCompilationInfoRequestStatus status;
    size_t count;
    WGPUCompilationMessageType type;
    uint64_t offset, length;
    char text[96];
} info_seen_t;

static void on_info(WGPUCompilationInfoRequestStatus status, struct WGPUCompilationInfo const *info,
                    void *userdata1, void *userdata2)
{
    (void)userdata2;
    info_seen_t *s = userdata1;
    s->calls++;
    s->status = status;
    s->count = info ? info->messageCount : 0;
    if (info && info->messageCount) {
        s->type = info->messages[0].type;
        s->offset = info->messages[0].offset;
        s->length = info->messages[0].length;
        size_t n = info->messages[0].message.length < sizeof s->text - 1 ? info->messages[0].message.length
                                                                         : sizeof s->text - 1;
        for (size_t i = 0; i < n; i++) s->text[i] = info->messages[0].message.data[i];
        s->text[n] = '\0';
    }
}

static WGPUFuture get_info(WGPUShaderModule m, WGPUCallbackMode mode, info_seen_t *s)
{
    WGPUCompilationInfoCallbackInfo ci = WGPU_COMPILATION_INFO_CALLBACK_INFO_INIT;
    ci.mode = mode;
    ci.callback = on_info;
    ci.userdata1 = s;
    return wgpuShaderModuleGetCompilationInfo(m, ci);
}

EG_TEST(shader_module, compilation_info_modes_and_messages)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUInstance inst = eg_test_instance();
    WGPUShaderModule ok = make_module(d, eg_test_spirv_min, EG_TEST_SPIRV_MIN_WORDS);
    info_seen_t s = { 0 };
    get_info(ok, WGPUCallbackMode_AllowSpontaneous, &s);            /* complete at once: delivered inside */
    EG_EXPECT_EQ_U(s.calls, 1);
    EG_EXPECT_EQ_U(s.status, WGPUCompilationInfoRequestStatus_Success);
    EG_EXPECT_EQ_U(s.count, 0);                                     /* a valid module has no message */
    /* An invalid module still answers. OpCapability Shader (instruction 0, words 5-6) becomes
     * Capability 5 (Linkage): the failing instruction is bytes [20, 28) of the SPIR-V. */
    uint32_t words[EG_TEST_SPIRV_MIN_WORDS];
    for (uint32_t i = 0; i < EG_TEST_SPIRV_MIN_WORDS; i++) words[i] = eg_test_spirv_min[i];
    words[6] = 5;
    WGPUShaderModule bad = make_module(d, words, EG_TEST_SPIRV_MIN_WORDS);
    EG_EXPECT(eg_test_err.count == 1);
    eg_test_errors_reset();
    s = (info_seen_t){ 0 };
    get_info(bad, WGPUCallbackMode_AllowProcessEvents, &s);
    EG_EXPECT_EQ_U(s.calls, 0);                                     /* waits for ProcessEvents */
    wgpuInstanceProcessEvents(inst);
    EG_EXPECT_EQ_U(s.calls, 1);
    EG_EXPECT_EQ_U(s.count, 1);
    EG_EXPECT_EQ_U(s.type, WGPUCompilationMessageType_Error);
    EG_EXPECT_EQ_U(s.offset, 20);
    EG_EXPECT_EQ_U(s.length, 8);
    EG_EXPECT_STR_CONTAINS(s.text, "apabilit");
    s = (info_seen_t){ 0 };
    WGPUFuture f = get_info(ok, WGPUCallbackMode_WaitAnyOnly, &s);
    wgpuInstanceProcessEvents(inst);
    EG_EXPECT_EQ_U(s.calls, 0);                                     /* WaitAnyOnly ignores ProcessEvents */
    WGPUFutureWaitInfo wi = { f, 0 };
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(inst, 1, &wi, 0), WGPUWaitStatus_Success);
    EG_EXPECT_EQ_U(s.calls, 1);
    EG_EXPECT_EQ_U(s.status, WGPUCompilationInfoRequestStatus_Success);
    s = (info_seen_t){ 0 };
    f = get_info(bad, WGPUCallbackMode_WaitAnyOnly, &s);
    wgpuShaderModuleRelease(bad);                                   /* released before delivery */
    wi.future = f;
    wi.completed = 0;
    wgpuInstanceWaitAny(inst, 1, &wi, 0);
    EG_EXPECT_EQ_U(s.calls, 1);
    EG_EXPECT_EQ_U(s.status, WGPUCompilationInfoRequestStatus_CallbackCancelled);
    wgpuShaderModuleRelease(ok);
    eg_test_device_release();
}

EG_TEST(shader_module, compilation_info_of_a_wgsl_module)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
    wgsl.code = (WGPUStringView){ "@compute @workgroup_size(1) fn main() {}", WGPU_STRLEN };
    WGPUShaderModuleDescriptor desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    desc.nextInChain = &wgsl.chain;
    WGPUShaderModule m = wgpuDeviceCreateShaderModule(d, &desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_WGSL_UNSUPPORTED, "WGSL");
    info_seen_t s = { 0 };
    get_info(m, WGPUCallbackMode_AllowSpontaneous, &s);
    EG_EXPECT_EQ_U(s.calls, 1);
    EG_EXPECT_EQ_U(s.count, 1);                           /* not at an instruction: offset/length 0 */
    EG_EXPECT_EQ_U(s.offset, 0);
    EG_EXPECT_EQ_U(s.length, 0);
    EG_EXPECT_STR_CONTAINS(s.text, "SPIR-V only");
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

/* Copies an embedded test shader and changes one instruction: `op` is the opcode to find, `word`
 * the word of it to set (0 = the opcode word's low half), `value` the new value. */
static uint32_t patched_words[4096];
static uint32_t patch_first(const char *name, uint32_t op, uint32_t word, uint32_t value)
{
    const eg_test_spv_t *s = eg_test_spv(name);
    if (!s || s->word_count > 4096) return 0;
    for (uint32_t i = 0; i < s->word_count; i++) patched_words[i] = s->words[i];
    for (uint32_t w = 5; w < s->word_count && (patched_words[w] >> 16); w += patched_words[w] >> 16) {
        if ((patched_words[w] & 0xffffu) != op) continue;
        if (word == 0) patched_words[w] = (patched_words[w] & 0xffff0000u) | value;
        else patched_words[w + word] = value;
        return s->word_count;
    }
    return 0;
}

/* Instructions no WebGPU module may contain, though their opcodes exist: GLSL.std.450 IMix (47,
 * "Reserved" in the extended instruction set's spec) and InterpolateAt* (76-78, capability
 * InterpolationFunction), and OpPtrEqual (401, VariablePointers). Taken from a valid shader
 * (scene_ui.frag uses GLSL.std.450) with one word changed. */
EG_TEST(shader_module, reserved_and_capability_gated_instructions_rejected)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static const struct { uint32_t op, word, value; const char *msg; } cases[] = {
        { 12u, 4u, 47u, "IMix is reserved" },              /* OpExtInst: instruction number */
        { 12u, 4u, 77u, "InterpolationFunction" },
        { 12u, 4u, 82u, "does not exist" },
        { 129u, 0u, 401u, "opcode 401 is not allowed" },   /* OpFAdd -> OpPtrEqual (same shape) */
    };
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t n = patch_first("scene_ui.frag", cases[i].op, cases[i].word, cases[i].value);
        EG_ASSERT(n != 0);
        WGPUShaderModule m = make_module(d, patched_words, n);
        EG_EXPECT_ERROR(WGPUErrorType_Validation, SM_SPIRV_INVALID, cases[i].msg);
        wgpuShaderModuleRelease(m);
    }
    uint32_t n = patch_first("scene_ui.frag", 0xffffu, 0, 0);   /* unpatched: accepted */
    EG_EXPECT(n == 0);
    const eg_test_spv_t *s = eg_test_spv("scene_ui.frag");
    WGPUShaderModule ok = make_module(d, s->words, s->word_count);
    EG_EXPECT_NO_ERROR();
    wgpuShaderModuleRelease(ok);
    eg_test_device_release();
}

/* Instances: creation, the memory descriptor, chained-struct rules, handle checks, statistics. */
#include <emgpu/emgpu.h>

#include "kernel/api/instance.h"
#include "tests/harness/test_device.h"

EG_TEST(instance, create_and_release_default)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    EG_ASSERT(i != NULL);
    WGPUEmgpuMemoryStats st;
    EG_EXPECT_EQ_U(wgpuInstanceEmgpuGetMemoryStats(i, &st), WGPUStatus_Success);
    EG_EXPECT(st.staticBlock);
    EG_EXPECT_EQ_U(st.poolCount, EG_KIND_COUNT - 1);   /* every kind but NONE */
    EG_EXPECT_EQ_U(st.pools[1].capacity, EMGPU_MAX_DEVICES);   /* pools[1] is the device pool */
    EG_EXPECT(eg_test_str_contains(st.pools[1].knob.data, "EMGPU_MAX_DEVICES"));
    wgpuInstanceRelease(i);
}

EG_TEST(instance, unknown_stype_in_chain_fails)
{
    WGPUChainedStruct bogus = { NULL, (WGPUSType)0x7E57FFFF };
    WGPUInstanceDescriptor d = WGPU_INSTANCE_DESCRIPTOR_INIT;
    d.nextInChain = &bogus;
    EG_EXPECT(wgpuCreateInstance(&d) == NULL);   /* webgpu.h: unknown sType is an error */
}

EG_TEST(instance, caller_block_too_small_then_enough)
{
    static uint64_t block[8192];   /* 64 KiB */
    WGPUEmgpuInstanceMemoryDescriptor md = WGPU_EMGPU_INSTANCE_MEMORY_DESCRIPTOR_INIT;
    /* One of everything but buffers: small enough for any board. */
    uint32_t *c = &md.capacities.adapters;
    for (int k = 0; k < 14; k++) c[k] = 1;   /* the 14 pool fields */
    md.capacities.buffers = 4;
    md.capacities.commandStreamBytes = 1024;
    size_t need = wgpuEmgpuGetInstanceMemorySize(&md.capacities);
    if (need > sizeof block) eg_test_printf("    need %u bytes\n", (unsigned)need);
    EG_ASSERT(need > 64 && need <= sizeof block);
    md.block = block;
    md.blockSize = need - 8;
    WGPUInstanceDescriptor d = WGPU_INSTANCE_DESCRIPTOR_INIT;
    d.nextInChain = &md.chain;
    EG_EXPECT(wgpuCreateInstance(&d) == NULL);   /* one word short */
    md.blockSize = need;
    WGPUInstance i = wgpuCreateInstance(&d);
    EG_ASSERT(i != NULL);
    WGPUEmgpuMemoryStats st;
    wgpuInstanceEmgpuGetMemoryStats(i, &st);
    EG_EXPECT(!st.staticBlock);
    EG_EXPECT_EQ_U(st.blockBytes, need);
    EG_EXPECT_EQ_U(st.pools[3].capacity, 4);     /* pools[3] is the buffer pool */
    wgpuInstanceRelease(i);
}

EG_TEST(instance, static_block_serves_one_instance)
{
    WGPUInstance a = wgpuCreateInstance(NULL);
    EG_ASSERT(a != NULL);
    EG_EXPECT(wgpuCreateInstance(NULL) == NULL);   /* the second needs its own block */
    wgpuInstanceRelease(a);
    WGPUInstance b = wgpuCreateInstance(NULL);
    EG_EXPECT(b != NULL);
    wgpuInstanceRelease(b);
}

EG_TEST(instance, unsupported_instance_feature_and_limit_fail)
{
    WGPUInstanceFeatureName f = (WGPUInstanceFeatureName)0x55;
    WGPUInstanceDescriptor d = WGPU_INSTANCE_DESCRIPTOR_INIT;
    d.requiredFeatureCount = 1;
    d.requiredFeatures = &f;
    EG_EXPECT(wgpuCreateInstance(&d) == NULL);
    WGPUInstanceLimits lim = WGPU_INSTANCE_LIMITS_INIT;
    EG_EXPECT_EQ_U(wgpuGetInstanceLimits(&lim), WGPUStatus_Success);
    lim.timedWaitAnyMaxCount += 1;   /* one more than we offer */
    WGPUInstanceDescriptor d2 = WGPU_INSTANCE_DESCRIPTOR_INIT;
    d2.requiredLimits = &lim;
    EG_EXPECT(wgpuCreateInstance(&d2) == NULL);
}

EG_TEST(instance, stale_handle_is_reported_with_its_name)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop backend not compiled in");
    WGPUQueue q = eg_test_queue();
    WGPUAdapter a = NULL;
    eg_vctx_t v = eg_vctx(d, "wgpuTest", NULL);
    /* A released adapter slot: take one, release it, check the stale pointer. */
    struct WGPUInstanceImpl *inst = eg_instance_of(d);
    a = eg_object_alloc_in(&v, inst, EG_KIND_ADAPTER);
    EG_ASSERT(a != NULL);
    eg_object_free(a);
    EG_EXPECT(!eg_handle_check(&v, a, EG_KIND_ADAPTER, "adapter", false));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, STALE_HANDLE, "adapter handle 0x");
    EG_EXPECT(!eg_handle_check(&v, q, EG_KIND_BUFFER, "buffer", false));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, WRONG_HANDLE_KIND, "is a queue handle, expected a buffer");
    EG_EXPECT(!eg_handle_check(&v, NULL, EG_KIND_BUFFER, "descriptor.buffer", false));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, NULL_HANDLE, "descriptor.buffer is NULL");
    EG_EXPECT(eg_handle_check(&v, NULL, EG_KIND_BUFFER, "optional", true));
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The command-stream statistic sizes EMGPU_COMMAND_STREAM_BYTES: per stream, the fullest live
 * stream as `used`, the fullest at any Finish as `highWater`. An encoder with one buffer clear
 * holds at least that record, and the figure can only be below the stream's capacity. */
EG_TEST(instance, command_stream_statistics)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUInstance inst = eg_test_instance();
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = WGPUBufferUsage_CopyDst;
    bd.size = 16;
    WGPUBuffer b = wgpuDeviceCreateBuffer(d, &bd);
    WGPUCommandEncoder e = wgpuDeviceCreateCommandEncoder(d, NULL);
    wgpuCommandEncoderClearBuffer(e, b, 0, 16);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    WGPUEmgpuMemoryStats st;
    EG_ASSERT(wgpuInstanceEmgpuGetMemoryStats(inst, &st) == WGPUStatus_Success);
    const WGPUEmgpuArenaStats *s = NULL;
    for (size_t k = 0; k < st.arenaCount; k++)
        if (eg_test_str_contains(st.arenas[k].knob.data, "EMGPU_COMMAND_STREAM_BYTES")) s = &st.arenas[k];
    EG_ASSERT(s != NULL);
    EG_EXPECT_EQ_U(s->capacity, EMGPU_COMMAND_STREAM_BYTES);
    EG_EXPECT(s->used > 0 && s->used <= s->capacity);    /* the live command buffer's records */
    EG_EXPECT(s->highWater >= s->used && s->highWater <= s->capacity);
    uint64_t live = s->used;
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
    EG_ASSERT(wgpuInstanceEmgpuGetMemoryStats(inst, &st) == WGPUStatus_Success);
    for (size_t k = 0; k < st.arenaCount; k++)
        if (eg_test_str_contains(st.arenas[k].knob.data, "EMGPU_COMMAND_STREAM_BYTES")) s = &st.arenas[k];
    EG_EXPECT(s->highWater >= live);                     /* the peak outlives the command buffer */
    wgpuBufferRelease(b);
    eg_test_device_release();
}

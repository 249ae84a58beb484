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
    md.capacities.deviceHeapBytes = 1024;
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

/* Tests for compute passes: state rules and dispatch validation (execution is TODO(#4) on soft). */
#include "tests/unit/cmd_test_util.h"

static void expect_at_finish(WGPUCommandEncoder e, WGPUComputePassEncoder p, eg_error_code_t code,
                             const char *frag)
{
    wgpuComputePassEncoderEnd(p);
    wgpuComputePassEncoderRelease(p);
    EG_EXPECT_NO_ERROR();                          /* pass errors surface at Finish */
    t_finish(e);
    T_EXPECT_VALIDATION(code, frag);
}

EG_TEST(compute_pass, empty_pass_finishes)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder p = wgpuCommandEncoderBeginComputePass(e, NULL);
    EG_ASSERT(p != NULL);
    WGPUStringView g = { "g", 1 };
    wgpuComputePassEncoderPushDebugGroup(p, g);
    wgpuComputePassEncoderInsertDebugMarker(p, g);
    wgpuComputePassEncoderPopDebugGroup(p);
    wgpuComputePassEncoderEnd(p);
    wgpuComputePassEncoderRelease(p);
    t_submit(e);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(compute_pass, dispatch_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPULimits lim = WGPU_LIMITS_INIT;
    wgpuDeviceGetLimits(d, &lim);
    WGPUBuffer ind = t_buffer(d, WGPUBufferUsage_Indirect, 16);
    WGPUBuffer noind = t_buffer(d, WGPUBufferUsage_CopyDst, 16);

    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(p, 1, 1, 1);   /* spec "validate dispatch": pipeline */
    expect_at_finish(e, p, EG_E_DRAW_STATE, "no pipeline set");

    e = t_encoder(d);
    p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(p, lim.maxComputeWorkgroupsPerDimension + 1, 1, 1);
    expect_at_finish(e, p, EG_E_DISPATCH_SIZE, "maxComputeWorkgroupsPerDimension");

    e = t_encoder(d);
    p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderDispatchWorkgroupsIndirect(p, noind, 0);
    expect_at_finish(e, p, EG_E_INDIRECT_BUFFER, "lacks WGPUBufferUsage_Indirect");

    e = t_encoder(d);
    p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderDispatchWorkgroupsIndirect(p, ind, 2);      /* offset % 4 */
    expect_at_finish(e, p, EG_E_INDIRECT_BUFFER, "indirectOffset 2");

    e = t_encoder(d);
    p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderDispatchWorkgroupsIndirect(p, ind, 8);      /* 8 + 12 > 16 */
    expect_at_finish(e, p, EG_E_INDIRECT_BUFFER, "exceeds the buffer size 16");

    e = t_encoder(d);
    p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetBindGroup(p, lim.maxBindGroups, NULL, 0, NULL);
    expect_at_finish(e, p, EG_E_BIND_GROUP_INDEX, "maxBindGroups");

    wgpuBufferRelease(ind);
    wgpuBufferRelease(noind);
    eg_test_device_release();
}

EG_TEST(compute_pass, state_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder p = wgpuCommandEncoderBeginComputePass(e, NULL);
    /* a second pass while one is open: the encoder is locked (deferred) */
    WGPUComputePassEncoder p2 = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderEnd(p2);
    wgpuComputePassEncoderEnd(p);
    wgpuComputePassEncoderRelease(p2);
    EG_EXPECT_NO_ERROR();
    wgpuComputePassEncoderEnd(p);                 /* ended: immediate */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PASS_ENDED, "already ended");
    wgpuComputePassEncoderRelease(p);
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, ENCODER_LOCKED, "End() it first");

    /* a compute pass handle used as a render pass: wrong kind, immediate */
    e = t_encoder(d);
    p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuRenderPassEncoderEnd((WGPURenderPassEncoder)(void *)p);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, WRONG_HANDLE_KIND, "compute pass encoder");
    wgpuComputePassEncoderEnd(p);
    wgpuComputePassEncoderRelease(p);
    t_finish(e);
    EG_EXPECT_NO_ERROR();

    /* timestampWrites need query sets, which emgpu does not support yet */
    WGPUPassTimestampWrites tw = WGPU_PASS_TIMESTAMP_WRITES_INIT;
    WGPUComputePassDescriptor cd = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
    cd.timestampWrites = &tw;
    e = t_encoder(d);
    p = wgpuCommandEncoderBeginComputePass(e, &cd);
    expect_at_finish(e, p, EG_E_PASS_QUERY_UNSUPPORTED, "timestampWrites");
    eg_test_device_release();
}

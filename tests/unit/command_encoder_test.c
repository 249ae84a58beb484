/* Tests for command encoders: state machine, deferred errors, debug groups, stream and pool limits. */
#include "tests/unit/cmd_test_util.h"

EG_TEST(command_encoder, finish_twice_fails_at_once)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUCommandEncoder e = t_encoder(d);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    EG_EXPECT(cb != NULL);
    EG_EXPECT_NO_ERROR();
    /* spec finish(): this.[[state]] must be "open"; the encoder is "ended" now */
    EG_EXPECT(wgpuCommandEncoderFinish(e, NULL) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, ENCODER_ENDED, "already finished");
    /* every encoder command on an ended encoder is an immediate error */
    WGPUStringView s = { "m", 1 };
    wgpuCommandEncoderInsertDebugMarker(e, s);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, ENCODER_ENDED, "already finished");
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
    eg_test_device_release();
}

EG_TEST(command_encoder, debug_groups_balance)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUStringView g = { "group", WGPU_STRLEN };
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderPushDebugGroup(e, g);
    wgpuCommandEncoderInsertDebugMarker(e, g);
    wgpuCommandEncoderPopDebugGroup(e);
    t_finish(e);
    EG_EXPECT_NO_ERROR();
    e = t_encoder(d);
    wgpuCommandEncoderPushDebugGroup(e, g);
    t_finish(e);                                  /* spec finish(): debug group stack empty */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, DEBUG_GROUP_UNBALANCED, "1 debug group(s) still pushed");
    e = t_encoder(d);
    wgpuCommandEncoderPopDebugGroup(e);           /* spec popDebugGroup(): stack not empty */
    EG_EXPECT_NO_ERROR();
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, DEBUG_GROUP_UNBALANCED, "no debug group pushed");
    eg_test_device_release();
}

EG_TEST(command_encoder, first_deferred_error_wins)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 16);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderClearBuffer(e, a, 0, 3);    /* size 3: not a multiple of 4 */
    wgpuCommandEncoderClearBuffer(e, a, 0, 64);   /* out of bounds, but the first error wins */
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, COPY_ALIGNMENT, "wgpuCommandEncoderClearBuffer: size 3");
    wgpuBufferRelease(a);
    eg_test_device_release();
}

EG_TEST(command_encoder, full_stream_is_out_of_memory)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUStringView g = { "m", 1 };
    WGPUCommandEncoder e = t_encoder(d);
    /* a marker record is 8 + 32 bytes: this many cannot fit in EMGPU_COMMAND_STREAM_BYTES */
    for (unsigned i = 0; i < EMGPU_COMMAND_STREAM_BYTES / 40u + 1u; i++)
        wgpuCommandEncoderInsertDebugMarker(e, g);
    EG_EXPECT_NO_ERROR();
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, ARENA_FULL, "EMGPU_COMMAND_STREAM_BYTES");
    eg_test_device_release();
}

/* Pool capacity + 1 (EMGPU_MAX_COMMAND_BUFFERS; a finished encoder keeps its one slot). */
EG_TEST(command_encoder, pool_capacity_plus_one)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUCommandEncoder es[EMGPU_MAX_COMMAND_BUFFERS];
    for (unsigned i = 0; i < EMGPU_MAX_COMMAND_BUFFERS; i++) {
        es[i] = t_encoder(d);
        EG_EXPECT(es[i] != NULL);
    }
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(t_encoder(d) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_COMMAND_BUFFERS");
    /* Finish does not take a second slot; releasing both handles gives the slot back */
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(es[0], NULL);
    EG_EXPECT(cb != NULL);
    wgpuCommandEncoderRelease(es[0]);
    EG_EXPECT(t_encoder(d) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_COMMAND_BUFFERS");
    wgpuCommandBufferRelease(cb);
    es[0] = t_encoder(d);
    EG_EXPECT(es[0] != NULL);
    for (unsigned i = 0; i < EMGPU_MAX_COMMAND_BUFFERS; i++) wgpuCommandEncoderRelease(es[i]);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

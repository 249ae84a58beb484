/* Conformance scenes: compute (prefix sum with workgroup memory and atomics), storage textures. */
#include "tests/scenes/scenes.h"

static const float k_dark[4] = { 0.08f, 0.08f, 0.1f, 1 };

/* 64 values (i * 7 + 3) % 11 scanned by one workgroup (scene_prefix.comp), then drawn as a bar
 * chart into an rgba8unorm storage texture by a second dispatch (scene_prefix_draw.comp).
 * Expected by arithmetic: i -> (7i + 3) mod 11 permutes 0..10 in each run of 11 indices, so
 * five runs sum to 275 and i = 55..63 add 3+10+6+2+9+5+1+8+4 = 48: total = scan[63] = 323 (no
 * red tint); odd values: 5 per run + 4 = 29 (yellow bar 29/64 of the width); largest 10 (red
 * bottom row 10/16 of the width). */
void eg_scene_prefix_sum(eg_scene_t *s)
{
    uint32_t values[64];
    for (uint32_t i = 0; i < 64; i++) values[i] = (i * 7u + 3u) % 11u;
    uint32_t zeros[68] = { 0 };
    WGPUBuffer src = eg_scene_buffer(s, WGPUBufferUsage_Storage, values, sizeof values);
    WGPUBuffer dst = eg_scene_buffer(s, WGPUBufferUsage_Storage, zeros, sizeof zeros);
    WGPUTexture img = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, s->w, s->h, 1, 1, 1,
                                       WGPUTextureUsage_StorageBinding | WGPUTextureUsage_CopySrc);
    WGPUTextureView iv = eg_scene_view(s, img, 0);
    WGPUBindGroupLayout l0 = eg_scene_bgl(s, "rw", WGPUShaderStage_Compute);
    WGPUBindGroupLayout l1 = eg_scene_bgl(s, "ri", WGPUShaderStage_Compute);
    WGPUComputePipeline scan = eg_scene_compute(s, "scene_prefix.comp", 1, &l0);
    WGPUComputePipeline draw = eg_scene_compute(s, "scene_prefix_draw.comp", 1, &l1);
    const void *r0[2] = { src, dst }, *r1[2] = { dst, iv };
    WGPUBindGroup g0 = eg_scene_bind_group(s, l0, 2, r0, "bb");
    WGPUBindGroup g1 = eg_scene_bind_group(s, l1, 2, r1, "bv");
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
    wgpuComputePassEncoderSetPipeline(pass, scan);
    wgpuComputePassEncoderSetBindGroup(pass, 0, g0, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    /* a second pass, so the storage buffer's writes are visible to the drawing dispatch */
    pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
    wgpuComputePassEncoderSetPipeline(pass, draw);
    wgpuComputePassEncoderSetBindGroup(pass, 0, g1, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(pass, (s->w + 7) / 8, (s->h + 7) / 8, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, img, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* A 16x16 storage texture written by a compute dispatch (indirect: the workgroup counts come
 * from a buffer), then sampled by a render pass: left nearest, right linear. */
void eg_scene_storage_texture(eg_scene_t *s)
{
    WGPUTexture img = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, 16, 16, 1, 1, 1,
                                       WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding);
    WGPUTextureView iv = eg_scene_view(s, img, 0);
    WGPUBindGroupLayout lc = eg_scene_bgl(s, "i", WGPUShaderStage_Compute);
    WGPUComputePipeline fill = eg_scene_compute(s, "scene_storage_tex.comp", 1, &lc);
    const void *rc[1] = { iv };
    WGPUBindGroup gc = eg_scene_bind_group(s, lc, 1, rc, "v");
    static const uint32_t groups[3] = { 4, 4, 1 };
    WGPUBuffer ind = eg_scene_buffer(s, WGPUBufferUsage_Indirect, groups, sizeof groups);

    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    WGPUBindGroupLayout lr = eg_scene_bgl(s, "ts", WGPUShaderStage_Fragment);
    eg_scene_pipe_t p = { .vs = "scene_tex.vert", .fs = "scene_tex.frag", .bgl_count = 1, .bgl = { lr } };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    WGPUBindGroup gr[2];
    for (int i = 0; i < 2; i++) {
        WGPUSamplerDescriptor d = WGPU_SAMPLER_DESCRIPTOR_INIT;
        d.magFilter = d.minFilter = i ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest;
        const void *rr[2] = { iv, eg_scene_sampler(s, &d) };
        gr[i] = eg_scene_bind_group(s, lr, 2, rr, "vs");
    }
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, NULL);
    wgpuComputePassEncoderSetPipeline(cp, fill);
    wgpuComputePassEncoderSetBindGroup(cp, 0, gc, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroupsIndirect(cp, ind, 0);
    wgpuComputePassEncoderEnd(cp);
    wgpuComputePassEncoderRelease(cp);
    WGPURenderPassEncoder rp = eg_scene_pass(s, enc, tv, k_dark, NULL, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(rp, pipe);
    for (int i = 0; i < 2; i++) {
        float x0 = i ? 0.02f : -0.98f;
        eg_scene_vtx_t v[6];
        const float q[6][4] = { { x0, -0.9f, 0, 1 }, { x0 + 0.96f, -0.9f, 1, 1 }, { x0 + 0.96f, 0.9f, 1, 0 },
                                { x0, -0.9f, 0, 1 }, { x0 + 0.96f, 0.9f, 1, 0 }, { x0, 0.9f, 0, 0 } };
        for (int k = 0; k < 6; k++) {
            eg_scene_vtx_t o = { q[k][0], q[k][1], 0.5f, 1, q[k][2], q[k][3], 0, 0 };
            v[k] = o;
        }
        wgpuRenderPassEncoderSetBindGroup(rp, 0, gr[i], 0, NULL);
        eg_scene_draw_vertices(s, rp, v, 6);
    }
    eg_scene_end_pass(rp);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

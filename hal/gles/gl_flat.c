/* hal/gles flat-interpolation emulation: WebGPU's provoking vertex is the first, GLES's the last.
 *
 * WebGPU: a flat (or integer) varying takes the value of the FIRST vertex of each primitive
 * (interpolation sampling "first", the only one in core). GLES has no glProvokingVertex: the
 * LAST vertex provokes. When the program has a flat fragment input and the topology is a line or
 * triangle topology, the draw is rewritten as an indexed list draw whose primitives are rotated
 * so that WebGPU's first vertex comes last, with the same winding:
 *   triangle (a, b, c)       -> (b, c, a)
 *   strip triangle i, even   -> (v[i+1], v[i+2], v[i])     (GL order v[i], v[i+1], v[i+2])
 *   strip triangle i, odd    -> (v[i+2], v[i+1], v[i])     (GL order v[i+1], v[i], v[i+2])
 *   line (a, b) and strip segments -> (b, a)
 * Indices (read back from the index buffer for indexed draws, with the base vertex added and
 * strip restarts honoured) go to a device-owned GL_ELEMENT_ARRAY_BUFFER as 32-bit values.
 * Cost: a CPU read of the index range (a GPU sync for indexed draws), a rewrite and an upload per
 * draw of such pipelines. A draw larger than the static scratch (EMGPU_GLES_SCRATCH_BYTES) is
 * split into batches of whole primitives, which draws all instances of batch 1 before batch 2.
 * Lines are drawn from their other end (the same pixels up to the diamond-exit rule).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/buffer.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/base/log.h"

#define EG_GL_FLAT_INDICES (EMGPU_GLES_SCRATCH_BYTES / 4u)
_Static_assert(EG_GL_FLAT_INDICES >= 6u, "EMGPU_GLES_SCRATCH_BYTES: room for two triangles");

static uint32_t g_out[EG_GL_FLAT_INDICES];

bool eg_gl_flat_needed(const eg_gl_program_t *p, WGPUPrimitiveTopology t)
{
    return p->flat_inputs && t != WGPUPrimitiveTopology_PointList;
}

typedef struct flat_src {
    const uint8_t *idx;   /* mapped index range, NULL for non-indexed draws */
    GLintptr map_offset_B;
    GLsizeiptr map_size_B;
    bool u32;
    uint32_t first;       /* non-indexed: first vertex */
    int32_t base_vertex;
} flat_src_t;

static uint32_t vertex_at(const flat_src_t *s, uint32_t i, bool *restart)
{
    if (!s->idx) { *restart = false; return s->first + i; }
    uint32_t v;
    if (s->u32) { eg_memcpy(&v, s->idx + i * 4u, 4); *restart = v == 0xFFFFFFFFu; }
    else { uint16_t h; eg_memcpy(&h, s->idx + i * 2u, 2); v = h; *restart = h == 0xFFFFu; }
    int64_t sv = (int64_t)v + s->base_vertex;
    return sv < 0 ? 0u : (uint32_t)sv;
}

static bool map_indices(flat_src_t *s)
{
    s->idx = eg_gl.MapBufferRange(GL_COPY_READ_BUFFER, s->map_offset_B, s->map_size_B, GL_MAP_READ_BIT);
    return s->idx != NULL;
}

/* GL may not draw while any buffer is mapped (it could be a vertex buffer too): unmap around the
 * draw and map again when more source indices follow. */
static void flush(flat_src_t *s, GLenum mode, uint32_t n, uint32_t instances, bool more)
{
    if (s->idx) eg_gl.UnmapBuffer(GL_COPY_READ_BUFFER);
    if (n) {
        eg_gl.BufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(n * 4u), g_out, GL_STREAM_DRAW);
        eg_gl.DrawElementsInstanced(mode, (GLsizei)n, GL_UNSIGNED_INT, NULL, (GLsizei)instances);
    }
    if (s->idx && more && !map_indices(s)) eg_log(EG_LOG_ERROR, "gles: mapping the index buffer again failed");
}

/* Emits the rotated primitives of `count` source vertices as GL lists, in batches. */
static void emit(flat_src_t *s, WGPUPrimitiveTopology t, uint32_t count, uint32_t instances)
{
    bool tri = t == WGPUPrimitiveTopology_TriangleList || t == WGPUPrimitiveTopology_TriangleStrip;
    bool strip = t == WGPUPrimitiveTopology_TriangleStrip || t == WGPUPrimitiveTopology_LineStrip;
    uint32_t per = tri ? 3u : 2u, cap = EG_GL_FLAT_INDICES - EG_GL_FLAT_INDICES % per;
    GLenum mode = tri ? GL_TRIANGLES : GL_LINES;
    uint32_t n = 0, run = 0, prim = 0;   /* run: vertices in the window; prim: index in the strip */
    uint32_t w[3] = { 0, 0, 0 };         /* the primitive's vertices in WebGPU order */
    for (uint32_t i = 0; i < count; i++) {
        bool restart = false;
        if (s->map_size_B && !s->idx) return;
        uint32_t v = vertex_at(s, i, &restart);
        if (restart && strip) { run = 0; prim = 0; continue; }
        if (run == per) {
            if (strip) { w[0] = w[1]; w[1] = w[2]; run = per - 1u; }
            else run = 0;
        }
        w[run++] = v;
        if (run < per) continue;
        if (n + per > cap) { flush(s, mode, n, instances, true); n = 0; }
        bool odd = strip && (prim++ & 1u);
        if (!tri) { g_out[n++] = w[1]; g_out[n++] = w[0]; continue; }
        g_out[n++] = odd ? w[2] : w[1];
        g_out[n++] = odd ? w[1] : w[2];
        g_out[n++] = w[0];
    }
    flush(s, mode, n, instances, false);
}

bool eg_gl_flat_draw(eg_hal_device_t *dev, WGPUPrimitiveTopology t, const eg_buffer_t *ib, uint32_t ib_format,
                     uint64_t ib_offset_B, uint32_t count, uint32_t instances, uint32_t first, int32_t base_vertex)
{
    flat_src_t s = { NULL, 0, 0, ib_format == WGPUIndexFormat_Uint32, first, base_vertex };
    if (ib) {
        uint32_t size = s.u32 ? 4u : 2u;
        eg_gl.BindBuffer(GL_COPY_READ_BUFFER, EG_GL_PRIV(ib, eg_gl_buffer_t)->name);
        s.map_offset_B = (GLintptr)(ib_offset_B + (uint64_t)first * size);
        s.map_size_B = (GLsizeiptr)((uint64_t)count * size);
        if (!map_indices(&s)) {
            eg_log(EG_LOG_ERROR, "gles: reading the index buffer for first-vertex flat emulation failed");
            return false;
        }
    }
    if (!dev->flat_ib) eg_gl.GenBuffers(1, &dev->flat_ib);
    eg_gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, dev->flat_ib);
    emit(&s, t, count, instances);
    return true;
}

#endif /* EMGPU_HAL_GLES */

/* Command encoder copy and clear commands: validation, tracker barriers and stream records.
 * (Kept apart from command_encoder.c, which holds the encoder's lifetime and state.) */
#include "kernel/api/buffer.h"
#include "kernel/api/command_encoder.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/texture.h"

static eg_track_range_t region_range(const eg_texture_t *t, const eg_texel_region_t *r)
{
    eg_track_range_t range = { (uint16_t)r->mip_level, 1, 0, 1 };
    if (t->dimension != WGPUTextureDimension_3D) {
        range.base_layer = (uint16_t)r->origin_z;
        range.layer_count = (uint16_t)r->depth_or_layers;
    }
    return range;
}

/* Spec: copyBufferToBuffer(), "validate the encoder state" and the listed requirements, in order. */
static bool validate_b2b(eg_encoder_t *e, const eg_vctx_t *v, const eg_buffer_t *src, uint64_t so,
                         const eg_buffer_t *dst, uint64_t dof, uint64_t size)
{
    if (!eg_encoder_check_object(e, v, src, EG_KIND_BUFFER, "source"))
        return false;
    EG_DCHECK(e, v, src->usage & WGPUBufferUsage_CopySrc, COPY_USAGE,
              "source \"%s\" lacks WGPUBufferUsage_CopySrc", src->obj.label);
    if (!eg_encoder_check_object(e, v, dst, EG_KIND_BUFFER, "destination"))
        return false;
    EG_DCHECK(e, v, dst->usage & WGPUBufferUsage_CopyDst, COPY_USAGE,
              "destination \"%s\" lacks WGPUBufferUsage_CopyDst", dst->obj.label);
    EG_DCHECK(e, v, size % 4 == 0, COPY_ALIGNMENT, "size %llu is not a multiple of 4",
              (unsigned long long)size);
    EG_DCHECK(e, v, so % 4 == 0, COPY_ALIGNMENT, "sourceOffset %llu is not a multiple of 4",
              (unsigned long long)so);
    EG_DCHECK(e, v, dof % 4 == 0, COPY_ALIGNMENT, "destinationOffset %llu is not a multiple of 4",
              (unsigned long long)dof);
    EG_DCHECK(e, v, so <= src->size_B && size <= src->size_B - so, COPY_OUT_OF_BOUNDS,
              "sourceOffset %llu + size %llu exceeds the source size %llu",
              (unsigned long long)so, (unsigned long long)size, (unsigned long long)src->size_B);
    EG_DCHECK(e, v, dof <= dst->size_B && size <= dst->size_B - dof, COPY_OUT_OF_BOUNDS,
              "destinationOffset %llu + size %llu exceeds the destination size %llu",
              (unsigned long long)dof, (unsigned long long)size, (unsigned long long)dst->size_B);
    EG_DCHECK(e, v, src != dst, COPY_SAME_BUFFER, "source and destination are the same buffer \"%s\"",
              src->obj.label);
    return true;
}

void wgpuCommandEncoderCopyBufferToBuffer(WGPUCommandEncoder commandEncoder, WGPUBuffer source,
                                          uint64_t sourceOffset, WGPUBuffer destination,
                                          uint64_t destinationOffset, uint64_t size)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderCopyBufferToBuffer", &v);
    if (!e || !eg_encoder_validate_state(e, &v))
        return;
    if (size == WGPU_WHOLE_SIZE && source && eg_pool_of(source, EG_KIND_BUFFER))
        size = sourceOffset <= source->size_B ? source->size_B - sourceOffset : 0;
    if (!validate_b2b(e, &v, source, sourceOffset, destination, destinationOffset, size))
        return;
    if (!eg_encoder_barrier_buffer(e, &v, source, EG_TRACK_BUF_COPY_SRC) ||
        !eg_encoder_barrier_buffer(e, &v, destination, EG_TRACK_BUF_COPY_DST))
        return;
    eg_cmd_copy_b2b_t *c = (eg_cmd_copy_b2b_t *)eg_encoder_record(e, EG_CMD_COPY_BUFFER_TO_BUFFER, sizeof *c);
    if (!c) {
        eg_encoder_stream_full(e, &v);
        return;
    }
    c->src = source;
    c->dst = destination;
    c->src_offset_B = sourceOffset;
    c->dst_offset_B = destinationOffset;
    c->size_B = size;
    eg_encoder_hold_refs(&c->hdr);
}

/* Spec: clearBuffer(). */
void wgpuCommandEncoderClearBuffer(WGPUCommandEncoder commandEncoder, WGPUBuffer buffer,
                                   uint64_t offset, uint64_t size)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderClearBuffer", &v);
    if (!e || !eg_encoder_validate_state(e, &v))
        return;
    if (!eg_encoder_check_object(e, &v, buffer, EG_KIND_BUFFER, "buffer"))
        return;
    if (size == WGPU_WHOLE_SIZE)
        size = offset <= buffer->size_B ? buffer->size_B - offset : 0;
    if (!(buffer->usage & WGPUBufferUsage_CopyDst)) {
        eg_encoder_fail(e, &v, WGPUErrorType_Validation, EG_E_COPY_USAGE,
                        "buffer \"%s\" lacks WGPUBufferUsage_CopyDst", buffer->obj.label);
        return;
    }
    if (size % 4 || offset % 4) {
        eg_encoder_fail(e, &v, WGPUErrorType_Validation, EG_E_COPY_ALIGNMENT,
                        "%s %llu is not a multiple of 4", size % 4 ? "size" : "offset",
                        (unsigned long long)(size % 4 ? size : offset));
        return;
    }
    if (offset > buffer->size_B || size > buffer->size_B - offset) {
        eg_encoder_fail(e, &v, WGPUErrorType_Validation, EG_E_COPY_OUT_OF_BOUNDS,
                        "offset %llu + size %llu exceeds the buffer size %llu",
                        (unsigned long long)offset, (unsigned long long)size,
                        (unsigned long long)buffer->size_B);
        return;
    }
    if (!eg_encoder_barrier_buffer(e, &v, buffer, EG_TRACK_BUF_COPY_DST))
        return;
    eg_cmd_clear_buffer_t *c = (eg_cmd_clear_buffer_t *)eg_encoder_record(e, EG_CMD_CLEAR_BUFFER, sizeof *c);
    if (!c) {
        eg_encoder_stream_full(e, &v);
        return;
    }
    c->buffer = buffer;
    c->offset_B = offset;
    c->size_B = size;
    eg_encoder_hold_refs(&c->hdr);
}

/* Spec: "validating GPUTexelCopyTextureInfo" (texture valid, mipLevel, origin block-aligned,
 * depth/stencil and multisampled textures copied whole) and "validating texture copy range". */

static bool validate_texture_info(eg_encoder_t *e, const eg_vctx_t *v, const WGPUTexelCopyTextureInfo *ti,
                                  const WGPUExtent3D *size, const char *what)
{
    if (!eg_encoder_check_object(e, v, ti->texture, EG_KIND_TEXTURE, what))
        return false;
    const eg_texture_t *t = ti->texture;
    const eg_format_info_t *fi = t->fi;
    EG_DCHECK(e, v, ti->mipLevel < t->mip_level_count, COPY_MIP_LEVEL,
              "%s.mipLevel %u is not below the texture's mipLevelCount %u", what,
              (unsigned)ti->mipLevel, (unsigned)t->mip_level_count);
    EG_DCHECK(e, v, ti->origin.x % fi->block_w_px == 0 && ti->origin.y % fi->block_h_px == 0,
              COPY_ALIGNMENT, "%s.origin (%u, %u) is not a multiple of the %ux%u texel block", what,
              (unsigned)ti->origin.x, (unsigned)ti->origin.y, (unsigned)fi->block_w_px,
              (unsigned)fi->block_h_px);
    WGPUExtent3D mip = eg_format_mip_extent_physical(fi, t->dimension, t->size, ti->mipLevel);
    if (eg_format_is_depth_stencil(fi) || t->sample_count > 1)
        EG_DCHECK(e, v, size->width == mip.width && size->height == mip.height, COPY_DEPTH_STENCIL,
                  "copySize %ux%u must cover the whole %ux%u mip level of a %s texture",
                  (unsigned)size->width, (unsigned)size->height, (unsigned)mip.width,
                  (unsigned)mip.height, t->sample_count > 1 ? "multisampled" : "depth/stencil");
    EG_DCHECK(e, v, eg_format_aspects_selected(fi, eg_format_resolve_aspect(ti->aspect)) != 0, COPY_ASPECT,
              "%s.aspect 0x%x is not an aspect of format %s", what, (unsigned)ti->aspect, fi->name);
    /* "validating texture copy range" */
    EG_DCHECK(e, v, size->width % fi->block_w_px == 0 && size->height % fi->block_h_px == 0,
              COPY_ALIGNMENT, "copySize %ux%u is not a multiple of the %ux%u texel block",
              (unsigned)size->width, (unsigned)size->height, (unsigned)fi->block_w_px,
              (unsigned)fi->block_h_px);
    EG_DCHECK(e, v, (uint64_t)ti->origin.x + size->width <= mip.width &&
                  (uint64_t)ti->origin.y + size->height <= mip.height &&
                  (uint64_t)ti->origin.z + size->depthOrArrayLayers <= mip.depthOrArrayLayers,
              COPY_OUT_OF_BOUNDS, "%s.origin (%u, %u, %u) + copySize (%u, %u, %u) exceeds mip %u "
              "(%u, %u, %u)", what, (unsigned)ti->origin.x, (unsigned)ti->origin.y,
              (unsigned)ti->origin.z, (unsigned)size->width, (unsigned)size->height,
              (unsigned)size->depthOrArrayLayers, (unsigned)ti->mipLevel, (unsigned)mip.width,
              (unsigned)mip.height, (unsigned)mip.depthOrArrayLayers);
    return true;
}

static eg_texel_region_t make_region(const WGPUTexelCopyTextureInfo *ti, const WGPUExtent3D *size,
                                     WGPUTextureAspect aspect)
{
    eg_texel_region_t r = { ti->mipLevel, ti->origin.x, ti->origin.y, ti->origin.z,
                            size->width, size->height, size->depthOrArrayLayers, aspect };
    return r;
}

/* Resolves a single copyable aspect: All on a depth+stencil format is not allowed in
 * buffer<->texture copies (spec: "aspect must refer to a single aspect"). */
static bool buffer_copy_aspect(eg_encoder_t *e, const eg_vctx_t *v, const eg_texture_t *t,
                               WGPUTextureAspect aspect, bool to_texture, WGPUTextureAspect *out)
{
    const eg_format_info_t *fi = t->fi;
    uint32_t sel = eg_format_aspects_selected(fi, eg_format_resolve_aspect(aspect));
    EG_DCHECK(e, v, sel != 0 && (sel & (sel - 1)) == 0, COPY_ASPECT,
              "aspect must select one aspect of %s for a buffer copy", fi->name);
    *out = sel == EG_ASPECT_DEPTH ? WGPUTextureAspect_DepthOnly
         : sel == EG_ASPECT_STENCIL ? WGPUTextureAspect_StencilOnly : WGPUTextureAspect_All;
    if (sel == EG_ASPECT_DEPTH) {
        /* Spec "depth-stencil formats" table: depth is a copy source when block_B > 0
         * (not depth24plus), a copy destination only for depth16unorm. */
        EG_DCHECK(e, v, eg_format_copy_block_B(fi, WGPUTextureAspect_DepthOnly) != 0, COPY_ASPECT,
                  "the depth aspect of %s cannot be copied", fi->name);
        EG_DCHECK(e, v, !to_texture || (fi->caps & EG_FMT_DEPTH_COPY_DST), COPY_ASPECT,
                  "the depth aspect of %s cannot be a copy destination", fi->name);
    }
    return true;
}

typedef struct bt_args {
    const WGPUTexelCopyBufferInfo *buf;
    const WGPUTexelCopyTextureInfo *tex;
    const WGPUExtent3D *size;
    bool to_texture;
} bt_args_t;

/* Spec: copyBufferToTexture() / copyTextureToBuffer() requirements, in order. */
static bool validate_bt(eg_encoder_t *e, const eg_vctx_t *v, const bt_args_t *a, eg_cmd_copy_bt_t *out)
{
    /* "validating GPUTexelCopyBufferInfo" */
    if (!eg_encoder_check_object(e, v, a->buf->buffer, EG_KIND_BUFFER, a->to_texture ? "source.buffer" : "destination.buffer"))
        return false;
    const eg_buffer_t *b = a->buf->buffer;
    uint32_t bpr = a->buf->layout.bytesPerRow;
    EG_DCHECK(e, v, bpr == WGPU_COPY_STRIDE_UNDEFINED || bpr % 256 == 0, COPY_LAYOUT,
              "layout.bytesPerRow %u is not a multiple of 256", (unsigned)bpr);
    EG_DCHECK(e, v, b->usage & (a->to_texture ? WGPUBufferUsage_CopySrc : WGPUBufferUsage_CopyDst),
              COPY_USAGE, "buffer \"%s\" lacks WGPUBufferUsage_%s", b->obj.label,
              a->to_texture ? "CopySrc" : "CopyDst");
    const char *what = a->to_texture ? "destination" : "source";
    if (!validate_texture_info(e, v, a->tex, a->size, what))
        return false;
    const eg_texture_t *t = a->tex->texture;
    EG_DCHECK(e, v, t->usage & (a->to_texture ? WGPUTextureUsage_CopyDst : WGPUTextureUsage_CopySrc),
              COPY_USAGE, "texture \"%s\" lacks WGPUTextureUsage_%s", t->obj.label,
              a->to_texture ? "CopyDst" : "CopySrc");
    EG_DCHECK(e, v, t->sample_count == 1, COPY_SAMPLE_COUNT, "texture \"%s\" has sampleCount %u; "
              "buffer copies need 1", t->obj.label, (unsigned)t->sample_count);
    WGPUTextureAspect aspect;
    if (!buffer_copy_aspect(e, v, t, a->tex->aspect, a->to_texture, &aspect))
        return false;
    if (eg_format_is_depth_stencil(t->fi))
        EG_DCHECK(e, v, a->buf->layout.offset % 4 == 0, COPY_ALIGNMENT,
                  "layout.offset %llu is not a multiple of 4 (depth/stencil copy)",
                  (unsigned long long)a->buf->layout.offset);
    uint32_t block_B = eg_format_copy_block_B(t->fi, aspect);
    eg_linear_layout_t ll;
    eg_linear_status_t st = eg_format_linear_layout(block_B, t->fi->block_w_px, t->fi->block_h_px,
                                                    &a->buf->layout, b->size_B, *a->size, &ll);
    EG_DCHECK(e, v, st != EG_LINEAR_OUT_OF_BOUNDS, COPY_OUT_OF_BOUNDS,
              "layout.offset %llu + %llu bytes needed exceeds the buffer size %llu",
              (unsigned long long)a->buf->layout.offset, (unsigned long long)ll.required_B,
              (unsigned long long)b->size_B);
    EG_DCHECK(e, v, st == EG_LINEAR_OK, COPY_LAYOUT, "layout.bytesPerRow %u / rowsPerImage %u do "
              "not fit %u bytes per row and %u rows per image (%s)", (unsigned)bpr,
              (unsigned)a->buf->layout.rowsPerImage, (unsigned)ll.bytes_in_last_row_B,
              (unsigned)ll.height_el,
              st == EG_LINEAR_BYTES_PER_ROW_REQUIRED ? "bytesPerRow required"
              : st == EG_LINEAR_BYTES_PER_ROW_TOO_SMALL ? "bytesPerRow too small"
              : st == EG_LINEAR_ROWS_PER_IMAGE_REQUIRED ? "rowsPerImage required" : "rowsPerImage too small");
    out->layout.offset_B = a->buf->layout.offset;
    out->layout.bytes_per_row_B = ll.bytes_per_row_B;
    out->layout.rows_per_image = ll.rows_per_image;
    out->region = make_region(a->tex, a->size, aspect);
    return true;
}

static void record_bt(WGPUCommandEncoder handle, const char *entry, const bt_args_t *a)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(handle, entry, &v);
    if (!e || !eg_encoder_validate_state(e, &v))
        return;
    if (!a->buf || !a->tex || !a->size) {
        eg_encoder_fail(e, &v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR,
                        "source, destination and copySize must not be NULL");
        return;
    }
    eg_cmd_copy_bt_t rec;
    if (!validate_bt(e, &v, a, &rec))
        return;
    const eg_texture_t *t = a->tex->texture;
    eg_track_range_t range = region_range(t, &rec.region);
    if (!eg_encoder_barrier_buffer(e, &v, a->buf->buffer, a->to_texture ? EG_TRACK_BUF_COPY_SRC : EG_TRACK_BUF_COPY_DST) ||
        !eg_encoder_barrier_texture(e, &v, t, &range, a->to_texture ? EG_TRACK_TEX_COPY_DST : EG_TRACK_TEX_COPY_SRC))
        return;
    eg_cmd_copy_bt_t *c = (eg_cmd_copy_bt_t *)eg_encoder_record(
        e, a->to_texture ? EG_CMD_COPY_BUFFER_TO_TEXTURE : EG_CMD_COPY_TEXTURE_TO_BUFFER, sizeof *c);
    if (!c) {
        eg_encoder_stream_full(e, &v);
        return;
    }
    c->buffer = a->buf->buffer;
    c->texture = a->tex->texture;
    c->layout = rec.layout;
    c->region = rec.region;
    eg_encoder_hold_refs(&c->hdr);
}

void wgpuCommandEncoderCopyBufferToTexture(WGPUCommandEncoder commandEncoder,
                                           WGPUTexelCopyBufferInfo const *source,
                                           WGPUTexelCopyTextureInfo const *destination,
                                           WGPUExtent3D const *copySize)
{
    bt_args_t a = { source, destination, copySize, true };
    record_bt(commandEncoder, "wgpuCommandEncoderCopyBufferToTexture", &a);
}

void wgpuCommandEncoderCopyTextureToBuffer(WGPUCommandEncoder commandEncoder,
                                           WGPUTexelCopyTextureInfo const *source,
                                           WGPUTexelCopyBufferInfo const *destination,
                                           WGPUExtent3D const *copySize)
{
    bt_args_t a = { destination, source, copySize, false };
    record_bt(commandEncoder, "wgpuCommandEncoderCopyTextureToBuffer", &a);
}

/* Spec: copyTextureToTexture(). */
static bool validate_t2t(eg_encoder_t *e, const eg_vctx_t *v, const WGPUTexelCopyTextureInfo *s,
                         const WGPUTexelCopyTextureInfo *d, const WGPUExtent3D *size)
{
    if (!validate_texture_info(e, v, s, size, "source") || !validate_texture_info(e, v, d, size, "destination"))
        return false;
    const eg_texture_t *st = s->texture, *dt = d->texture;
    EG_DCHECK(e, v, st->usage & WGPUTextureUsage_CopySrc, COPY_USAGE,
              "source texture \"%s\" lacks WGPUTextureUsage_CopySrc", st->obj.label);
    EG_DCHECK(e, v, dt->usage & WGPUTextureUsage_CopyDst, COPY_USAGE,
              "destination texture \"%s\" lacks WGPUTextureUsage_CopyDst", dt->obj.label);
    EG_DCHECK(e, v, st->sample_count == dt->sample_count, COPY_SAMPLE_COUNT,
              "source sampleCount %u differs from destination sampleCount %u",
              (unsigned)st->sample_count, (unsigned)dt->sample_count);
    /* "copy-compatible": equal formats, or formats that differ only in srgb-ness. */
    EG_DCHECK(e, v, st->format == dt->format || st->fi->srgb_pair == dt->format, COPY_FORMAT_MISMATCH,
              "source format %s and destination format %s are not copy-compatible",
              st->fi->name, dt->fi->name);
    if (eg_format_is_depth_stencil(st->fi))
        EG_DCHECK(e, v, eg_format_aspects_selected(st->fi, eg_format_resolve_aspect(s->aspect)) == st->fi->aspects &&
                      eg_format_aspects_selected(dt->fi, eg_format_resolve_aspect(d->aspect)) == dt->fi->aspects,
                  COPY_ASPECT, "depth/stencil texture copies must copy all aspects of %s",
                  st->fi->name);
    if (st == dt) {
        /* Same texture: the subresource sets must be disjoint (same mip and overlapping layers). */
        bool layers_overlap = st->dimension == WGPUTextureDimension_3D ||
            (s->origin.z < d->origin.z + size->depthOrArrayLayers &&
             d->origin.z < s->origin.z + size->depthOrArrayLayers);
        EG_DCHECK(e, v, s->mipLevel != d->mipLevel || !layers_overlap, COPY_SAME_SUBRESOURCE,
                  "source and destination overlap in mip %u of texture \"%s\"",
                  (unsigned)s->mipLevel, st->obj.label);
    }
    return true;
}

void wgpuCommandEncoderCopyTextureToTexture(WGPUCommandEncoder commandEncoder,
                                            WGPUTexelCopyTextureInfo const *source,
                                            WGPUTexelCopyTextureInfo const *destination,
                                            WGPUExtent3D const *copySize)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderCopyTextureToTexture", &v);
    if (!e || !eg_encoder_validate_state(e, &v))
        return;
    if (!source || !destination || !copySize) {
        eg_encoder_fail(e, &v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR,
                        "source, destination and copySize must not be NULL");
        return;
    }
    if (!validate_t2t(e, &v, source, destination, copySize))
        return;
    eg_texel_region_t sr = make_region(source, copySize, WGPUTextureAspect_All);
    eg_texel_region_t dr = make_region(destination, copySize, WGPUTextureAspect_All);
    eg_track_range_t srange = region_range(source->texture, &sr);
    eg_track_range_t drange = region_range(destination->texture, &dr);
    if (!eg_encoder_barrier_texture(e, &v, source->texture, &srange, EG_TRACK_TEX_COPY_SRC) ||
        !eg_encoder_barrier_texture(e, &v, destination->texture, &drange, EG_TRACK_TEX_COPY_DST))
        return;
    eg_cmd_copy_t2t_t *c = (eg_cmd_copy_t2t_t *)eg_encoder_record(e, EG_CMD_COPY_TEXTURE_TO_TEXTURE, sizeof *c);
    if (!c) {
        eg_encoder_stream_full(e, &v);
        return;
    }
    c->src = source->texture;
    c->dst = destination->texture;
    c->src_region = sr;
    c->dst_region = dr;
    eg_encoder_hold_refs(&c->hdr);
}

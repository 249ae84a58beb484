/* Render pipelines: createRenderPipeline validation, resolved fixed-function state, entry points.
 *
 * Checks follow the spec's "validating GPURenderPipelineDescriptor" in order: vertex stage and
 * vertex state, fragment stage and state, primitive, depth-stencil, multisample, alpha-to-
 * coverage, "at least one attachment", then the shader interface (render_pipeline_iface.c:
 * vertex inputs vs attributes, inter-stage variables, fragment outputs vs targets, frag_depth)
 * and last the layout: derived for layout "auto" (render_pipeline_auto.c), then every binding
 * each stage uses checked against it.
 */
#include "kernel/api/render_pipeline.h"

#include "kernel/api/device.h"
#include "kernel/api/features.h"
#include "kernel/api/instance.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/shader_module.h"
#include "kernel/base/fmt.h"
#include "kernel/format/format.h"

/* Spec §"Vertex Formats" table: byte size of each GPUVertexFormat. */
uint32_t eg_vertex_format_size_B(WGPUVertexFormat f)
{
    static const uint8_t size_B[] = {
        0,                      /* Undefined */
        1, 2, 4, 1, 2, 4,       /* Uint8, Uint8x2, Uint8x4, Sint8, Sint8x2, Sint8x4 */
        1, 2, 4, 1, 2, 4,       /* Unorm8 .. Snorm8x4 */
        2, 4, 8, 2, 4, 8,       /* Uint16 .. Sint16x4 */
        2, 4, 8, 2, 4, 8,       /* Unorm16 .. Snorm16x4 */
        2, 4, 8,                /* Float16, x2, x4 */
        4, 8, 12, 16,           /* Float32 .. x4 */
        4, 8, 12, 16,           /* Uint32 .. x4 */
        4, 8, 12, 16,           /* Sint32 .. x4 */
        4, 4,                   /* Unorm10_10_10_2, Unorm8x4BGRA */
    };
    return (uint32_t)f < EG_ARRAY_LEN(size_B) ? size_B[f] : 0;
}

/* ---- shared with compute pipelines ---- */

bool eg_pipeline_layout_use(const eg_vctx_t *v, WGPUPipelineLayout layout)
{
    /* NULL is layout "auto": accepted; the caller derives the layout from the shaders. */
    if (!layout) return true;
    if (!eg_handle_check(v, layout, EG_KIND_PIPELINE_LAYOUT, "layout", false)) return false;
    EG_CHECK(v, layout->obj.device == v->device, WRONG_DEVICE, "layout belongs to another device");
    return true;
}

/* Spec: "validating GPUProgrammableStage", the module part (bindings: eg_pipeline_stage_check_layout). */
bool eg_pipeline_stage_resolve(const eg_vctx_t *v, const char *what, WGPUShaderModule module,
                               WGPUStringView entry, size_t constant_count,
                               const WGPUConstantEntry *constants, eg_stage_t *out)
{
    char field[32];
    eg_fmt(field, sizeof field, "%s.module", what);
    if (!eg_handle_check(v, module, EG_KIND_SHADER_MODULE, field, false)) return false;
    EG_CHECK(v, module->obj.device == v->device, WRONG_DEVICE, "%s belongs to another device", field);
    size_t n = 0;
    if (entry.data) {
        if (entry.length == WGPU_STRLEN) {
            while (entry.data[n] && n <= EMGPU_ENTRY_POINT_NAME_MAX) n++;
        } else {
            n = entry.length;
        }
    }
    EG_CHECK(v, n <= EMGPU_ENTRY_POINT_NAME_MAX, PIPE_ENTRY_POINT,
             "%s.entryPoint is longer than EMGPU_ENTRY_POINT_NAME_MAX (%u bytes)", what,
             (unsigned)EMGPU_ENTRY_POINT_NAME_MAX);
    for (size_t i = 0; i < n; i++)
        EG_CHECK(v, entry.data[i] != '\0', PIPE_ENTRY_POINT, "%s.entryPoint has a NUL at byte %u", what,
                 (unsigned)i);
    out->module = module;
    if (n) eg_memcpy(out->entry_point, entry.data, n);
    out->entry_point[n] = '\0';
    /* The module must contain an entry point for the stage with that name (or exactly one for
     * the stage when entryPoint is undefined). The handle check above refused invalid modules. */
    eg_shader_stage_t stage = what[0] == 'v' ? EG_SHADER_STAGE_VERTEX
                            : what[0] == 'f' ? EG_SHADER_STAGE_FRAGMENT : EG_SHADER_STAGE_COMPUTE;
    out->entry = eg_spirv_find_entry(&module->spirv, stage, out->entry_point);
    EG_CHECK(v, out->entry != NULL, PIPE_ENTRY_POINT,
             "%s.entryPoint \"%s\": the module has no %s entry point of that name%s",
             what, out->entry_point, what, n ? "" : " (or more than one, so the name is required)");
    return eg_pipeline_stage_constants(v, what, &module->spirv, constant_count, constants, out);
}

/* ---- vertex state ---- */

static bool valid_vertex_format(WGPUVertexFormat f) { return eg_vertex_format_size_B(f) != 0; }

/* Spec: "validating GPUVertexBufferLayout". */
static bool validate_vertex_buffer(const eg_vctx_t *v, uint32_t b, const WGPUVertexBufferLayout *vb,
                                   struct WGPURenderPipelineImpl *rp)
{
    const WGPULimits *lim = &v->device->limits;
    EG_CHECK(v, vb->nextInChain == NULL, UNKNOWN_STYPE, "vertex.buffers[%u].nextInChain must be NULL", b);
    EG_CHECK(v, vb->stepMode <= WGPUVertexStepMode_Instance, ENUM_VALUE,
             "vertex.buffers[%u].stepMode 0x%x is not a WGPUVertexStepMode", b, (unsigned)vb->stepMode);
    EG_CHECK(v, vb->attributeCount == 0 || vb->attributes, NULL_DESCRIPTOR,
             "vertex.buffers[%u].attributes is NULL but attributeCount is %u", b, (unsigned)vb->attributeCount);
    EG_CHECK(v, vb->arrayStride <= lim->maxVertexBufferArrayStride, RP_VERTEX_STRIDE,
             "vertex.buffers[%u].arrayStride %llu exceeds maxVertexBufferArrayStride (%u)", b,
             (unsigned long long)vb->arrayStride, lim->maxVertexBufferArrayStride);
    EG_CHECK(v, vb->arrayStride % 4 == 0, RP_VERTEX_STRIDE,
             "vertex.buffers[%u].arrayStride %llu is not a multiple of 4", b, (unsigned long long)vb->arrayStride);
    uint64_t room = vb->arrayStride ? vb->arrayStride : lim->maxVertexBufferArrayStride;
    for (uint32_t a = 0; a < vb->attributeCount; a++) {
        const WGPUVertexAttribute *at = &vb->attributes[a];
        EG_CHECK(v, at->nextInChain == NULL, UNKNOWN_STYPE,
                 "vertex.buffers[%u].attributes[%u].nextInChain must be NULL", b, a);
        EG_CHECK(v, valid_vertex_format(at->format), ENUM_VALUE,
                 "vertex.buffers[%u].attributes[%u].format 0x%x is not a WGPUVertexFormat", b, a,
                 (unsigned)at->format);
        uint32_t size = eg_vertex_format_size_B(at->format);
        EG_CHECK(v, at->offset <= room && size <= room - at->offset, RP_VERTEX_ATTRIB_RANGE,
                 "vertex.buffers[%u].attributes[%u]: offset %llu + format size %u exceeds %s %llu", b, a,
                 (unsigned long long)at->offset, size,
                 vb->arrayStride ? "arrayStride" : "maxVertexBufferArrayStride", (unsigned long long)room);
        EG_CHECK(v, at->offset % eg_min_u32(4, size) == 0, RP_VERTEX_ATTRIB_ALIGNMENT,
                 "vertex.buffers[%u].attributes[%u].offset %llu is not a multiple of %u (min(4, format size))",
                 b, a, (unsigned long long)at->offset, eg_min_u32(4, size));
        EG_CHECK(v, at->shaderLocation < lim->maxVertexAttributes, RP_VERTEX_ATTRIB_LOCATION,
                 "vertex.buffers[%u].attributes[%u].shaderLocation %u must be < maxVertexAttributes (%u)",
                 b, a, at->shaderLocation, lim->maxVertexAttributes);
        for (uint32_t k = 0; k < rp->attrib_count; k++)
            EG_CHECK(v, rp->attribs[k].shader_location != at->shaderLocation, RP_VERTEX_ATTRIB_LOCATION,
                     "vertex.buffers[%u].attributes[%u].shaderLocation %u is used by another attribute",
                     b, a, at->shaderLocation);
        eg_vertex_attrib_t *out = &rp->attribs[rp->attrib_count++];
        out->format = at->format;
        out->offset_B = (uint32_t)at->offset;
        out->shader_location = at->shaderLocation;
        out->size_B = size;
    }
    return true;
}

/* Spec: "validating GPUVertexState". webgpu.h: a layout with stepMode Undefined and no
 * attributes is an unused slot; Undefined with attributes means Vertex. */
static bool validate_vertex_state(const eg_vctx_t *v, const WGPUVertexState *vs, struct WGPURenderPipelineImpl *rp)
{
    const WGPULimits *lim = &v->device->limits;
    EG_CHECK(v, vs->nextInChain == NULL, UNKNOWN_STYPE, "vertex.nextInChain must be NULL");
    EG_CHECK(v, vs->bufferCount == 0 || vs->buffers, NULL_DESCRIPTOR,
             "vertex.buffers is NULL but bufferCount is %u", (unsigned)vs->bufferCount);
    EG_CHECK(v, vs->bufferCount <= lim->maxVertexBuffers, RP_VERTEX_BUFFER_COUNT,
             "vertex.bufferCount %u exceeds maxVertexBuffers (%u)", (unsigned)vs->bufferCount, lim->maxVertexBuffers);
    size_t total = 0;
    for (size_t b = 0; b < vs->bufferCount; b++) total += vs->buffers[b].attributeCount;
    EG_CHECK(v, total <= lim->maxVertexAttributes, RP_VERTEX_ATTRIB_COUNT,
             "vertex buffers declare %u attributes in total, more than maxVertexAttributes (%u)",
             (unsigned)total, lim->maxVertexAttributes);
    if (vs->bufferCount > EMGPU_MAX_VERTEX_BUFFERS || total > EMGPU_MAX_VERTEX_ATTRIBUTES)
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                       "%u vertex buffers / %u attributes exceed what a pipeline holds "
                       "(EMGPU_MAX_VERTEX_BUFFERS = %u, EMGPU_MAX_VERTEX_ATTRIBUTES = %u)",
                       (unsigned)vs->bufferCount, (unsigned)total, (unsigned)EMGPU_MAX_VERTEX_BUFFERS,
                       (unsigned)EMGPU_MAX_VERTEX_ATTRIBUTES);
    for (uint32_t b = 0; b < vs->bufferCount; b++) {
        const WGPUVertexBufferLayout *vb = &vs->buffers[b];
        eg_vertex_buffer_t *out = &rp->vertex_buffers[b];
        out->first_attrib = rp->attrib_count;
        if (!validate_vertex_buffer(v, b, vb, rp)) return false;
        out->attrib_count = rp->attrib_count - out->first_attrib;
        out->used = !(vb->stepMode == WGPUVertexStepMode_Undefined && vb->attributeCount == 0);
        out->step_mode = vb->stepMode == WGPUVertexStepMode_Instance ? WGPUVertexStepMode_Instance
                                                                     : WGPUVertexStepMode_Vertex;
        out->stride_B = (uint32_t)vb->arrayStride;
    }
    rp->vertex_buffer_count = (uint32_t)vs->bufferCount;
    return true;
}

/* ---- primitive state ---- */

/* Spec: "validating GPUPrimitiveState". Undefined topology means TriangleList, frontFace CCW,
 * cullMode None (webgpu.h defaults). */
static bool validate_primitive(const eg_vctx_t *v, const WGPUPrimitiveState *p, struct WGPURenderPipelineImpl *rp)
{
    EG_CHECK(v, p->nextInChain == NULL, UNKNOWN_STYPE, "primitive.nextInChain must be NULL");
    EG_CHECK(v, p->topology <= WGPUPrimitiveTopology_TriangleStrip, ENUM_VALUE,
             "primitive.topology 0x%x is not a WGPUPrimitiveTopology", (unsigned)p->topology);
    EG_CHECK(v, p->stripIndexFormat <= WGPUIndexFormat_Uint32, ENUM_VALUE,
             "primitive.stripIndexFormat 0x%x is not a WGPUIndexFormat", (unsigned)p->stripIndexFormat);
    EG_CHECK(v, p->frontFace <= WGPUFrontFace_CW, ENUM_VALUE,
             "primitive.frontFace 0x%x is not a WGPUFrontFace", (unsigned)p->frontFace);
    EG_CHECK(v, p->cullMode <= WGPUCullMode_Back, ENUM_VALUE,
             "primitive.cullMode 0x%x is not a WGPUCullMode", (unsigned)p->cullMode);
    WGPUPrimitiveTopology topo = p->topology ? p->topology : WGPUPrimitiveTopology_TriangleList;
    bool strip = topo == WGPUPrimitiveTopology_LineStrip || topo == WGPUPrimitiveTopology_TriangleStrip;
    EG_CHECK(v, strip || p->stripIndexFormat == WGPUIndexFormat_Undefined, RP_STRIP_INDEX_FORMAT,
             "primitive.stripIndexFormat must be Undefined for a list topology (0x%x)", (unsigned)topo);
    EG_CHECK(v, !p->unclippedDepth || eg_features_has(v->device->features, WGPUFeatureName_DepthClipControl),
             RP_UNCLIPPED_DEPTH, "primitive.unclippedDepth needs the DepthClipControl feature");
    rp->topology = topo;
    rp->strip_index_format = p->stripIndexFormat;
    rp->front_face = p->frontFace ? p->frontFace : WGPUFrontFace_CCW;
    rp->cull_mode = p->cullMode ? p->cullMode : WGPUCullMode_None;
    rp->unclipped_depth = p->unclippedDepth ? 1 : 0;
    return true;
}

/* Spec: createRenderPipeline(), "validating GPURenderPipelineDescriptor". */
static bool validate_state(const eg_vctx_t *v, const WGPURenderPipelineDescriptor *d, struct WGPURenderPipelineImpl *rp)
{
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             (unsigned)d->nextInChain->sType);
    if (!eg_pipeline_layout_use(v, d->layout)) return false;
    if (!eg_pipeline_stage_resolve(v, "vertex", d->vertex.module, d->vertex.entryPoint,
                                   d->vertex.constantCount, d->vertex.constants, &rp->vertex))
        return false;
    if (!validate_vertex_state(v, &d->vertex, rp)) return false;
    if (d->fragment) {
        if (!eg_pipeline_stage_resolve(v, "fragment", d->fragment->module, d->fragment->entryPoint,
                                       d->fragment->constantCount, d->fragment->constants, &rp->fragment))
            return false;
        if (!eg_render_pipeline_check_fragment(v, d->fragment, rp)) return false;
    }
    if (!validate_primitive(v, &d->primitive, rp)) return false;
    if (d->depthStencil && !eg_render_pipeline_check_depth_stencil(v, d->depthStencil, rp)) return false;
    if (!eg_render_pipeline_check_multisample(v, d, rp)) return false;
    bool any_color = false;
    for (uint32_t i = 0; i < rp->color_target_count; i++)
        any_color |= rp->color_targets[i].format != WGPUTextureFormat_Undefined;
    EG_CHECK(v, any_color || d->depthStencil, RP_NO_ATTACHMENT,
             "the pipeline has no attachment: give fragment.targets a non-Undefined format or set depthStencil");
    return eg_render_pipeline_check_interface(v, d, rp);
}

/* The layout part: layout "auto" is derived from the stages (spec "default pipeline layout"),
 * then every stage's bindings are checked against the layout (an explicit one can fail; a
 * derived one fits by construction, the filtering rule included). On success rp->layout holds
 * one reference (taken here for an explicit layout). */
static bool validate_layout(const eg_vctx_t *v, const WGPURenderPipelineDescriptor *d, struct WGPURenderPipelineImpl *rp)
{
    const eg_stage_t *stages[2] = { &rp->vertex, &rp->fragment };
    uint32_t n = rp->fragment.module ? 2 : 1;
    struct WGPUPipelineLayoutImpl *pl = d->layout;
    if (!pl) {
        pl = eg_pipeline_layout_derive(v, stages, n, rp);
        if (!pl) return false;
    } else {
        eg_object_ref(pl);
    }
    bool ok = eg_pipeline_stage_check_layout(v, "vertex", &rp->vertex, pl) &&
              (n < 2 || eg_pipeline_stage_check_layout(v, "fragment", &rp->fragment, pl));
    const WGPULimits *lim = &v->device->limits;
    if (ok && pl->group_count + rp->vertex_buffer_count > lim->maxBindGroupsPlusVertexBuffers)
        ok = eg_fail(v, WGPUErrorType_Validation, EG_E_RP_BIND_GROUPS_PLUS_VERTEX_BUFFERS,
                     "%u bind groups + %u vertex buffers exceed maxBindGroupsPlusVertexBuffers (%u)",
                     pl->group_count, rp->vertex_buffer_count, lim->maxBindGroupsPlusVertexBuffers);
    if (!ok) {
        wgpuPipelineLayoutRelease(pl);
        return false;
    }
    rp->layout = pl;
    return true;
}

/* References are taken only for a valid pipeline, so an invalid one holds none. */
static void take_refs(struct WGPURenderPipelineImpl *rp)
{
    eg_object_ref(rp->vertex.module);
    if (rp->fragment.module) eg_object_ref(rp->fragment.module);
}

static void destroy_rp(void *object)
{
    struct WGPURenderPipelineImpl *rp = object;
    struct WGPUDeviceImpl *dev = rp->obj.device;
    if (rp->vertex.module) {   /* refs were taken (validation passed) */
        if (!rp->obj.invalid) dev->hal->render_pipeline_destroy(dev->hal_dev, rp);
        wgpuPipelineLayoutRelease(rp->layout);
        wgpuShaderModuleRelease(rp->vertex.module);
        if (rp->fragment.module) wgpuShaderModuleRelease(rp->fragment.module);
    }
    eg_object_free(rp);
}

WGPURenderPipeline wgpuDeviceCreateRenderPipeline(WGPUDevice device, WGPURenderPipelineDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateRenderPipeline", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    struct WGPURenderPipelineImpl *rp = eg_object_alloc(&v, device, EG_KIND_RENDER_PIPELINE);
    if (!rp) return NULL;
    eg_object_set_label(&rp->obj, descriptor->label);
    v.label = rp->obj.label;
    if (!validate_state(&v, descriptor, rp) || !validate_layout(&v, descriptor, rp)) {
        rp->vertex.module = rp->fragment.module = NULL;
        rp->layout = NULL;
        rp->obj.invalid = 1;
        return rp;
    }
    take_refs(rp);
    eg_status_t st = device->hal->render_pipeline_create(device->hal_dev, rp);
    if (st != EG_STATUS_OK) rp->obj.invalid = !eg_binding_hal_fail(&v, st, "render pipeline");
    return rp;
}

void wgpuRenderPipelineSetLabel(WGPURenderPipeline renderPipeline, WGPUStringView label)
{
    if (!eg_handle_live(renderPipeline, EG_KIND_RENDER_PIPELINE, "wgpuRenderPipelineSetLabel")) return;
    eg_object_set_label(&renderPipeline->obj, label);
}

void wgpuRenderPipelineAddRef(WGPURenderPipeline renderPipeline)
{
    if (!eg_handle_live(renderPipeline, EG_KIND_RENDER_PIPELINE, "wgpuRenderPipelineAddRef")) return;
    eg_object_ref(renderPipeline);
}

void wgpuRenderPipelineRelease(WGPURenderPipeline renderPipeline)
{
    if (!eg_handle_live(renderPipeline, EG_KIND_RENDER_PIPELINE, "wgpuRenderPipelineRelease")) return;
    eg_object_unref(renderPipeline, destroy_rp);
}

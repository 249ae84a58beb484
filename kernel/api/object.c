/* Shared object helpers: kind names and labels. */
#include "kernel/api/object.h"

static const char *const kind_names[EG_KIND_COUNT] = {
    [EG_KIND_NONE] = "object",
    [EG_KIND_ADAPTER] = "adapter",
    [EG_KIND_DEVICE] = "device",
    [EG_KIND_QUEUE] = "queue",
    [EG_KIND_BUFFER] = "buffer",
    [EG_KIND_TEXTURE] = "texture",
    [EG_KIND_TEXTURE_VIEW] = "texture view",
    [EG_KIND_SAMPLER] = "sampler",
    [EG_KIND_BIND_GROUP_LAYOUT] = "bind group layout",
    [EG_KIND_BIND_GROUP] = "bind group",
    [EG_KIND_PIPELINE_LAYOUT] = "pipeline layout",
    [EG_KIND_SHADER_MODULE] = "shader module",
    [EG_KIND_RENDER_PIPELINE] = "render pipeline",
    [EG_KIND_COMPUTE_PIPELINE] = "compute pipeline",
    [EG_KIND_COMMAND_BUFFER] = "command encoder/buffer",
    [EG_KIND_PASS_ENCODER] = "pass encoder",
    [EG_KIND_SURFACE] = "surface",
};

const char *eg_kind_name(eg_kind_t kind)
{
    return (unsigned)kind < EG_KIND_COUNT ? kind_names[kind] : "object";
}

void eg_object_set_label(eg_object_t *o, WGPUStringView label)
{
    size_t n = 0;
    if (label.data) {
        if (label.length == WGPU_STRLEN) {
            while (label.data[n] && n < sizeof o->label - 1) n++;
        } else {
            n = label.length < sizeof o->label - 1 ? label.length : sizeof o->label - 1;
        }
        eg_memcpy(o->label, label.data, n);
    }
    o->label[n] = '\0';
}

/* Stable validation error codes, one X-macro table: X(CODE, "what the rule says").
 *
 * Tests assert the code (and a fragment of the message that names the field); the summary
 * column documents the rule and is what a text-free build would keep. The message itself is
 * written at the check (EG_CHECK), where the field, value and limit are at hand.
 * Sections are per object; add a code to the section of the file whose checks use it.
 */
#ifndef EG_ERROR_CODES_H
#define EG_ERROR_CODES_H

#define EG_ERROR_CODES(X) \
    /* ---- generic ---- */ \
    X(NONE, "no error") \
    X(NULL_DESCRIPTOR, "a required descriptor pointer is NULL") \
    X(NULL_HANDLE, "a required object handle is NULL") \
    X(STALE_HANDLE, "the handle points to a released object") \
    X(WRONG_HANDLE_KIND, "the handle is not an object of the expected type") \
    X(INVALID_OBJECT, "the object is invalid (its creation failed validation)") \
    X(DESTROYED_OBJECT, "the object was destroyed") \
    X(WRONG_DEVICE, "the object belongs to another device") \
    X(UNKNOWN_STYPE, "a chained struct has an sType this call does not accept") \
    X(POOL_FULL, "an object pool is full (its EMGPU_MAX_* knob)") \
    X(ARENA_FULL, "an arena or heap is full (its EMGPU_*_BYTES knob)") \
    X(HAL_OUT_OF_MEMORY, "the backend ran out of memory") \
    X(HAL_INTERNAL, "the backend reported an internal error") \
    X(DEVICE_LOST, "the device is lost") \
    /* ---- instance / adapter / device ---- */ \
    X(INSTANCE_FEATURE_UNSUPPORTED, "requested instance feature is not supported") \
    X(DEVICE_FEATURE_UNSUPPORTED, "requested feature is not supported by the adapter") \
    X(DEVICE_LIMIT_UNSUPPORTED, "requested limit is beyond the adapter's") \
    X(DEVICE_LIMIT_ALIGNMENT, "requested alignment limit is not a power of two") \
    X(ADAPTER_ALREADY_USED, "the adapter already created a device (it is consumed)") \
    X(ERROR_SCOPE_OVERFLOW, "PushErrorScope beyond EMGPU_MAX_ERROR_SCOPES") \
    X(ERROR_SCOPE_EMPTY, "PopErrorScope with no scope pushed") \
    X(ENUM_VALUE, "an enum field has a value outside the enum") \
    /* ---- buffer ---- */ \
    X(BUFFER_USAGE_NONE, "buffer usage is 0 (WGPUBufferUsage_None)") \
    X(BUFFER_USAGE_UNKNOWN, "buffer usage has bits outside WGPUBufferUsage") \
    X(BUFFER_MAP_USAGE_COMBO, "MapRead may only combine with CopyDst, MapWrite only with CopySrc") \
    X(BUFFER_TOO_LARGE, "buffer size exceeds maxBufferSize") \
    X(BUFFER_MAPPED_AT_CREATION_SIZE, "mappedAtCreation requires size to be a multiple of 4") \
    X(BUFFER_MAP_MODE, "MapAsync mode must be exactly Read or Write, with the matching Map usage") \
    X(BUFFER_MAP_ALIGNMENT, "MapAsync/GetMappedRange offset not a multiple of 8 or size not of 4") \
    X(BUFFER_MAP_RANGE, "map range goes past the end of the buffer (or of the mapped range)") \
    X(BUFFER_MAP_STATE, "the buffer is already mapped, has a map pending, or is not mapped") \
    X(BUFFER_MAP_OVERLAP, "GetMappedRange overlaps a range already returned for this mapping") \
    X(BUFFER_MAP_CONST, "GetMappedRange (writable) on a buffer mapped for reading") \
    X(BUFFER_MAP_ABORTED, "the pending map was aborted by Unmap, Destroy or Release") \
    /* ---- texture / view / sampler ---- */ \
    X(TEXTURE_USAGE_NONE, "texture usage is 0 (WGPUTextureUsage_None)") \
    X(TEXTURE_USAGE_UNKNOWN, "texture usage has bits outside WGPUTextureUsage") \
    X(TEXTURE_FORMAT_FEATURE, "the format needs a feature the device does not have") \
    X(TEXTURE_FORMAT_ADAPTER, "the adapter's driver lacks this emgpu extension format") \
    X(TEXTURE_SIZE_ZERO, "a texture size dimension is 0") \
    X(TEXTURE_1D_SHAPE, "1D textures need height = depthOrArrayLayers = 1") \
    X(TEXTURE_TOO_LARGE, "texture size exceeds maxTextureDimension1D/2D/3D") \
    X(TEXTURE_TOO_MANY_LAYERS, "depthOrArrayLayers exceeds maxTextureArrayLayers") \
    X(TEXTURE_DIMENSION_FORMAT, "the format cannot be used with this dimension (depth/compressed in 1D/3D)") \
    X(TEXTURE_BLOCK_ALIGNMENT, "size is not a multiple of the compressed format's block size") \
    X(TEXTURE_MIP_COUNT_ZERO, "mipLevelCount is 0") \
    X(TEXTURE_MIP_COUNT_TOO_LARGE, "mipLevelCount exceeds the full mip chain of the size") \
    X(TEXTURE_SAMPLE_COUNT, "sampleCount must be 1 or 4") \
    X(TEXTURE_MULTISAMPLE, "sampleCount 4 needs 2D, one layer, mip 1, a multisample format, no storage") \
    X(TEXTURE_FORMAT_USAGE, "usage needs a format capability the format lacks (render/storage)") \
    X(TEXTURE_TRANSIENT_USAGE, "TransientAttachment must be combined with RenderAttachment only") \
    X(TEXTURE_VIEW_FORMATS, "viewFormats lists a format that is not view-compatible") \
    X(VIEW_FORMAT, "view format is neither the texture's format nor in its viewFormats") \
    X(VIEW_ASPECT, "view aspect selects no aspect of the format") \
    X(VIEW_DIMENSION, "view dimension is not compatible with the texture's dimension") \
    X(VIEW_MIP_RANGE, "baseMipLevel/mipLevelCount is empty or past the texture's mip levels") \
    X(VIEW_LAYER_RANGE, "baseArrayLayer/arrayLayerCount is empty or past the texture's layers") \
    X(VIEW_LAYER_COUNT, "arrayLayerCount does not fit the dimension (1, 6, multiple of 6)") \
    X(VIEW_USAGE, "view usage is not a subset of the texture's usage, or unsupported by the view format") \
    X(VIEW_CUBE_SQUARE, "cube views need width == height") \
    X(SAMPLER_LOD_CLAMP, "lodMinClamp must be >= 0 and lodMaxClamp >= lodMinClamp") \
    X(SAMPLER_ANISOTROPY, "maxAnisotropy must be >= 1; > 1 needs all filters Linear") \
    /* ---- binding model / shader / pipelines ---- */ \
    X(INLINE_BOUND, "an inline array bound of the object is exceeded (its EMGPU_MAX_* knob)") \
    X(BGL_BINDING_TOO_LARGE, "binding number >= maxBindingsPerBindGroup") \
    X(BGL_BINDING_DUPLICATE, "two layout entries have the same binding number") \
    X(BGL_ENTRY_KIND, "a layout entry must set exactly one of buffer/sampler/texture/storageTexture") \
    X(BGL_VISIBILITY, "visibility has bits outside WGPUShaderStage") \
    X(BGL_VERTEX_WRITABLE, "writable storage (buffer or texture) is visible to the vertex stage") \
    X(BGL_BINDING_ARRAY, "bindingArraySize > 1 (binding arrays) is not supported") \
    X(BGL_MULTISAMPLED, "multisampled texture binding: viewDimension must be 2D, sampleType not Float") \
    X(BGL_STORAGE_TEXTURE_DIMENSION, "storage texture viewDimension must not be Cube/CubeArray") \
    X(BGL_STORAGE_TEXTURE_FORMAT, "storage texture format does not support storage with that access") \
    X(BINDING_SLOT_LIMIT, "more bindings of a kind in a stage than the per-stage limit allows") \
    X(BG_ENTRY_COUNT, "bind group entryCount differs from its layout's entry count") \
    X(BG_BINDING_UNKNOWN, "a bind group entry's binding is not in the layout") \
    X(BG_BINDING_DUPLICATE, "two bind group entries have the same binding") \
    X(BG_RESOURCE_KIND, "the entry sets a resource of another kind than its layout entry") \
    X(BG_BUFFER_USAGE, "bound buffer lacks the Uniform/Storage usage its layout entry needs") \
    X(BG_BUFFER_OFFSET_ALIGNMENT, "buffer offset not a multiple of min*BufferOffsetAlignment") \
    X(BG_BUFFER_RANGE, "bound buffer range is empty or past the end of the buffer") \
    X(BG_BUFFER_BINDING_SIZE, "bound size exceeds max*BufferBindingSize") \
    X(BG_BUFFER_MIN_BINDING_SIZE, "bound size is below the layout's minBindingSize") \
    X(BG_STORAGE_SIZE_ALIGNMENT, "storage buffer binding size is not a multiple of 4") \
    X(BG_SAMPLER_TYPE, "sampler does not match the layout's sampler type") \
    X(BG_TEXTURE_USAGE, "texture view lacks TextureBinding/StorageBinding usage") \
    X(BG_VIEW_DIMENSION, "texture view dimension differs from the layout's viewDimension") \
    X(BG_SAMPLE_TYPE, "texture view format is not compatible with the layout's sampleType") \
    X(BG_MULTISAMPLED, "texture sample count does not match the layout's multisampled") \
    X(BG_STORAGE_FORMAT, "storage texture view format differs from the layout's format") \
    X(BG_STORAGE_MIP_COUNT, "storage texture view must have exactly one mip level") \
    X(PL_TOO_MANY_GROUPS, "bindGroupLayoutCount exceeds maxBindGroups") \
    X(PL_IMMEDIATE_SIZE, "immediateSize exceeds maxImmediateSize or is not a multiple of 4") \
    X(SM_NO_SOURCE, "no WGPUShaderSourceSPIRV chained to the shader module descriptor") \
    X(SM_WGSL_UNSUPPORTED, "WGSL source given: emgpu accepts SPIR-V only") \
    X(SM_SPIRV_EMPTY, "SPIR-V code is NULL or codeSize is 0") \
    X(SM_SPIRV_HEADER, "SPIR-V is shorter than its 5-word header") \
    X(SM_SPIRV_MAGIC, "SPIR-V word 0 is not the magic number 0x07230203") \
    X(SM_SPIRV_INVALID, "SPIR-V module breaks a rule of the front end (kernel/shader)") \
    X(PIPE_ENTRY_POINT, "entry point name too long (EMGPU_ENTRY_POINT_NAME_MAX) or malformed") \
    X(PIPE_CONSTANTS, "constants: key is not a decimal SpecId of the module, is repeated, or the value does not fit its type") \
    X(PIPE_BINDING_MISSING, "the shader uses a binding that the pipeline layout does not have") \
    X(PIPE_BINDING_VISIBILITY, "the layout entry of a binding the shader uses is not visible to its stage") \
    X(PIPE_BINDING_TYPE, "the layout entry's type does not match the shader's resource") \
    X(PIPE_MIN_BINDING_SIZE, "layout minBindingSize is smaller than the shader's buffer needs") \
    X(PIPE_SAMPLER_FILTERING, "a Filtering sampler is used with an UnfilterableFloat texture") \
    X(PIPE_WORKGROUP_SIZE, "compute workgroup size exceeds maxComputeWorkgroupSize* / Invocations") \
    X(PIPE_WORKGROUP_STORAGE, "compute workgroup storage exceeds maxComputeWorkgroupStorageSize") \
    X(PIPE_AUTO_LAYOUT, "layout auto: the stages' uses of one binding conflict, or a group exceeds maxBindGroups") \
    X(PIPE_BGL_INDEX, "GetBindGroupLayout: index out of range or names a null group") \
    X(RP_VERTEX_INPUT, "a vertex shader input has no attribute, or its format type differs") \
    X(RP_INTER_STAGE, "fragment input without matching vertex output (location, type, interpolation)") \
    X(RP_INTER_STAGE_LIMIT, "inter-stage variables exceed maxInterStageShaderVariables") \
    X(RP_TARGET_OUTPUT, "color target format vs fragment output: components, type, or writeMask without output") \
    X(RP_FRAG_DEPTH, "the fragment shader writes FragDepth but depthStencil has no depth aspect") \
    X(RP_VERTEX_BUFFER_COUNT, "vertex.bufferCount exceeds maxVertexBuffers") \
    X(RP_BIND_GROUPS_PLUS_VERTEX_BUFFERS, "bind groups + vertex buffers exceed maxBindGroupsPlusVertexBuffers") \
    X(RP_VERTEX_STRIDE, "arrayStride exceeds maxVertexBufferArrayStride or is not a multiple of 4") \
    X(RP_VERTEX_ATTRIB_COUNT, "total vertex attributes exceed maxVertexAttributes") \
    X(RP_VERTEX_ATTRIB_LOCATION, "shaderLocation >= maxVertexAttributes or used twice") \
    X(RP_VERTEX_ATTRIB_RANGE, "attribute offset + format size exceeds the stride") \
    X(RP_VERTEX_ATTRIB_ALIGNMENT, "attribute offset not a multiple of min(4, format size)") \
    X(RP_STRIP_INDEX_FORMAT, "stripIndexFormat set with a non-strip topology") \
    X(RP_UNCLIPPED_DEPTH, "unclippedDepth needs the DepthClipControl feature") \
    X(RP_DEPTH_STENCIL_FORMAT, "depthStencil.format is not a depth/stencil format") \
    X(RP_DEPTH_ASPECT, "depth test/write or depthCompare requires a format with depth") \
    X(RP_STENCIL_ASPECT, "non-default stencil state requires a format with stencil") \
    X(RP_DEPTH_WRITE_REQUIRED, "depthWriteEnabled must be set (not Undefined) for a depth format") \
    X(RP_DEPTH_COMPARE_REQUIRED, "depthCompare must be set when depth is written or depthFailOp is used") \
    X(RP_DEPTH_BIAS, "depth bias must be 0 for point and line topologies") \
    X(RP_MULTISAMPLE_COUNT, "multisample.count must be 1 or 4") \
    X(RP_ALPHA_TO_COVERAGE, "alphaToCoverage needs count > 1 and targets[0] blendable with alpha") \
    X(RP_COLOR_TARGET_COUNT, "fragment.targetCount exceeds maxColorAttachments") \
    X(RP_COLOR_FORMAT, "color target format is not a color-renderable format") \
    X(RP_BLEND_FORMAT, "blend set on a format that is not blendable") \
    X(RP_BLEND_COMPONENT, "blend component invalid (Min/Max need One factors; src1 factors need DualSourceBlending)") \
    X(RP_WRITE_MASK, "writeMask has bits outside WGPUColorWriteMask_All") \
    X(RP_COLOR_BYTES_PER_SAMPLE, "color targets exceed maxColorAttachmentBytesPerSample") \
    X(RP_NO_ATTACHMENT, "a render pipeline needs a non-null color target or a depthStencil") \
    /* ---- command encoding ---- */ \
    X(ENCODER_LOCKED, "an encoder command was recorded while a pass is open on it") \
    X(ENCODER_ENDED, "the encoder was already finished") \
    X(PASS_ENDED, "the pass encoder was already ended") \
    X(DEBUG_GROUP_UNBALANCED, "PopDebugGroup without a group, or groups left open at End/Finish") \
    X(COPY_USAGE, "a copy/clear buffer or texture lacks the CopySrc/CopyDst usage") \
    X(COPY_ALIGNMENT, "a copy/clear offset or size is not a multiple of 4 (or of the block)") \
    X(COPY_OUT_OF_BOUNDS, "a copy/clear range goes past the end of its buffer or subresource") \
    X(COPY_SAME_BUFFER, "copyBufferToBuffer source and destination are the same buffer") \
    X(COPY_SAME_SUBRESOURCE, "copyTextureToTexture source and destination subresources overlap") \
    X(COPY_LAYOUT, "bytesPerRow / rowsPerImage of a texel copy break the linear layout rules") \
    X(COPY_MIP_LEVEL, "a texel copy's mipLevel is not below the texture's mipLevelCount") \
    X(COPY_SAMPLE_COUNT, "a texel copy names a multisampled texture (or sample counts differ)") \
    X(COPY_ASPECT, "a texel copy's aspect is not in the format, not single, or not copyable") \
    X(COPY_FORMAT_MISMATCH, "copyTextureToTexture formats are not copy-compatible") \
    X(COPY_DEPTH_STENCIL, "a depth/stencil copy covers part of a subresource") \
    X(PASS_ATTACHMENT_COUNT, "render pass has no attachment, or too many color attachments") \
    X(PASS_ATTACHMENT_VIEW, "render pass attachment view is not renderable or not one subresource") \
    X(PASS_ATTACHMENT_SIZE, "render pass attachments differ in size") \
    X(PASS_ATTACHMENT_SAMPLES, "render pass attachments differ in sample count") \
    X(PASS_RESOLVE_TARGET, "render pass resolveTarget breaks a resolve rule") \
    X(PASS_LOAD_STORE_OP, "render pass loadOp/storeOp missing, or given for a read-only aspect") \
    X(PASS_CLEAR_VALUE, "render pass clear value out of range") \
    X(PASS_DEPTH_SLICE, "render pass depthSlice breaks the 3D attachment rules") \
    X(PASS_BYTES_PER_SAMPLE, "color attachments exceed maxColorAttachmentBytesPerSample") \
    X(PASS_QUERY_UNSUPPORTED, "query sets (occlusion, timestamps) are not supported") \
    X(PASS_DRAW_COUNT, "more draws than maxDrawCount") \
    X(PASS_OPEN, "Finish with a pass still open") \
    X(USAGE_CONFLICT, "two uses of one resource conflict in a usage scope") \
    X(BIND_GROUP_INDEX, "setBindGroup index is not below maxBindGroups") \
    X(DYNAMIC_OFFSETS, "dynamic offset count, alignment or range is wrong") \
    X(SET_BUFFER, "setVertexBuffer/setIndexBuffer usage, slot, alignment or range is wrong") \
    X(VIEWPORT, "setViewport rectangle or depth range out of bounds") \
    X(SCISSOR, "setScissorRect rectangle outside the render targets") \
    X(DRAW_STATE, "draw/dispatch without a pipeline, a compatible bind group or a vertex/index buffer") \
    X(DRAW_BUFFER_BINDING_SIZE, "a bound buffer is smaller than the pipeline's shader needs") \
    X(DRAW_RANGE, "draw reads past the end of a bound vertex or index buffer") \
    X(INDIRECT_BUFFER, "indirect buffer usage, offset alignment or range is wrong") \
    X(DISPATCH_SIZE, "workgroup count exceeds maxComputeWorkgroupsPerDimension") \
    X(PIPELINE_INCOMPATIBLE, "pipeline does not match the render pass attachments") \
    X(CMDBUF_INVALID, "the command buffer is invalid or was already submitted") \
    X(CMDBUF_RESOURCE_STATE, "a resource used by the command buffer is destroyed or mapped") \
    /* ---- queue ---- */ \
    X(QUEUE_NULL_ARRAY, "a count is nonzero but its array pointer is NULL") \
    X(QUEUE_WRITE_USAGE, "WriteBuffer/WriteTexture destination lacks the CopyDst usage") \
    X(QUEUE_WRITE_ALIGNMENT, "WriteBuffer offset or size is not a multiple of 4") \
    X(QUEUE_WRITE_OUT_OF_BOUNDS, "WriteBuffer range is outside the buffer") \
    X(QUEUE_WRITE_MAPPED, "WriteBuffer destination is mapped or has a map pending") \
    X(QUEUE_TEXEL_COPY, "WriteTexture destination (mip, origin, size, aspect) is invalid") \
    X(QUEUE_TEXEL_LAYOUT, "WriteTexture data layout does not fit the data") \
    /* ---- surface ---- */ \
    X(SURFACE_SOURCE, "the surface source (chained sType and its fields) is missing or invalid") \
    X(SURFACE_UNSUPPORTED, "the device's backend cannot present to surfaces") \
    X(SURFACE_FORMAT, "configured format is not in the surface's capabilities") \
    X(SURFACE_USAGE, "configured usage is 0 or not a subset of the capabilities' usages") \
    X(SURFACE_ALPHA_MODE, "configured alphaMode is not in the surface's capabilities") \
    X(SURFACE_PRESENT_MODE, "configured presentMode is not in the surface's capabilities") \
    X(SURFACE_SIZE, "configured size is 0, above maxTextureDimension2D or larger than the panel") \
    X(SURFACE_NOT_CONFIGURED, "the surface is not configured") \
    X(SURFACE_ALREADY_ACQUIRED, "GetCurrentTexture again, or (un)configure, before Present") \
    X(SURFACE_NOT_ACQUIRED, "Present without a texture from GetCurrentTexture") \
    X(SURFACE_TEXTURE_DESTROYED, "the surface texture was destroyed before Present") \
    X(SURFACE_DAMAGE, "wgpuSurfaceEmgpuSetDamage: bad rectangles, or called outside a frame") \
    X(SURFACE_BAND_SECOND_PASS, "a second render pass into a banded (strip-mode) surface frame") \
    /* ---- backend: gles ---- */ \
    X(GLES_VIEW_UNSUPPORTED, "GLES cannot sample this texture view (it has no texture views)") \
    X(GLES_PROGRAM_CACHE_FULL, "the GLES program cache is full (EMGPU_GLES_PROGRAM_CACHE)") \
    X(GLES_SHADER_TRANSLATION, "SPIRV-Cross or the GLSL ES compiler rejected a shader") \
    X(GLES_PER_TARGET_BLEND, "per-target blend or write mask needs GLES 3.2 / OES_draw_buffers_indexed") \
    /* ---- backend: d3d12 ---- */ \
    X(D3D12_SHADER_LOWERING, "a shader stage could not be lowered to DXBC (IR build or the TPF emitter)") \
    X(D3D12_PSO_CREATE, "D3D12 rejected a pipeline state object (CreateGraphics/ComputePipelineState)") \
    /* end */

typedef enum eg_error_code {
#define EG_ERROR_CODE_ENUM(code, summary) EG_E_##code,
    EG_ERROR_CODES(EG_ERROR_CODE_ENUM)
#undef EG_ERROR_CODE_ENUM
    EG_E_COUNT
} eg_error_code_t;

const char *eg_error_code_name(eg_error_code_t code);
const char *eg_error_code_summary(eg_error_code_t code);

#endif /* EG_ERROR_CODES_H */

/* The SPIR-V front end's rules: one name per rule, quoted in every rejection message.
 *
 * Sources: the SPIR-V specification (section 2.3 "Physical Layout", 2.4 "Logical Layout") for
 * the parse rules, and the WebGPU Execution Environment for SPIR-V (gpuweb/spirv-execution-env,
 * as amended by issue #3) for the rest. Each rule has a negative test in tests/shaders/invalid/.
 */
#ifndef EG_SHADER_SPIRV_RULES_H
#define EG_SHADER_SPIRV_RULES_H

#define EG_SPIRV_RULES(X) \
    X(HEADER_SIZE, "module shorter than the 5-word header") \
    X(HEADER_MAGIC, "word 0 is not the SPIR-V magic number") \
    X(HEADER_VERSION, "version is not 1.0 to 1.5") \
    X(HEADER_BOUND, "id bound is 0 or larger than the module can define") \
    X(HEADER_SCHEMA, "schema word is not 0") \
    X(ARENA_FULL, "the front end's arena is too small for this module") \
    X(WORD_COUNT, "instruction word count is 0, too small, or runs past the end") \
    X(ID_BOUND, "result id is 0 or not below the bound") \
    X(ID_REDEFINED, "result id defined twice") \
    X(ID_UNDEFINED, "operand id is not defined or of the wrong kind") \
    X(STRING, "literal string not NUL-terminated inside its instruction") \
    X(LAYOUT, "instruction outside its logical-layout section") \
    X(OPCODE, "opcode not in the WebGPU allow-list") \
    X(UNDEF, "OpUndef is forbidden") \
    X(VECTOR_SHUFFLE_UNDEF, "OpVectorShuffle component 0xFFFFFFFF is forbidden") \
    X(DECORATION_GROUP, "decoration groups are forbidden") \
    X(CAPABILITY, "capability not allowed") \
    X(EXTENSION, "extension not allowed") \
    X(EXT_INST_SET, "extended instruction set not allowed") \
    X(MEMORY_MODEL, "addressing model must be Logical, memory model Simple, GLSL450 or Vulkan") \
    X(NO_ENTRY_POINT, "the module has no OpEntryPoint") \
    X(EXECUTION_MODEL, "execution model is not Vertex, Fragment or GLCompute") \
    X(ENTRY_POINT_NAME, "two entry points share a name") \
    X(ENTRY_POINT_FUNCTION, "entry point function must return void and take no parameters") \
    X(EXECUTION_MODE, "execution mode not allowed") \
    X(DECORATION, "decoration not allowed") \
    X(BUILTIN, "built-in not allowed") \
    X(TYPE_WIDTH, "int and float types must be 32-bit") \
    X(TYPE_VECTOR, "vectors must have 2 to 4 components") \
    X(TYPE_MATRIX, "matrices must have 2 to 4 columns") \
    X(STORAGE_CLASS, "storage class not allowed") \
    X(RUNTIME_ARRAY, "OpTypeRuntimeArray only as the last member of a StorageBuffer block") \
    X(INITIALIZER, "only Output, Private and Function variables may have an initializer") \
    X(COMBINED_IMAGE_SAMPLER, "combined image-samplers (OpTypeSampledImage variables) are not allowed") \
    X(RESOURCE_ARRAY, "arrays of resources are not allowed") \
    X(FUNCTION_ORDER, "a function must be defined before its callers (callee first; no recursion)") \
    X(CALL_GRAPH, "called function is not defined in the module") \
    X(WORKGROUP_STAGE, "Workgroup storage used from a non-GLCompute entry point") \
    X(SCOPE, "scope not allowed for this use") \
    X(MEMORY_SEMANTICS, "memory semantics bits not allowed") \
    X(LAYOUT_OFFSET, "block member Offset missing, misaligned, or overlapping (std140 Uniform, std430 StorageBuffer)") \
    X(LAYOUT_STRIDE, "ArrayStride or MatrixStride missing, too small or misaligned for the block's layout") \
    X(OPERAND_KIND, "operand id is defined but of the wrong kind (type, pointer, function, label, ...)") \
    X(INITIALIZER_REQUIRED, "Output, Private and Function variables must have an initializer") \
    X(DECORATION_TARGET, "decoration on a storage class or execution model it is not allowed for") \
    X(BUILTIN_TYPE, "built-in variable of the wrong type") \
    X(BUILTIN_STAGE, "built-in in a storage class or execution model its table row does not allow") \
    X(ATOMIC, "atomic on a pointer that is not a 32-bit integer in StorageBuffer, Workgroup or Image") \
    X(BARRIER_STAGE, "OpControlBarrier reachable from a non-GLCompute entry point") \
    X(CFG_BLOCK, "block does not start with OpLabel and end with one terminator") \
    X(CFG_TARGET, "branch, merge or continue target is not a label of the same function") \
    X(MERGE_PLACEMENT, "merge instruction not immediately before its block's branch") \
    X(MERGE_REQUIRED, "conditional branch or switch needs a merge instruction") \
    X(MERGE_UNIQUE, "a block is the merge block of two headers") \
    X(MERGE_DOMINANCE, "header does not strictly dominate its merge block") \
    X(BACK_EDGE, "back edge not from a loop's continue construct to its header") \
    X(BLOCK_ORDER, "block listed before a block that dominates it") \
    X(CFG_UNREACHABLE, "unreachable block other than a bare merge block or continue target")

#endif /* EG_SHADER_SPIRV_RULES_H */

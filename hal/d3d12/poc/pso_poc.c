/* Proof of concept (hal/d3d12/README.md, "Shader route"), not part of the build: compiles VS and PS
 * HLSL with d3dcompiler_47 (vkd3d-shader under wine), creates graphics PSOs with the PS checksum
 * as compiled / zeroed / corrupted, or with a pixel shader container from a file (dxbc_poc.py),
 * which is then drawn (4x4 RGBA8) and pixel (1,1) printed.
 * x86_64-w64-mingw32-gcc -O1 -DCOBJMACROS -DINITGUID -o pso.exe pso_poc.c -ldxguid
 * xvfb-run -a wine pso.exe VS.hlsl PS.hlsl [PS.dxbc] */
#include <windows.h>
#include <d3d12.h>
#include <d3dcompiler.h>
#include <stdio.h>
#include <string.h>
typedef HRESULT (WINAPI *pD3DCompile)(LPCVOID, SIZE_T, LPCSTR, const D3D_SHADER_MACRO *, ID3DInclude *, LPCSTR, LPCSTR, UINT, UINT, ID3DBlob **, ID3DBlob **);
typedef HRESULT (WINAPI *pCreate)(IUnknown *, D3D_FEATURE_LEVEL, REFIID, void **);
typedef HRESULT (WINAPI *pSer)(const D3D12_ROOT_SIGNATURE_DESC *, D3D_ROOT_SIGNATURE_VERSION, ID3DBlob **, ID3DBlob **);
static char vsbuf[65536], psbuf[65536];
static size_t rd(const char *p, char *b) { FILE *f = fopen(p, "rb"); size_t n = fread(b, 1, 65536, f); fclose(f); return n; }
int main(int argc, char **argv)
{
    pD3DCompile comp = (pD3DCompile)(void *)GetProcAddress(LoadLibraryA("d3dcompiler_47.dll"), "D3DCompile");
    HMODULE d = LoadLibraryA("d3d12.dll");
    pCreate create = (pCreate)(void *)GetProcAddress(d, "D3D12CreateDevice");
    pSer ser = (pSer)(void *)GetProcAddress(d, "D3D12SerializeRootSignature");
    ID3DBlob *vs = NULL, *ps = NULL, *err = NULL, *rs = NULL;
    size_t nv = rd(argv[1], vsbuf), np = rd(argv[2], psbuf);
    HRESULT hr = comp(vsbuf, nv, "vs", NULL, NULL, "main", "vs_5_0", 0, 0, &vs, &err);
    printf("compile vs hr=0x%08lx\n", (unsigned long)hr);
    hr = comp(psbuf, np, "ps", NULL, NULL, "main", "ps_5_0", 0, 0, &ps, &err);
    printf("compile ps hr=0x%08lx\n", (unsigned long)hr);
    if (!vs || !ps) return 1;
    { FILE *o = fopen("vs.dxbc", "wb"); fwrite(ID3D10Blob_GetBufferPointer(vs), 1, ID3D10Blob_GetBufferSize(vs), o); fclose(o);
      o = fopen("ps.dxbc", "wb"); fwrite(ID3D10Blob_GetBufferPointer(ps), 1, ID3D10Blob_GetBufferSize(ps), o); fclose(o); }
    static char pbin[65536]; size_t npb = argc > 3 ? rd(argv[3], pbin) : 0;
    unsigned char *vb = ID3D10Blob_GetBufferPointer(vs);
    printf("vs container: magic %.4s, size %u, chunks %u:", vb, *(unsigned *)(vb + 24), *(unsigned *)(vb + 28));
    for (unsigned i = 0; i < *(unsigned *)(vb + 28); i++) printf(" %.4s", vb + *(unsigned *)(vb + 32 + 4 * i));
    printf("\n");
    ID3D12Device *dev = NULL;
    hr = create(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev);
    printf("device hr=0x%08lx\n", (unsigned long)hr);
    if (!dev) return 1;
    D3D12_ROOT_SIGNATURE_DESC rsd = { 0, NULL, 0, NULL, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
    ser(&rsd, D3D_ROOT_SIGNATURE_VERSION_1, &rs, &err);
    ID3D12RootSignature *root = NULL;
    hr = ID3D12Device_CreateRootSignature(dev, 0, ID3D10Blob_GetBufferPointer(rs), ID3D10Blob_GetBufferSize(rs), &IID_ID3D12RootSignature, (void **)&root);
    D3D12_INPUT_ELEMENT_DESC ie[2] = {
        { "TEXCOORD", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
        { "TEXCOORD", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 } };
    for (int pass = 0; pass < (npb ? 1 : 3); pass++) {
        /* pass 0: as compiled; 1: checksum zeroed; 2: checksum bytes flipped */
        static unsigned char copy[65536];
        size_t n = ID3D10Blob_GetBufferSize(vs);
        memcpy(copy, vb, n);
        if (pass == 1) memset(copy + 4, 0, 16);
        if (pass == 2) for (int i = 4; i < 20; i++) copy[i] ^= 0x5a;
        D3D12_GRAPHICS_PIPELINE_STATE_DESC p;
        memset(&p, 0, sizeof p);
        p.pRootSignature = root;
        p.VS.pShaderBytecode = copy; p.VS.BytecodeLength = n;
        p.PS.pShaderBytecode = npb ? (void *)pbin : ID3D10Blob_GetBufferPointer(ps); p.PS.BytecodeLength = npb ? npb : ID3D10Blob_GetBufferSize(ps);
        p.BlendState.RenderTarget[0].RenderTargetWriteMask = 0xf;
        p.SampleMask = ~0u;
        p.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID; p.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
        p.RasterizerState.DepthClipEnable = TRUE;
        p.InputLayout.pInputElementDescs = ie; p.InputLayout.NumElements = 2;
        p.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        p.NumRenderTargets = 1; p.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
        p.SampleDesc.Count = 1;
        ID3D12PipelineState *pso = NULL;
        hr = ID3D12Device_CreateGraphicsPipelineState(dev, &p, &IID_ID3D12PipelineState, (void **)&pso);
        printf("PSO with %s checksum: hr=0x%08lx\n", pass == 0 ? (npb ? "the file's" : "the compiler's") : pass == 1 ? "a zeroed" : "a corrupted", (unsigned long)hr);

        if (pso && npb) {
            /* draw one full-screen triangle into a 4x4 RGBA8 target and read pixel (1,1) back */
            D3D12_HEAP_PROPERTIES hd = { D3D12_HEAP_TYPE_DEFAULT }, hu = { D3D12_HEAP_TYPE_UPLOAD }, hr2 = { D3D12_HEAP_TYPE_READBACK };
            D3D12_RESOURCE_DESC td = { D3D12_RESOURCE_DIMENSION_TEXTURE2D, 0, 4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D12_TEXTURE_LAYOUT_UNKNOWN, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
            D3D12_RESOURCE_DESC bd = { D3D12_RESOURCE_DIMENSION_BUFFER, 0, 1024, 1, 1, 1, DXGI_FORMAT_UNKNOWN, { 1, 0 }, D3D12_TEXTURE_LAYOUT_ROW_MAJOR, 0 };
            ID3D12Resource *tex, *vbuf, *rb;
            ID3D12Device_CreateCommittedResource(dev, &hd, 0, &td, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource, (void **)&tex);
            ID3D12Device_CreateCommittedResource(dev, &hu, 0, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, NULL, &IID_ID3D12Resource, (void **)&vbuf);
            ID3D12Device_CreateCommittedResource(dev, &hr2, 0, &bd, D3D12_RESOURCE_STATE_COPY_DEST, NULL, &IID_ID3D12Resource, (void **)&rb);
            float v[3][8] = { { -1, -1, 0, 1, 0, 1, 0, 1 }, { -1, 3, 0, 1, 0, 1, 0, 1 }, { 3, -1, 0, 1, 0, 1, 0, 1 } };
            void *m; ID3D12Resource_Map(vbuf, 0, NULL, &m); memcpy(m, v, sizeof v); ID3D12Resource_Unmap(vbuf, 0, NULL);
            D3D12_DESCRIPTOR_HEAP_DESC dh = { D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, 0, 0 };
            ID3D12DescriptorHeap *rtvh; ID3D12Device_CreateDescriptorHeap(dev, &dh, &IID_ID3D12DescriptorHeap, (void **)&rtvh);
            D3D12_CPU_DESCRIPTOR_HANDLE rtv; rtvh->lpVtbl->GetCPUDescriptorHandleForHeapStart(rtvh, &rtv);
            ID3D12Device_CreateRenderTargetView(dev, tex, NULL, rtv);
            D3D12_COMMAND_QUEUE_DESC qd = { D3D12_COMMAND_LIST_TYPE_DIRECT, 0, 0, 0 };
            ID3D12CommandQueue *q; ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q);
            ID3D12CommandAllocator *ca; ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator, (void **)&ca);
            ID3D12GraphicsCommandList *cl; ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, ca, pso, &IID_ID3D12GraphicsCommandList, (void **)&cl);
            float black[4] = { 0, 0, 0, 0 };
            ID3D12GraphicsCommandList_ClearRenderTargetView(cl, rtv, black, 0, NULL);
            ID3D12GraphicsCommandList_OMSetRenderTargets(cl, 1, &rtv, FALSE, NULL);
            ID3D12GraphicsCommandList_SetGraphicsRootSignature(cl, root);
            D3D12_VIEWPORT vp = { 0, 0, 4, 4, 0, 1 }; D3D12_RECT sc = { 0, 0, 4, 4 };
            ID3D12GraphicsCommandList_RSSetViewports(cl, 1, &vp); ID3D12GraphicsCommandList_RSSetScissorRects(cl, 1, &sc);
            ID3D12GraphicsCommandList_IASetPrimitiveTopology(cl, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
            D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(vbuf), sizeof v, 32 };
            ID3D12GraphicsCommandList_IASetVertexBuffers(cl, 0, 1, &vbv);
            ID3D12GraphicsCommandList_DrawInstanced(cl, 3, 1, 0, 0);
            D3D12_RESOURCE_BARRIER b; memset(&b, 0, sizeof b);
            b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION; b.Transition.pResource = tex;
            b.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET; b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
            ID3D12GraphicsCommandList_ResourceBarrier(cl, 1, &b);
            D3D12_TEXTURE_COPY_LOCATION dst = { rb, D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT }, src = { tex, D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
            dst.PlacedFootprint.Footprint.Format = DXGI_FORMAT_R8G8B8A8_UNORM; dst.PlacedFootprint.Footprint.Width = 4;
            dst.PlacedFootprint.Footprint.Height = 4; dst.PlacedFootprint.Footprint.Depth = 1; dst.PlacedFootprint.Footprint.RowPitch = 256;
            src.SubresourceIndex = 0;
            ID3D12GraphicsCommandList_CopyTextureRegion(cl, &dst, 0, 0, 0, &src, NULL);
            ID3D12GraphicsCommandList_Close(cl);
            ID3D12CommandList *lists[1] = { (ID3D12CommandList *)cl };
            ID3D12CommandQueue_ExecuteCommandLists(q, 1, lists);
            ID3D12Fence *fe; ID3D12Device_CreateFence(dev, 0, 0, &IID_ID3D12Fence, (void **)&fe);
            ID3D12CommandQueue_Signal(q, fe, 1);
            HANDLE ev = CreateEventA(NULL, FALSE, FALSE, NULL); ID3D12Fence_SetEventOnCompletion(fe, 1, ev); WaitForSingleObject(ev, 10000);
            unsigned char *px; ID3D12Resource_Map(rb, 0, NULL, (void **)&px);
            printf("pixel (1,1) = %02x %02x %02x %02x\n", px[256 + 4], px[256 + 5], px[256 + 6], px[256 + 7]);
        }
        if (pso) ID3D12PipelineState_Release(pso);
    }
    return 0;
}

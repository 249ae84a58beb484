/* hal/d3d12 interface IDs: INITGUID in exactly this file defines the COM GUIDs the backend uses. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12
/* mingw's libdxguid lacks most D3D12 IIDs; defining them here also keeps the board's link free
 * of DirectX import libraries (the DLLs are loaded at run time). */
#define INITGUID
#include <d3d12.h>
#include <d3d12sdklayers.h>
#include <dxgi1_4.h>
#else
typedef int eg_d3d_guids_empty_t;   /* ISO C: a translation unit needs a declaration */
#endif

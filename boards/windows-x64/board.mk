# windows-x64: Windows 10+ x86-64 desktop simulator, cross-compiled with mingw-w64; port win32.
# Tests run under wine (D3D12 = vkd3d over lavapipe) inside Xvfb: boards/windows-x64/wine_run.sh
# keeps a wine prefix in the build directory (created once with `wineboot -i`).
CROSS := x86_64-w64-mingw32-
PORT := win32
EXE := .exe
# 0x0A00: Windows 10 API surface; COBJMACROS gives the C macros of the D3D12/DXGI COM interfaces.
# Format checks stay on: EG_PRINTF uses the gnu_printf archetype under mingw (kernel/base/util.h)
# and __USE_MINGW_ANSI_STDIO gives the tests' stdio C99 conversions (%zu, %hhu).
CFLAGS_BOARD := -D_WIN32_WINNT=0x0A00 -DWIN32_LEAN_AND_MEAN -DCOBJMACROS -D__USE_MINGW_ANSI_STDIO=1
# Static libgcc: the .exe needs no mingw DLL next to it under wine or on a real Windows box.
# D3D12/DXGI are loaded at run time (LoadLibrary), never linked (shaders are DXBC from the
# TPF emitter, no run-time compiler DLL); only their GUIDs
# are defined in hal/d3d12/d3d_guids.c.
LDFLAGS_BOARD := -static-libgcc -Wl,--gc-sections
LDLIBS_BOARD :=
TEST_RUN := sh boards/windows-x64/wine_run.sh $(abspath $(BUILD))/wineprefix
# Left out: no_alloc (interposes glibc's malloc), xlib_surface and swapchain (X11, dlopen),
# shader_corpus (POSIX ftw/dirent).
HOSTED_EXCLUDE := no_alloc xlib_surface swapchain shader_corpus

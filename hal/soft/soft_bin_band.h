/* hal/soft banded frames: the record of a strip-mode panel's frame texture, shared by
 * soft_surface.c (creation, strip conversion and flush) and soft_exec.c (banded passes). */
#ifndef EG_SOFT_BIN_BAND_H
#define EG_SOFT_BIN_BAND_H

#include "hal/soft/soft_internal.h"
#include "kernel/api/surface.h"

/** A banded frame texture: strip_rows rows in the texture's format at `rows` (row y0 + r of the
 *  frame at rows + r * row_pitch_B while strip y0 is being drawn). */
typedef struct eg_soft_band {
    const eg_texture_t *tex;        /* NULL: record free */
    eg_hal_present_t dst;           /* the panel: strip buffer, rows, format, flush callback */
    uint8_t *rows;
    uint32_t row_pitch_B, block_B;
    bool direct;                    /* rows is the panel's strip buffer (same bytes): no conversion */
    bool drawn;                     /* a pass drew this frame (else Present sends a cleared frame) */
    eg_hal_rect_t damage;           /* the frame's damage (the whole frame by default) */
} eg_soft_band_t;

/** The band record of tex, or NULL for an ordinary texture. */
eg_soft_band_t *eg_soft_band_of(const eg_texture_t *tex);
/** Converts rows [0, rows) of the strip (frame rows y0...) and hands them to the flush callback. */
void eg_soft_band_strip(eg_soft_band_t *b, uint32_t y0, uint32_t rows);
/** Partial updates: the damage of a surface frame (banded or not) set by surface_damage;
 *  false when tex has none (render and present it whole). */
bool eg_soft_damage_of(const eg_texture_t *tex, eg_hal_rect_t *r);
/** Frees tex's record (texture_destroy). */
void eg_soft_band_release(const eg_texture_t *tex);

#endif /* EG_SOFT_BIN_BAND_H */

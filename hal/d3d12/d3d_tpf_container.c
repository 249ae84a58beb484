/* hal/d3d12 TPF emitter: the DXBC container (ISGN/OSGN/SHEX chunks) and its checksum. */
#include "config/emgpu_config.h"

#include "hal/d3d12/d3d_tpf.h"

/* ---- checksum (compiled on every board: tests reproduce known checksums everywhere) ---- */

/* MD5's compression function (RFC 1321 section 3.4): 64 steps over one 64-byte block. */
static uint32_t rol32(uint32_t x, uint32_t c) { return (x << c) | (x >> (32u - c)); }

static void md5_block(uint32_t st[4], const uint8_t *blk)
{
    static const uint8_t S[16] = { 7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21 };
    /* K[i] = floor(abs(sin(i + 1)) * 2^32), RFC 1321's table T. */
    static const uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391 };
    uint32_t m[16];
    for (uint32_t i = 0; i < 16; i++)
        m[i] = (uint32_t)blk[4 * i] | (uint32_t)blk[4 * i + 1] << 8 | (uint32_t)blk[4 * i + 2] << 16 |
               (uint32_t)blk[4 * i + 3] << 24;
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t f, g;
        if (i < 16) { f = (b & c) | (~b & d); g = i; }
        else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) & 15; }
        else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) & 15; }
        else { f = c ^ (b | ~d); g = (7 * i) & 15; }
        f = f + a + K[i] + m[g];
        a = d; d = c; c = b;
        b = b + rol32(f, S[(i >> 4) * 4 + (i & 3)]);
    }
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* DXBC's padding differs from MD5's (hal/d3d12/README.md, poc/dxbc_poc.py): the message bit
 * count comes FIRST in the last block (before the tail and the 0x80 byte), and the block's last
 * word is (bits >> 2) | 1. A tail of 56 bytes or more gets its own block, the count a block of
 * its own with the same last word. */
void eg_d3d_tpf_checksum(uint8_t *bytes, uint32_t size_B)
{
    uint32_t st[4] = { 0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u };
    const uint8_t *data = bytes + 20;
    uint32_t len = size_B - 20u, full = len & ~63u, tail = len - full, bits = len * 8u;
    uint8_t blk[64];
    for (uint32_t o = 0; o < full; o += 64) md5_block(st, data + o);
    for (uint32_t i = 0; i < 64; i++) blk[i] = 0;
    if (tail >= 56) {
        for (uint32_t i = 0; i < tail; i++) blk[i] = data[full + i];
        blk[tail] = 0x80;
        md5_block(st, blk);
        for (uint32_t i = 0; i < 64; i++) blk[i] = 0;
        put32(blk, bits);
    } else {
        put32(blk, bits);
        for (uint32_t i = 0; i < tail; i++) blk[4 + i] = data[full + i];
        blk[4 + tail] = 0x80;
    }
    put32(blk + 60, (bits >> 2) | 1u);
    md5_block(st, blk);
    for (uint32_t i = 0; i < 4; i++) put32(bytes + 4 + 4 * i, st[i]);
}

#if EMGPU_D3D12_TPF

#include "hal/d3d12/d3d_tpf_internal.h"
#include "kernel/base/util.h"

static const char *sig_name(const tpf_sig_elem_t *e)
{
    static const char *const names[] = { "TEXCOORD", "SV_Position", "SV_VertexID", "SV_InstanceID",
                                         "SV_IsFrontFace", "SV_SampleIndex", "SV_Target", "SV_Depth",
                                         "SV_Coverage" };
    return names[e->name];
}

static uint32_t str_len(const char *s)
{
    uint32_t n = 0;
    while (s[n]) n++;
    return n;
}

/* ISGN/OSGN: count, 8, then 24-byte records (name offset, semantic index, system value,
 * component type, register, mask byte, read/write mask byte), then the names. Names are
 * written once each (records may share them). */
static uint32_t sig_size(const tpf_sig_elem_t *e, uint32_t n)
{
    uint32_t size = 8 + 24 * n;
    for (uint32_t i = 0; i < n; i++) size += str_len(sig_name(&e[i])) + 1u;
    return EG_ALIGN_UP(size, 4u);
}

static void sig_write(uint8_t *p, const tpf_sig_elem_t *e, uint32_t n)
{
    uint32_t size = sig_size(e, n), str = 8 + 24 * n;
    put32(p, n);
    put32(p + 4, 8);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *r = p + 8 + 24 * i;
        const char *name = sig_name(&e[i]);
        put32(r, str);
        put32(r + 4, e[i].index);
        put32(r + 8, e[i].sysval);
        put32(r + 12, e[i].comp_type);
        put32(r + 16, e[i].reg);
        r[20] = e[i].mask; r[21] = e[i].rw; r[22] = 0; r[23] = 0;
        for (uint32_t k = 0; name[k]; k++) p[str++] = (uint8_t)name[k];
        p[str++] = 0;
    }
    while (str < size) p[str++] = 0xab;
}

/* Container: "DXBC", checksum, version 1, total size, chunk count, chunk offsets, chunks
 * (tag, size, payload). SHEX = version token, length in dwords, declarations, code. */
bool tpf_container(tpf_t *t, eg_d3d_tpf_out_t *out)
{
    static const uint32_t type_of_stage[] = { 1u /* vertex */, 0u /* pixel */, 5u /* compute */ };
    uint32_t isg_B = sig_size(t->isig, t->isig_n), osg_B = sig_size(t->osig, t->osig_n);
    uint32_t shex_B = (2u + t->decl_n + t->code_n) * 4u;
    uint32_t hdr_B = 32u + 3u * 4u;
    uint32_t size_B = hdr_B + 8u + isg_B + 8u + osg_B + 8u + shex_B;
    uint8_t *p = eg_arena_alloc(t->arena, size_B, 4);
    if (!p)
        return tpf_fail(t, "%s full: the %u-byte DXBC container does not fit; raise %s", t->arena->name,
                        (unsigned)size_B, t->arena->knob);
    for (uint32_t i = 0; i < 20; i++) p[i] = 0;
    p[0] = 'D'; p[1] = 'X'; p[2] = 'B'; p[3] = 'C';
    put32(p + 20, 1);
    put32(p + 24, size_B);
    put32(p + 28, 3);
    uint32_t at = hdr_B;
    static const char tags[3][5] = { "ISGN", "OSGN", "SHEX" };
    const uint32_t sizes[3] = { isg_B, osg_B, shex_B };
    for (uint32_t c = 0; c < 3; c++) {
        put32(p + 32 + 4 * c, at);
        for (uint32_t k = 0; k < 4; k++) p[at + k] = (uint8_t)tags[c][k];
        put32(p + at + 4, sizes[c]);
        uint8_t *body = p + at + 8;
        if (c == 0) sig_write(body, t->isig, t->isig_n);
        else if (c == 1) sig_write(body, t->osig, t->osig_n);
        else {
            put32(body, type_of_stage[t->ir->stage] << 16 | 5u << 4 | 1u);   /* shader model 5.1 */
            put32(body + 4, 2u + t->decl_n + t->code_n);
            for (uint32_t i = 0; i < t->decl_n; i++) put32(body + 8 + 4 * i, t->decl[i]);
            for (uint32_t i = 0; i < t->code_n; i++) put32(body + 8 + 4 * (t->decl_n + i), t->code[i]);
        }
        at += 8 + sizes[c];
    }
    eg_d3d_tpf_checksum(p, size_B);
    out->bytes = p;
    out->size_B = size_B;
    return true;
}

#endif /* EMGPU_D3D12_TPF */

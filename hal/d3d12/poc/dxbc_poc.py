# Proof of concept (hal/d3d12/README.md, "Shader route"), not part of the build.
# Usage: dxbc_poc.py check FILE.dxbc... | dxbc_poc.py make OUT.dxbc (a ps_5_0 writing red).
# DXBC container writer + its checksum (MD5's compression function with DXBC's own
# padding: the bit length first in the last block, (bits >> 2) | 1 at its end). Checked
# against containers that vkd3d's compiler wrote, then used for a hand-assembled pixel shader.
import math, struct, sys
S = [7, 12, 17, 22] * 4 + [5, 9, 14, 20] * 4 + [4, 11, 16, 23] * 4 + [6, 10, 15, 21] * 4
K = [int(abs(math.sin(i + 1)) * 2**32) & 0xffffffff for i in range(64)]
def rol(x, c): return ((x << c) | (x >> (32 - c))) & 0xffffffff
def md5_block(st, blk):
    m = struct.unpack('<16I', blk); a, b, c, d = st
    for i in range(64):
        if i < 16: f, g = (b & c) | (~b & d), i
        elif i < 32: f, g = (d & b) | (~d & c), (5 * i + 1) % 16
        elif i < 48: f, g = b ^ c ^ d, (3 * i + 5) % 16
        else: f, g = c ^ (b | (~d & 0xffffffff)), (7 * i) % 16
        f = (f + a + K[i] + m[g]) & 0xffffffff
        a, d, c, b = d, c, b, (b + rol(f, S[i])) & 0xffffffff
    return [(x + y) & 0xffffffff for x, y in zip(st, (a, b, c, d))]
def dxbc_checksum(data):   # data: the container from byte 20 on
    st = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
    n = len(data) // 64 * 64
    for o in range(0, n, 64): st = md5_block(st, data[o:o + 64])
    tail, bits = data[n:], len(data) * 8
    if len(tail) >= 56:
        st = md5_block(st, (tail + b'\x80').ljust(64, b'\0'))
        st = md5_block(st, struct.pack('<I', bits) + b'\0' * 56 + struct.pack('<I', (bits >> 2) | 1))
    else:
        blk = (struct.pack('<I', bits) + tail + b'\x80').ljust(60, b'\0') + struct.pack('<I', (bits >> 2) | 1)
        st = md5_block(st, blk)
    return struct.pack('<4I', *st)
def container(chunks):
    hdr = 32 + 4 * len(chunks); offs, body = [], b''
    for tag, payload in chunks:
        offs.append(hdr + len(body)); body += tag + struct.pack('<I', len(payload)) + payload
    rest = struct.pack('<II', 1, hdr + len(body)) + struct.pack('<I', len(chunks)) + b''.join(struct.pack('<I', o) for o in offs) + body
    # rest starts at offset 20: version 1, total size, chunk count, offsets, chunks
    return b'DXBC' + dxbc_checksum(rest) + rest
def sig(elems):   # ISGN/OSGN: (name, index, sysval, comp_type, register, mask, rw_mask)
    n = len(elems); strs = b''; recs = b''; base = 8 + 24 * n
    for name, idx, sv, ct, reg, mask, rw in elems:
        recs += struct.pack('<IIIIIBBH', base + len(strs), idx, sv, ct, reg, mask, rw, 0)
        strs += name + b'\0'
    strs += b'\xab' * (-len(strs) % 4)
    return struct.pack('<II', n, 8) + recs + strs
if sys.argv[1] == 'check':
    for f in sys.argv[2:]:
        b = open(f, 'rb').read()
        print(f, 'stored', b[4:20].hex(), 'computed', dxbc_checksum(b[20:]).hex(), 'OK' if b[4:20] == dxbc_checksum(b[20:]) else 'MISMATCH')
else:
    # ps_5_0: dcl_globalFlags refactoringAllowed; dcl_output o0.xyzw; mov o0, l(1,0,0,1); ret
    T = lambda op, length, ctl=0: op | (ctl << 11) | (length << 24)
    one = 0x3f800000
    toks = [T(0x6a, 1, 1),                                         # dcl_globalFlags refactoringAllowed
            T(0x65, 3), 0x001020f2, 0,                       # dcl_output o0.xyzw
            T(0x36, 8), 0x001020f2, 0, 0x00004002, one, 0, 0, one,   # mov o0.xyzw, l(1,0,0,1)
            T(0x3e, 1)]                                            # ret
    shex = struct.pack('<II', (0 << 16) | (5 << 4) | 0, 2 + len(toks)) + struct.pack('<%dI' % len(toks), *toks)
    isgn = sig([]); osgn = sig([(b'SV_Target', 0, 0, 3, 0, 0xf, 0x0)])
    open(sys.argv[2], 'wb').write(container([(b'ISGN', isgn), (b'OSGN', osgn), (b'SHEX', shex)]))

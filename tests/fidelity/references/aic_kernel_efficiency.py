#!/usr/bin/env python3
"""GEMM efficiency and all-reduce cost of NVIDIA GPUs from AIConfigurator's measured vLLM tables.

Reads an ai-dynamo/aiconfigurator checkout's `gemm_perf.parquet` and `custom_allreduce_perf.parquet`
(vLLM 0.19.0 kernels for H100 and H200; 0.19.0 and 0.24.0 for B200; 0.24.0 for GB200 and B300).
GEMMs: per token count M, the median share of the datasheet's dense peak over the GEMMs with N
and K from 4,096 to 16,384 (the linear layers of 8B-70B models under TP), and the fit
eta(M) = peak x M / (M + half) to M = 512..32,768 in steps of 256: the pair the GPU catalog's
`matmul_peak(_fp8)` and `matmul_half_tokens(_fp8)` hold (data/README.md). Token counts of
256k + 1 are left out: they pay for a padded tile, a cost the step model does not separate.
All-reduce: per TP, the latency and the share of the NVLink's one direction that the step
model's ring formula needs to give the measured times (`allreduce_latency_us`, `link`).

    python3 aic_kernel_efficiency.py /path/to/aiconfigurator

Needs Python 3 and the `zstd` command (Debian: zstd); the Parquet reader below handles what
these files use: flat schemas, PLAIN and dictionary encodings, data pages v1 and v2, ZSTD.
"""
import collections
import os
import statistics
import struct
import subprocess
import sys


# ---- A minimal Parquet reader ---------------------------------------------------------------

class Compact:
    def __init__(self, buf, pos=0):
        self.b = buf; self.p = pos
    def byte(self):
        v = self.b[self.p]; self.p += 1; return v
    def varint(self):
        shift = 0; v = 0
        while True:
            x = self.byte(); v |= (x & 0x7F) << shift; shift += 7
            if not x & 0x80: return v
    def zz(self):
        v = self.varint(); return (v >> 1) ^ -(v & 1)
    def binary(self):
        n = self.varint(); s = self.b[self.p:self.p + n]; self.p += n; return s
    def value(self, t):
        if t == 1: return True
        if t == 2: return False
        if t == 3: v = struct.unpack_from('b', self.b, self.p)[0]; self.p += 1; return v
        if t in (4, 5, 6): return self.zz()
        if t == 7: v = struct.unpack_from('<d', self.b, self.p)[0]; self.p += 8; return v
        if t == 8: return self.binary()
        if t in (9, 10):
            h = self.byte(); n = h >> 4; et = h & 0x0F
            if n == 15: n = self.varint()
            if et in (1, 2):
                return [self.byte() == 1 for _ in range(n)]
            return [self.value(et) for _ in range(n)]
        if t == 11:
            n = self.varint()
            if n == 0: return {}
            kv = self.byte(); kt, vt = kv >> 4, kv & 0x0F
            return {self.value(kt): self.value(vt) for _ in range(n)}
        if t == 12: return self.struct()
        raise ValueError('thrift type %d' % t)
    def struct(self):
        out = {}; last = 0
        while True:
            h = self.byte()
            if h == 0: return out
            delta = h >> 4; t = h & 0x0F
            fid = last + delta if delta else self.zz()
            out[fid] = self.value(t); last = fid

def decompress(data, codec, size):
    if codec == 0: return data
    if codec == 6:
        return subprocess.run(['zstd', '-d', '-c'], input=data, stdout=subprocess.PIPE, check=True).stdout
    raise ValueError('codec %d' % codec)

def rle_hybrid(buf, pos, end, width, count):
    out = []
    while len(out) < count and pos < end:
        c = Compact(buf, pos); h = c.varint(); pos = c.p
        if h & 1:
            groups = h >> 1; nbytes = groups * width
            bits = int.from_bytes(buf[pos:pos + nbytes], 'little'); pos += nbytes
            mask = (1 << width) - 1
            for i in range(groups * 8): out.append((bits >> (i * width)) & mask)
        else:
            run = h >> 1; nb = (width + 7) // 8
            v = int.from_bytes(buf[pos:pos + nb], 'little'); pos += nb
            out.extend([v] * run)
    return out[:count]

def plain(buf, ptype, n):
    if ptype == 1: return list(struct.unpack_from('<%di' % n, buf, 0))
    if ptype == 2: return list(struct.unpack_from('<%dq' % n, buf, 0))
    if ptype == 4: return list(struct.unpack_from('<%df' % n, buf, 0))
    if ptype == 5: return list(struct.unpack_from('<%dd' % n, buf, 0))
    if ptype == 0:
        return [bool((buf[i // 8] >> (i % 8)) & 1) for i in range(n)]
    if ptype == 6:
        out = []; p = 0
        for _ in range(n):
            L = struct.unpack_from('<i', buf, p)[0]; p += 4
            out.append(bytes(buf[p:p + L]).decode()); p += L
        return out
    raise ValueError('type %d' % ptype)

def read_parquet(path):
    """The columns of a flat Parquet file, by name."""
    b = open(path, 'rb').read()
    assert b[:4] == b'PAR1' and b[-4:] == b'PAR1'
    n = struct.unpack('<i', b[-8:-4])[0]
    meta = Compact(b, len(b) - 8 - n).struct()
    schema = meta[2]
    leaves = [s for s in schema[1:]]
    cols = {s[4].decode(): [] for s in leaves}
    optional = {s[4].decode(): s.get(3, 0) == 1 for s in leaves}
    for rg in meta[4]:
        for cc in rg[1]:
            md = cc[3]
            name = md[3][0].decode(); ptype = md[1]; codec = md[4]; total = md[5]
            pos = md.get(11) or md[9]
            pos = min(pos, md[9]) if md.get(11) else md[9]
            dictionary = None; got = 0
            while got < total:
                c = Compact(b, pos); ph = c.struct(); pos = c.p
                csize = ph[3]; usize = ph[2]; raw = b[pos:pos + csize]; pos += csize
                if ph[1] == 2:
                    data = decompress(raw, codec, usize)
                    dictionary = plain(data, ptype, ph[7][1])
                    continue
                if ph[1] == 0:
                    dh = ph[5]; nv = dh[1]; enc = dh[2]
                    data = decompress(raw, codec, usize); p = 0
                    defs = None
                    if optional[name]:
                        L = struct.unpack_from('<i', data, 0)[0]
                        defs = rle_hybrid(data, 4, 4 + L, 1, nv); p = 4 + L
                    vals_buf = data[p:]
                elif ph[1] == 3:
                    dh = ph[8]; nv = dh[1]; enc = dh[4]
                    dl = dh[5]; rl = dh[6]
                    levels = raw[:dl + rl]; rest = raw[dl + rl:]
                    comp = dh.get(7, True)
                    vals_buf = decompress(rest, codec, usize - dl - rl) if comp else rest
                    defs = rle_hybrid(levels, rl, rl + dl, 1, nv) if optional[name] and dl else None
                else:
                    raise ValueError('page type %d' % ph[1])
                present = nv if defs is None else sum(defs)
                if enc in (2, 8):
                    width = vals_buf[0]
                    idx = rle_hybrid(vals_buf, 1, len(vals_buf), width, present)
                    vals = [dictionary[i] for i in idx]
                elif enc == 0:
                    vals = plain(vals_buf, ptype, present)
                else:
                    raise ValueError('encoding %d' % enc)
                if defs is not None:
                    it = iter(vals); vals = [next(it) if d else None for d in defs]
                cols[name].extend(vals); got += nv
    return cols


# ---- The derivation -----------------------------------------------------------------------

# The tables read: (GPU folder, vLLM version, label, dense datasheet peaks in TFLOPS as the GPU
# catalog holds them, one direction of the NVLink in GB/s). H100 SXM and H200 are one die.
TABLES = [
    ('h100_sxm', '0.19.0', 'H100 SXM', {'bfloat16': 989.0, 'fp8': 1979.0}, 450.0),
    ('h200_sxm', '0.19.0', 'H200 SXM', {'bfloat16': 989.0, 'fp8': 1979.0}, 450.0),
    ('b200_sxm', '0.19.0', 'B200 SXM', {'bfloat16': 2250.0, 'fp8': 4500.0}, 900.0),
    ('b200_sxm', '0.24.0', 'B200 SXM', {'bfloat16': 2250.0, 'fp8': 4500.0}, 900.0),
    ('gb200', '0.24.0', 'GB200', {'bfloat16': 2500.0, 'fp8': 5000.0}, 900.0),
    ('b300_sxm', '0.24.0', 'B300 SXM', {'bfloat16': 2250.0, 'fp8': 4500.0}, 900.0),
]
GEMM_TABLE = 'aic-core/src/aiconfigurator_core/systems/data/{gpu}/gemm/vllm/{version}/gemm_perf.parquet'
ALLREDUCE_TABLE = 'aic-core/src/aiconfigurator_core/systems/data/{gpu}/comm/vllm/{version}/custom_allreduce_perf.parquet'



def efficiency_by_m(rows, dtype, peak_tflops):
    """Median share of peak over the GEMMs with N and K in [4096, 16384], per M."""
    by_m = collections.defaultdict(list)
    for m, n, k, d, latency_ms in rows:
        if d != dtype or not (4096 <= n <= 16384 and 4096 <= k <= 16384):
            continue
        by_m[m].append(2.0 * m * n * k / (latency_ms / 1e3) / (peak_tflops * 1e12))
    return {m: statistics.median(v) for m, v in by_m.items()}


def fit(medians):
    """peak × M ÷ (M + half) by least squares of the relative error, M a multiple of 256 from 512."""
    ms = sorted(m for m in medians if m >= 512 and m % 256 == 0)
    best = None
    for peak in (x / 1000.0 for x in range(200, 950, 2)):
        for half in range(0, 400, 4):
            error = sum((peak * m / (m + half) / medians[m] - 1.0) ** 2 for m in ms)
            if best is None or error < best[0]:
                best = (error, peak, half)
    _, peak, half = best
    errors = [abs(peak * m / (m + half) / medians[m] - 1.0) * 100.0 for m in ms]
    return peak, half, ms, statistics.mean(errors), max(errors)


def allreduce(rows):
    """vLLM's all-reduce (eager kernels, BF16) as the step model costs it: latency + 2(TP - 1)/TP x
    bytes / (link x efficiency). Per TP: the latency is the median time of messages of at most
    8,192 elements, the efficiency that of the largest message beyond its latency."""
    out = {}
    for tp in sorted({n for _, n, _, _ in rows}):
        points = sorted((size, ms / 1e3) for source, n, size, ms in rows
                        if source == 'vLLM_custom_eager' and n == tp)
        if not points:
            continue
        latency = statistics.median(s for size, s in points if size <= 8192)
        size, seconds = points[-1]
        out[tp] = (latency, 2.0 * (tp - 1) / tp * size * 2.0 / (seconds - latency))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: aic_kernel_efficiency.py AICONFIGURATOR_CHECKOUT')
    for gpu, version, label, peaks, link_gbps in TABLES:
        cols = read_parquet(os.path.join(sys.argv[1], GEMM_TABLE.format(gpu=gpu, version=version)))
        rows = list(zip(cols['m'], cols['n'], cols['k'], cols['gemm_dtype'], cols['latency']))
        for dtype, peak_tflops in peaks.items():
            medians = efficiency_by_m(rows, dtype, peak_tflops)
            peak, half, ms, mean_error, worst = fit(medians)
            print('%s %s (vLLM %s): peak %.3f, half-way at %d tokens; |error| %.1f %% mean, %.1f %% worst over %d sizes'
                  % (label, dtype, version, peak, half, mean_error, worst, len(ms)))
            shown = [m for m in (512, 1024, 2048, 4096, 8192, 16384, 32768) if m in medians]
            print('  M        ' + ''.join('%8d' % m for m in shown))
            print('  measured ' + ''.join('%8.2f' % medians[m] for m in shown))
            print('  fitted   ' + ''.join('%8.2f' % (peak * m / (m + half)) for m in shown))
        cols = read_parquet(os.path.join(sys.argv[1], ALLREDUCE_TABLE.format(gpu=gpu, version=version)))
        per_tp = allreduce(list(zip(cols['kernel_source'], cols['num_gpus'], cols['message_size'], cols['latency'])))
        shares = [bytes_per_s / (link_gbps * 1e9) for _, bytes_per_s in per_tp.values()]
        print('%s all-reduce (vLLM %s, eager): ' % (label, version)
              + '; '.join('TP %d %.1f us, %.2f of the link' % (tp, latency * 1e6, share)
                          for (tp, (latency, _)), share in zip(per_tp.items(), shares))
              + '; median %.1f us, %.2f' % (statistics.median(l for l, _ in per_tp.values()) * 1e6,
                                           statistics.median(shares)))


if __name__ == '__main__':
    main()

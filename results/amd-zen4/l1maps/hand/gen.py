# hand variants: axpy f32 / axpb i32 in different widths/unrolls (same signature as generated)
import sys
KINDS = {
 "axpy_f32": dict(T="float", sig="const float *restrict x, int64_t x_len, const float *restrict y, int64_t y_len, float a, float *restrict out, int64_t out_len",
    pre=lambda V: f"{V['v']} va = {V['p']}_set1_ps(a);",
    body=lambda V, i, m="": (f"{V['p']}_fmadd_ps(va, {V['p']}_loadu_ps(&x[{i}]), {V['p']}_loadu_ps(&y[{i}]))" if not m else
                             f"{V['p']}_fmadd_ps(va, {V['p']}_maskz_loadu_ps({m}, &x[{i}]), {V['p']}_maskz_loadu_ps({m}, &y[{i}]))"),
    st=lambda V, i, s, m="": f"{V['p']}_storeu_ps(&out[{i}], {s});" if not m else f"{V['p']}_mask_storeu_ps(&out[{i}], {m}, {s});"),
 "axpb_f32": dict(T="float", sig="const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len",
    pre=lambda V: f"{V['v']} va = {V['p']}_set1_ps(a), vb = {V['p']}_set1_ps(b);",
    body=lambda V, i, m="": (f"{V['p']}_fmadd_ps(va, {V['p']}_loadu_ps(&x[{i}]), vb)" if not m else
                             f"{V['p']}_fmadd_ps(va, {V['p']}_maskz_loadu_ps({m}, &x[{i}]), vb)"),
    st=lambda V, i, s, m="": f"{V['p']}_storeu_ps(&out[{i}], {s});" if not m else f"{V['p']}_mask_storeu_ps(&out[{i}], {m}, {s});"),
 "axpb_i32": dict(T="int32_t", sig="const int32_t *restrict x, int64_t x_len, int32_t a, int32_t b, int32_t *restrict out, int64_t out_len",
    pre=lambda V: f"{V['i']} va = {V['p']}_set1_epi32(a), vb = {V['p']}_set1_epi32(b);",
    body=lambda V, i, m="": (f"{V['p']}_add_epi32({V['p']}_mullo_epi32(va, {V['p']}_loadu_si{V['b']}((const void*)&x[{i}])), vb)" if not m else
                             f"{V['p']}_add_epi32({V['p']}_mullo_epi32(va, {V['p']}_maskz_loadu_epi32({m}, &x[{i}])), vb)"),
    st=lambda V, i, s, m="": f"{V['p']}_storeu_si{V['b']}((void*)&out[{i}], {s});" if not m else f"{V['p']}_mask_storeu_epi32(&out[{i}], {m}, {s});"),
}
Y = dict(v="__m256", i="__m256i", p="_mm256", b="256", W=8, mt="__mmask8")
Z = dict(v="__m512", i="__m512i", p="_mm512", b="512", W=16, mt="__mmask16")
def variant(kind, V, K, interleave):
    k = KINDS[kind]; W = V["W"]; T = "__m512" if V is Z else "__m256"
    vt = V["v"] if kind.endswith("f32") else V["i"]
    L = [f"void {kind}({k['sig']})", "{", "    int64_t n = x_len; int64_t i = 0;", "    " + k["pre"](V)]
    if K > 1:
        L.append(f"    for (; i + {K*W} <= n; i += {K*W}) {{")
        if interleave:
            for c in range(K):
                L.append(f"        {k['st'](V, f'i + {c*W}', k['body'](V, f'i + {c*W}'))}")
        else:
            for c in range(K):
                L.append(f"        {vt} s{c} = {k['body'](V, f'i + {c*W}')};")
            for c in range(K):
                L.append(f"        {k['st'](V, f'i + {c*W}', f's{c}')}")
        L.append("    }")
    L.append(f"    for (; i + {W} <= n; i += {W}) {k['st'](V, 'i', k['body'](V, 'i'))}")
    L.append(f"    if (i < n) {{ {V['mt']} m = ({V['mt']})((1u << (n - i)) - 1u); {vt} s = {k['body'](V, 'i', 'm')}; {k['st'](V, 'i', 's', 'm')} }}")
    L.append("}")
    return "#include <stdint.h>\n#include <immintrin.h>\n" + "\n".join(L) + "\n"
for kind in KINDS:
    for name, V, K, il in [("y4", Y, 4, 0), ("y4i", Y, 4, 1), ("z4", Z, 4, 0), ("z4i", Z, 4, 1), ("z1", Z, 1, 0), ("z2", Z, 2, 0), ("y8", Y, 8, 0)]:
        open(f"{kind}_{name}.c", "w").write(variant(kind, V, K, il))

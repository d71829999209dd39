#include "verbose.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "activation_fields.hpp"
#include "dtype_name.hpp"
#include "text_line.hpp"

namespace simdax {
namespace {

int level_from_env() {
    const char* v = std::getenv("SIMDAX_VERBOSE");
    if (!v || *v < '0' || *v > '9') return 0;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end != '\0') return 0;
    return n > 2 ? 2 : int(n);
}

const char* form_name(Form f) {
    switch (f) {
        case Form::empty: return "empty";
        case Form::rows: return "rows";
        case Form::cols: return "cols";
        case Form::general: return "general";
    }
    return "unknown";
}

// Strides of operand o, unless packed row-major (scale/bias: unless packed
// where not broadcast).
void add_strides(TextLine* l, const Problem& p, int o, const char* key) {
    int64_t packed = 1;
    bool is_packed = true;
    for (int d = int(p.rank) - 1; d >= 0; --d) {
        const bool broadcast = p.strides[o][d] == 0 && (o == kScale || o == kBias);
        if (p.sizes[d] > 1 && !broadcast && p.strides[o][d] != packed) is_packed = false;
        // An empty tensor's other sizes are not bounded by validation.
        if (__builtin_mul_overflow(packed, p.sizes[d] > 1 ? p.sizes[d] : 1, &packed)) break;
    }
    if (!is_packed) add_list(l, key, p.strides[o], p.rank, ',');
}

}  // namespace

void add_list(TextLine* l, const char* key, const int64_t* v, uint32_t n, char sep) {
    l->add(" %s=", key);
    for (uint32_t i = 0; i < n; ++i) {
        if (i) l->add("%c", sep);
        l->add("%lld", (long long)v[i]);
    }
}

void add_activation(TextLine* l, const char* key, const ActParams& a) {
    l->add(" %s=%s", key, simdax_activation_name(a.type));
    const unsigned used = activation_fields(a.type);
    if (used & kAlpha) l->add(",alpha:%g", double(a.alpha));
    if (used & kBeta) l->add(",beta:%g", double(a.beta));
    if (used & kGamma) l->add(",gamma:%g", double(a.gamma));
}

namespace detail {
std::atomic<int> g_verbose_level{-1};

int read_verbose_level() {
    int v = level_from_env();
    int expected = -1;
    if (!g_verbose_level.compare_exchange_strong(expected, v)) v = expected;
    return v;
}
}  // namespace detail

void set_verbose_level(int level) { detail::g_verbose_level.store(level < 0 ? 0 : level); }

void describe_operator(const Problem& p, const Plan& plan, char* out, size_t size) {
    if (size == 0) return;
    out[0] = '\0';
    TextLine l{out, size};
    l.add("op=%s dtype=%s", p.def->name, dtype_name(public_dtype(p.dtype)));
    add_list(&l, "shape", p.sizes, p.rank, 'x');
    add_strides(&l, p, kX, "input_strides");
    add_strides(&l, p, kY, "output_strides");
    if (p.def->reduces) {
        l.add(" axes=");
        bool first = true;
        for (uint32_t d = 0; d < p.rank; ++d)
            if (p.reduced[d]) {
                l.add(first ? "%u" : ",%u", d);
                first = false;
            }
    }
    if (p.def->describe) p.def->describe(p, &l);
    l.add(" isa=%s form=%s", simdax_isa_name(plan.isa), form_name(plan.form));
    if (plan.form == Form::empty) return;
    const bool reduction = p.def->reduces;
    int64_t groups = 1;
    for (int i = 0; i < plan.outer.n; ++i) groups *= plan.outer.size[i];
    if (reduction) l.add(" groups=%lld group_size=%lld", (long long)groups, (long long)plan.group_size);
    if (plan.form == Form::rows) {
        int64_t segments = 1;
        for (int i = 0; i < plan.segments.n; ++i) segments *= plan.segments.size[i];
        l.add(" run=%lld runs_per_%s=%lld", (long long)plan.run, reduction ? "group" : "call",
              (long long)(reduction ? segments : groups));
        if (plan.lane_groups) l.add(" walk=lane_groups");
    }
    if (plan.form == Form::cols) l.add(" lanes=%lld", (long long)plan.lanes);
    l.add(" passes=%s", !reduction ? "write" : plan.parts > 1 ? "reduce+combine+write" : "reduce+write");
    if (plan.form == Form::cols)
        l.add(" split=lane_blocks:%lld", (long long)plan.lane_block);
    else
        l.add(" split=parts:%lldx%lld", (long long)plan.parts, (long long)plan.part_len);
    l.add(" parallel_from=%lld", (long long)plan.parallel_min);
}

}  // namespace simdax

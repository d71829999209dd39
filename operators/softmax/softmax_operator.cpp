// LogSoftmax and Softmax over any axis set. A group's state is the online
// (max, sum of exp(x - max)); LogSoftmax takes log(sum) once per group,
// after the reduction, rather than once per output call.
#include <cmath>
#include <limits>

#include "run_plan.hpp"
#include "softmax/softmax_state.hpp"
#include "validate_rules.hpp"

namespace simdax {
namespace {

template <bool Log>
struct SoftmaxPasses {
    static constexpr bool kReduces = true, kLaneGroups = true;
    static constexpr unsigned kExtra = 0;
    using State = MaxSum;
    using Final = MaxSum;  // log_sum set

    static State empty() { return {-std::numeric_limits<double>::infinity(), 0.0, 0.0}; }
    static void reduce(const Plan& p, const Piece& c, State* s) { p.k.maxsum(c.at[kX], c.n, s); }
    static void combine(State* s, const State& next) { kernels::combine_maxsum(s, next.max, next.sum); }
    template <class VisitGroup>
    static State finish(const Plan&, State s, VisitGroup&&) {
        if (Log) s.log_sum = std::log(s.sum);
        return s;
    }
    static void output(const Plan& p, const Piece& c, const State& s) {
        (Log ? p.k.log_softmax_out : p.k.softmax_out)(c.at[kX], c.at[kY], c.n, &s);
    }
    static void cols(const Plan& p, char* const* at, size_t r, size_t k, bool stream) {
        (Log ? p.k.log_softmax_cols : p.k.softmax_cols)(at[kX], at[kY], r, k, p.inner.stride[kX][0],
                                                        p.inner.stride[kY][0], stream);
    }
    static void rows(const Plan& p, char* const* at, size_t rows, const ptrdiff_t* rs) {
        (Log ? p.k.log_softmax_rows : p.k.softmax_rows)(at[kX], at[kY], rows, size_t(p.run), rs[kX], rs[kY]);
    }
    // Reduces the lanes into the groups' finished states, then writes the
    // same lanes while they are still in cache.
    static void lane_block(const Plan& p, const char* x, char* y, size_t r, size_t k, ptrdiff_t xrs,
                           ptrdiff_t yrs, size_t run) {
        MaxSum states[kLaneBlock];
        (Log ? p.k.log_softmax_cols_states : p.k.softmax_cols_states)(x, r, k, xrs, run, states);
        (Log ? p.k.log_softmax_cols_apply : p.k.softmax_cols_apply)(x, y, r, k, xrs, yrs, run, states);
    }
};

// Every kernel reads an element before it writes it, and reads no element
// after another's output, so an exact alias is safe.
simdax_status validate_softmax(const void* desc, Problem* p) {
    const simdax_status s = validate_axes_op(desc, p);
    p->in_place_ok = true;
    return s;
}

template <bool Log>
RowsFn rows_kernel(const DtypeKernels& k) {
    return Log ? k.log_softmax_rows : k.softmax_rows;
}

template <bool Log>
constexpr OperatorDef softmax_family(simdax_operator_type type, const char* name, simdax_structure_type info,
                                     size_t info_size) {
    return {type,
            name,
            info,
            info_size,
            validate_softmax,
            true,
            true,
            int64_t(1) << 15,
            rows_kernel<Log>,
            run_plan<SoftmaxPasses<Log>>,
            nullptr};
}

}  // namespace

SIMDAX_CHECK_INFO_LAYOUT(simdax_log_softmax_create_info);
SIMDAX_CHECK_INFO_LAYOUT(simdax_softmax_create_info);

extern const OperatorDef kLogSoftmaxOperator = softmax_family<true>(
    SIMDAX_OPERATOR_LOG_SOFTMAX, "LogSoftmax", SIMDAX_STRUCTURE_TYPE_LOG_SOFTMAX_CREATE_INFO,
    sizeof(simdax_log_softmax_create_info));
extern const OperatorDef kSoftmaxOperator =
    softmax_family<false>(SIMDAX_OPERATOR_SOFTMAX, "Softmax", SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO,
                          sizeof(simdax_softmax_create_info));
}  // namespace simdax

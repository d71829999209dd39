// Hardmax over any axis set: 1 at the first maximum of each group (NaN
// beats every number, the first NaN wins), 0 elsewhere.
#include <limits>

#include "run_plan.hpp"
#include "validate_rules.hpp"

namespace simdax {
namespace {

struct HardmaxPasses {
    static constexpr bool kReduces = true, kLaneGroups = false;
    static constexpr unsigned kExtra = 0;
    using State = ArgMax;
    using Final = ArgMax;

    static State empty() { return {-std::numeric_limits<double>::infinity(), -1, 0}; }
    static void reduce(const Plan& p, const Piece& c, State* s) { p.k.argmax(c.at[kX], c.n, c.pos, s); }
    // Parts come in increasing position order, so "first" stays first.
    static void combine(State* s, const State& next) {
        if (s->nan || next.index < 0) return;
        if (next.nan || s->index < 0 || next.value > s->value) *s = next;
    }
    template <class VisitGroup>
    static State finish(const Plan&, const State& s, VisitGroup&&) {
        return s;
    }
    static void output(const Plan& p, const Piece& c, const State& s) {
        p.k.hardmax_out(c.at[kY], c.n, c.pos, &s);
    }
    static void cols(const Plan& p, char* const* at, size_t r, size_t k, bool) {
        p.k.hardmax_cols(at[kX], at[kY], r, k, p.inner.stride[kX][0], p.inner.stride[kY][0]);
    }
    static void rows(const Plan& p, char* const* at, size_t rows, const ptrdiff_t* rs) {
        p.k.hardmax_rows(at[kX], at[kY], rows, size_t(p.run), rs[kX], rs[kY]);
    }
};

RowsFn rows_kernel(const DtypeKernels& k) { return k.hardmax_rows; }

}  // namespace

SIMDAX_CHECK_INFO_LAYOUT(simdax_hardmax_create_info);

extern const OperatorDef kHardmaxOperator{SIMDAX_OPERATOR_HARDMAX,
                                          "Hardmax",
                                          SIMDAX_STRUCTURE_TYPE_HARDMAX_CREATE_INFO,
                                          sizeof(simdax_hardmax_create_info),
                                          validate_axes_op,
                                          true,
                                          false,
                                          int64_t(1) << 15,
                                          rows_kernel,
                                          run_plan<HardmaxPasses>,
                                          nullptr};

}  // namespace simdax

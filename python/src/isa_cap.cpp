#include "isa_cap.hpp"

#include <mutex>

#include "errors.hpp"

namespace simdax_py {
namespace {
std::mutex& cap_mutex() {
    static std::mutex mutex;
    return mutex;
}
}  // namespace

simdax_isa isa_from_name(const std::string& name) {
    simdax_isa isa = SIMDAX_ISA_SCALAR;
    check(simdax_isa_from_name(name.c_str(), &isa));
    return isa;
}

simdax_operator* create_operator(const simdax_operator_desc& desc, const std::optional<std::string>& isa) {
    std::optional<simdax_isa> cap;
    if (isa) cap = isa_from_name(*isa);
    std::lock_guard<std::mutex> lock(cap_mutex());
    simdax_operator* op = nullptr;
    if (!cap) {
        check(simdax_operator_create(&desc, &op));
        return op;
    }
    // Without a getter for the cap, the active ISA stands for it: capping at
    // the best ISA the cap allows is the same cap.
    const simdax_isa previous = simdax_active_isa();
    check(simdax_set_max_isa(*cap));
    const simdax_status status = simdax_operator_create(&desc, &op);
    std::string message = simdax_last_error();
    simdax_set_max_isa(previous);
    throw_status(status, std::move(message));
    return op;
}

void set_max_isa(const std::string& name) {
    const simdax_isa isa = isa_from_name(name);
    std::lock_guard<std::mutex> lock(cap_mutex());
    check(simdax_set_max_isa(isa));
}

}  // namespace simdax_py

// The ISA cap seen from Python. The library's cap is one process-wide
// value; Python callers ask for a cap per call (isa="avx2") or per block
// (with simdax.max_isa(...)), so a create that asks for one sets the cap,
// creates, and restores the previous cap, all under one lock that every
// create of this module takes: no create sees another's temporary cap.
#pragma once

#include <optional>
#include <string>

#include "simdax/simdax.h"

namespace simdax_py {

simdax_isa isa_from_name(const std::string& name);  // ValueError for an unknown name

// simdax_operator_create, under the cap `isa` when given.
simdax_operator* create_operator(const simdax_operator_desc& desc, const std::optional<std::string>& isa);

// simdax_set_max_isa, in step with create_operator's lock.
void set_max_isa(const std::string& name);

}  // namespace simdax_py

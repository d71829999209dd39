// simdax_case: read conformance cases, run them through the simdax C API,
// judge the output by the README pass rule. Consumers link simdax (shared)
// or simdax_static themselves.
#pragma once

#include "bin_file.hpp"
#include "case_checker.hpp"
#include "case_error.hpp"
#include "case_model.hpp"
#include "case_reader.hpp"
#include "case_runner.hpp"
#include "dtype_codec.hpp"

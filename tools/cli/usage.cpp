#include <string>

#include <simdax/simdax.h>

#include "commands.hpp"

namespace simdax_cli {
namespace {

// "scalar, avx2, ...": the library's ISA names.
std::string isa_names() {
    std::string names;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        if (i > 0) names += ", ";
        names += simdax_isa_name(static_cast<simdax_isa>(i));
    }
    return names;
}

}  // namespace

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: simdax [--isa NAME] COMMAND [ARGS]\n"
                 "\n"
                 "commands:\n"
                 "  info                                 CPU, features, ISAs compiled in and supported,\n"
                 "                                       library version, the ISA in use\n"
                 "  run CASE_DIR --out DIR [--repeat N]  run one case, write DIR/output_<i>.bin for the\n"
                 "                                       case's outputs[i] (packed, in its dtype; 0 is\n"
                 "                                       Y); with --repeat, time N more executions and\n"
                 "                                       print median_ns. The reference output files\n"
                 "                                       are not needed\n"
                 "  conformance ROOT                     run every case at or below ROOT and apply the\n"
                 "                                       pass rule to every output; prints 'N passed,\n"
                 "                                       N failed' and a SKIP line per folder without\n"
                 "                                       a case\n"
                 "\n"
                 "options:\n"
                 "  --isa NAME   cap the ISA (%s);\n"
                 "               the environment variable SIMDAX_MAX_ISA sets the initial cap\n"
                 "\n"
                 "environment:\n"
                 "  SIMDAX_VERBOSE=1  print each operator the library creates (op, dtype, shape,\n"
                 "                    axes, isa, loop form, passes, split) on stderr; 2: also each\n"
                 "                    execution with its time\n"
                 "  -h, --help   this message\n"
                 "\n"
                 "exit status: 0 success, 1 failure or a bad case, 2 bad usage\n",
                 isa_names().c_str());
}

}  // namespace simdax_cli

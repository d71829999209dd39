// simdax command-line tool: argument parsing and dispatch. Uses the C API
// only (linked against the shared library).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include <simdax/simdax.h>

#include "commands.hpp"

namespace {

using namespace simdax_cli;

int usage_error(const std::string& problem) {
    std::fprintf(stderr, "simdax: %s\n\n", problem.c_str());
    print_usage(stderr);
    return kExitUsage;
}

// Applies --isa; returns an exit code, or -1 to go on.
int apply_isa(const std::string& name) {
    simdax_isa isa;
    if (simdax_isa_from_name(name.c_str(), &isa) != SIMDAX_OK) {
        return usage_error("--isa: unknown ISA '" + name + "'");
    }
    const simdax_status status = simdax_set_max_isa(isa);
    if (status != SIMDAX_OK) {
        std::fprintf(stderr, "simdax: --isa %s: %s: %s\n", name.c_str(), simdax_status_name(status),
                     simdax_last_error());
        return kExitFailure;
    }
    return -1;
}

bool parse_count(const std::string& text, std::uint64_t* value) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *value = v;
    return true;
}

// The library never prints; the CLI shows its WARNING lines and the
// SIMDAX_VERBOSE lines on stderr (errors reach the user through the
// commands' own messages).
void print_log(void*, simdax_log_level level, const char* message) {
    if (level == SIMDAX_LOG_ERROR) return;
    std::fprintf(stderr, "simdax: %s: %s\n", level == SIMDAX_LOG_WARNING ? "warning" : "info", message);
}

int run_cli(int argc, char** argv) {
    simdax_set_log_callback(print_log, nullptr);
    // Options may appear anywhere; what is left are the command and its
    // positional arguments.
    std::vector<std::string> positional;
    std::string isa;
    std::string out_dir;
    std::string repeat_text;
    bool have_out = false;
    bool have_repeat = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value_of = [&](const std::string& option, std::string* value) -> bool {
            if (arg == option) {
                if (i + 1 >= argc) return false;
                *value = argv[++i];
                return true;
            }
            *value = arg.substr(option.size() + 1);  // --option=value
            return true;
        };
        if (arg == "-h" || arg == "--help") {
            print_usage(stdout);
            return kExitOk;
        } else if (arg == "--isa" || arg.rfind("--isa=", 0) == 0) {
            if (!value_of("--isa", &isa)) return usage_error("--isa needs a value");
        } else if (arg == "--out" || arg.rfind("--out=", 0) == 0) {
            if (!value_of("--out", &out_dir)) return usage_error("--out needs a value");
            have_out = true;
        } else if (arg == "--repeat" || arg.rfind("--repeat=", 0) == 0) {
            if (!value_of("--repeat", &repeat_text)) return usage_error("--repeat needs a value");
            have_repeat = true;
        } else if (arg.size() > 1 && arg[0] == '-') {
            return usage_error("unknown option '" + arg + "'");
        } else {
            positional.push_back(arg);
        }
    }
    if (positional.empty()) return usage_error("no command given");
    const std::string command = positional[0];
    const std::size_t args = positional.size() - 1;

    if (command != "info" && command != "run" && command != "conformance") {
        return usage_error("unknown command '" + command + "'");
    }
    if (command != "run" && (have_out || have_repeat)) {
        return usage_error("--out and --repeat belong to the run command");
    }
    std::uint64_t repeat = 0;
    if (command == "run") {
        if (args != 1) return usage_error("run takes one CASE_DIR");
        if (!have_out || out_dir.empty()) return usage_error("run needs --out DIR");
        if (have_repeat && (!parse_count(repeat_text, &repeat) || repeat == 0)) {
            return usage_error("--repeat needs a positive integer, not '" + repeat_text + "'");
        }
    } else if (command == "conformance" && args != 1) {
        return usage_error("conformance takes one ROOT");
    } else if (command == "info" && args != 0) {
        return usage_error("info takes no arguments");
    }

    if (!isa.empty()) {
        const int code = apply_isa(isa);
        if (code >= 0) return code;
    }
    if (command == "info") return command_info();
    if (command == "run") return command_run(positional[1], out_dir, repeat);
    return command_conformance(positional[1]);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run_cli(argc, argv);
    } catch (const std::exception& e) {
        // CaseError messages already name the file and the problem.
        std::fprintf(stderr, "simdax: %s\n", e.what());
        return kExitFailure;
    }
}

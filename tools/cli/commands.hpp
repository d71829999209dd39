// The subcommands of the simdax CLI. Each returns the process exit code:
// 0 success, 1 failure (a case error, a failing case), 2 bad usage.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace simdax_cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

void print_usage(std::FILE* out);

int command_info();
int command_run(const std::string& case_dir, const std::string& out_dir, std::uint64_t repeat);
int command_conformance(const std::string& root);

}  // namespace simdax_cli

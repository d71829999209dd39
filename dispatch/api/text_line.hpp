// A line of text built into a fixed buffer (descriptions, log lines):
// output past its end is dropped.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "kernel_table.hpp"

namespace simdax {

struct TextLine {
    char* out;
    size_t size;
    size_t len = 0;

    __attribute__((format(printf, 2, 3))) void add(const char* fmt, ...) {
        if (len + 1 >= size) return;
        va_list ap;
        va_start(ap, fmt);
        const int n = std::vsnprintf(out + len, size - len, fmt, ap);
        va_end(ap);
        if (n > 0) len = len + size_t(n) < size ? len + size_t(n) : size - 1;
    }
};

// " key=v0<sep>v1..."
void add_list(TextLine* l, const char* key, const int64_t* v, uint32_t n, char sep);
// " key=name,alpha:..": the activation and the parameters its type reads.
void add_activation(TextLine* l, const char* key, const ActParams& a);

}  // namespace simdax

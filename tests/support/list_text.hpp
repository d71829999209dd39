// A vector as the failure reports print sizes, strides and axes: "[a,b,c]".
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace sxt {

template <class T>
std::string list(const std::vector<T>& v) {
    std::ostringstream s;
    s << "[";
    for (size_t i = 0; i < v.size(); ++i) s << (i ? "," : "") << v[i];
    s << "]";
    return s.str();
}

}  // namespace sxt

// In-memory form of one conformance case (README "case.json"): what the
// reader produces and the runner and checker consume.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <simdax/simdax.h>

namespace simdax_case {

// Raw bytes of one .bin file, stored in 8-byte words so that every dtype is
// naturally aligned. Never empty, so data() is never null (the library
// rejects null buffers even for tensors without elements).
class ByteBuffer {
public:
    ByteBuffer() = default;
    explicit ByteBuffer(std::size_t bytes) : words_(bytes / 8 + 1), bytes_(bytes) {}
    void* data() { return words_.data(); }
    const void* data() const { return words_.data(); }
    std::size_t size() const { return bytes_; }

private:
    std::vector<std::uint64_t> words_ = std::vector<std::uint64_t>(1);
    std::size_t bytes_ = 0;
};

struct Tensor {
    std::string name;                                // role: X, Scale, Mask, ..., Y, LogSumExp
    std::filesystem::path file;                      // absolute or relative to the cwd
    simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32;       // type in the operator call
    simdax_dtype file_dtype = SIMDAX_DTYPE_FLOAT32;  // type of the values in the file
    std::vector<std::int64_t> shape;
    std::optional<std::vector<std::int64_t>> strides;  // inputs only; nullopt = packed
    std::int64_t offset = 0;                           // inputs only, in elements
    std::int64_t buffer_elements = 0;                  // elements in the file
    std::uint64_t element_count = 0;                   // prod(shape)
    ByteBuffer contents;                               // the file, verbatim
};

struct Tolerance {
    double atol = 0;
    double rtol = 0;
    std::uint64_t ulps = 0;
};

// AttentionSoftmax's scalar parameters (simdax_attention_softmax_desc); the
// defaults are the library's "none" values.
struct AttentionParams {
    float scale = 1.0f;
    float softcap = 0.0f;
    simdax_causal causal = SIMDAX_CAUSAL_NONE;
    std::uint32_t window = 0;
    bool log = false;
};

struct CaseParams {
    std::vector<std::uint32_t> axes;                                          // softmax family, MVN
    bool normalize_variance = true;                                           // MVN
    float epsilon = 1e-5f;                                                    // MVN
    std::optional<simdax_activation_desc> activation;                         // MVN; nullopt = none
    simdax_epsilon_placement epsilon_placement = SIMDAX_EPSILON_ON_VARIANCE;  // MVN
    float alpha = 0.2f;                                                       // HardSigmoid
    float beta = 0.5f;                                                        // HardSigmoid
    std::int32_t axis = -1;                                                   // Layer/RMSNormalization
    std::int32_t stash_type = 1;                                              // Layer/RMSNormalization
    AttentionParams attention;                                                // AttentionSoftmax
};

struct Case {
    std::filesystem::path dir;
    std::filesystem::path json_path;
    std::string name;
    std::string set;
    simdax_operator_type op = SIMDAX_OPERATOR_LOG_SOFTMAX;  // named by simdax_operator_name()
    CaseParams params;
    Tolerance tolerance;
    std::vector<std::string> tags;
    std::vector<Tensor> inputs;  // X first, then the op's optional inputs (Scale, Mask, ...)
    Tensor output;               // Y: packed, contents = the reference
    // Outputs beside Y (float32, packed): LayerNormalization's Mean and
    // InvStdDev, AttentionSoftmax's LogSumExp.
    std::vector<Tensor> extra_outputs;

    // The input with this role, or null.
    const Tensor* input(const std::string& role) const;
};

// One entry of an index.json.
struct IndexEntry {
    std::string name;
    std::filesystem::path dir;  // root / path
    std::string op;
    std::vector<std::string> tags;
};

}  // namespace simdax_case

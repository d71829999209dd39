// Shared by the C++ drivers of the peer comparison (simdax_peer.cpp,
// onednn_peer.cpp, xnnpack_peer.cpp): the workload list (workloads.txt), the
// data files (make_data.py), the timing rule (same constants as peers_common.py),
// the memcpy baseline and the JSON-lines result format.
#pragma once

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace peers {

constexpr double kBatchNs = 200e3;
constexpr double kTimeBudgetNs = 150e6;
constexpr int kMinSamples = 5;
constexpr int kMaxSamples = 61;

inline std::vector<int64_t> parse_dims(const std::string& s);

struct Workload {
    std::string id, op, dtype;
    std::vector<int64_t> shape, sb_shape;
    std::vector<int> axes;
    std::map<std::string, std::string> params;  // the optional 7th column

    std::string param(const std::string& k, const std::string& dflt = "") const {
        auto it = params.find(k);
        return it == params.end() ? dflt : it->second;
    }
    // attn_softmax: the factor on the scores; the norms: epsilon.
    float scale() const { return std::stof(param("scale", "1")); }
    float eps() const { return std::stof(param("eps", "1e-5")); }
    bool causal() const { return param("causal", "0") == "1"; }
    // The additive f32 mask's shape (<id>.mask): mask=, or 1x1xSqxSkv for a
    // causal row; empty for none.
    std::vector<int64_t> mask_shape() const {
        if (params.count("mask")) return parse_dims(params.at("mask"));
        if (causal()) return {1, 1, shape[shape.size() - 2], shape.back()};
        return {};
    }
    int64_t mask_count() const {
        int64_t n = 1;
        for (int64_t d : mask_shape()) n *= d;
        return n;
    }
    bool has_mask() const { return op == "attn_softmax" && !mask_shape().empty(); }
    bool has_skip() const { return op == "skip_layer_norm"; }

    int64_t count() const {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        return n;
    }
    int64_t sb_count() const {
        if (sb_shape.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : sb_shape) n *= d;
        return n;
    }
    size_t elem_size() const { return dtype == "f32" ? 4 : 2; }
    size_t bytes() const { return size_t(count()) * elem_size(); }
};

inline std::vector<int64_t> parse_dims(const std::string& s) {
    std::vector<int64_t> v;
    if (s == "-") return v;
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, 'x')) v.push_back(std::stoll(part));
    return v;
}

inline std::vector<Workload> load_workloads(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot open " + path);
    std::vector<Workload> out;
    std::string line;
    while (std::getline(f, line)) {
        line = line.substr(0, line.find('#'));
        std::stringstream ss(line);
        std::string id, op, dtype, shape, axes, sb, params, extra;
        if (!(ss >> id)) continue;
        if (!(ss >> op >> dtype >> shape >> axes >> sb))
            throw std::runtime_error("bad workload line: " + line);
        Workload w{id, op, dtype, parse_dims(shape), parse_dims(sb), {}, {}};
        if ((ss >> params) && params != "-") {  // key=value,key=value
            std::stringstream ps(params);
            std::string kv;
            while (std::getline(ps, kv, ',')) {
                const size_t eq = kv.find('=');
                if (eq == std::string::npos) throw std::runtime_error("bad parameter " + kv + ": " + line);
                w.params[kv.substr(0, eq)] = kv.substr(eq + 1);
            }
        }
        if (ss >> extra) throw std::runtime_error("bad workload line: " + line);
        if (axes != "-") {
            std::stringstream as(axes);
            std::string a;
            while (std::getline(as, a, ',')) w.axes.push_back(std::stoi(a));
        }
        out.push_back(w);
    }
    return out;
}

// 64-byte aligned, every page touched before timing.
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(size_t bytes) : size_(bytes) {
        const size_t rounded = bytes ? (bytes + 63) / 64 * 64 : 64;
        void* p = nullptr;
        if (posix_memalign(&p, 64, rounded) != 0) throw std::bad_alloc();
        std::memset(p, 0, rounded);
        p_.reset(p);
    }
    void* data() const { return p_.get(); }
    size_t size() const { return size_; }

private:
    struct Free {
        void operator()(void* p) const { std::free(p); }
    };
    std::unique_ptr<void, Free> p_;  // move-only, freed once
    size_t size_ = 0;
};

inline Buffer read_file(const std::string& path, size_t expected) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + path);
    Buffer b(expected);
    f.read(static_cast<char*>(b.data()), std::streamsize(expected));
    if (size_t(f.gcount()) != expected) throw std::runtime_error("short file " + path);
    return b;
}

inline void write_file(const std::string& path, const void* data, size_t bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char*>(data), std::streamsize(bytes));
    if (!f) throw std::runtime_error("cannot write " + path);
}

// in (and skip): x's shape and dtype; scale, bias: the S/B shape in the
// workload's dtype; mask: the attn_softmax mask, always f32.
struct Inputs {
    Buffer in, scale, bias, mask, skip;
};

inline Inputs load_inputs(const std::string& data_dir, const Workload& w) {
    Inputs d;
    d.in = read_file(data_dir + "/" + w.id + ".in", w.bytes());
    if (!w.sb_shape.empty()) {
        d.scale = read_file(data_dir + "/" + w.id + ".scale", size_t(w.sb_count()) * w.elem_size());
        d.bias = read_file(data_dir + "/" + w.id + ".bias", size_t(w.sb_count()) * w.elem_size());
    }
    if (w.has_mask()) d.mask = read_file(data_dir + "/" + w.id + ".mask", size_t(w.mask_count()) * 4);
    if (w.has_skip()) d.skip = read_file(data_dir + "/" + w.id + ".skip", w.bytes());
    return d;
}

inline std::string out_name(const std::string& peer, const Workload& w, int threads,
                            const std::string& impl) {
    std::string safe = impl;
    for (char& c : safe)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return peer + "/" + w.id + ".t" + std::to_string(threads) + "." + safe + ".out";
}

inline double now_ns() {
    return double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

// Median ns per call of fn() under the shared timing rule.
inline double time_call(const std::function<void()>& fn) {
    fn();  // warm-up
    double t0 = now_ns();
    fn();
    const double one = std::max(now_ns() - t0, 1.0);
    const long k = std::max(1L, std::min(1000000L, long(std::ceil(kBatchNs / one))));
    std::vector<double> samples;
    const double start = now_ns();
    while (int(samples.size()) < kMaxSamples) {
        t0 = now_ns();
        for (long i = 0; i < k; ++i) fn();
        samples.push_back((now_ns() - t0) / double(k));
        if (int(samples.size()) >= kMinSamples && now_ns() - start >= kTimeBudgetNs) break;
    }
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

// The baseline: memcpy of the input's bytes into another buffer (reads N,
// writes N: the traffic of every op here, up to Scale/Bias).
inline double time_memcpy(const Buffer& src) {
    Buffer dst(src.size());
    volatile unsigned char sink = 0;
    const double t = time_call([&] {
        std::memcpy(dst.data(), src.data(), src.size());
        sink = sink + static_cast<unsigned char*>(dst.data())[0];
    });
    (void)sink;
    return t;
}

inline std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        o += c;
    }
    return o;
}

class ResultWriter {
public:
    // append: a driver run once per thread count adds to one file.
    ResultWriter(const std::string& path, std::string peer, std::string version, bool append = false)
        : f_(std::fopen(path.c_str(), append ? "a" : "w")),
          peer_(std::move(peer)),
          version_(std::move(version)) {
        if (!f_) throw std::runtime_error("cannot write " + path);
    }
    ~ResultWriter() { std::fclose(f_); }

    void write(const Workload& w, int threads, const std::string& impl, const std::string& note,
               const std::string& status, double time_ns, double memcpy_ns, const std::string& out,
               const std::string& reason = "") {
        auto num = [](double v) {
            if (!(v >= 0)) return std::string("null");
            char b[64];
            std::snprintf(b, sizeof b, "%.1f", v);
            return std::string(b);
        };
        auto str = [](const std::string& s) {
            return s.empty() ? std::string("null") : "\"" + json_escape(s) + "\"";
        };
        std::fprintf(f_,
                     "{\"peer\": \"%s\", \"version\": \"%s\", \"id\": \"%s\", \"threads\": %d, "
                     "\"impl\": \"%s\", \"note\": \"%s\", \"status\": \"%s\", \"reason\": \"%s\", "
                     "\"time_ns\": %s, \"memcpy_ns\": %s, \"out\": %s}\n",
                     json_escape(peer_).c_str(), json_escape(version_).c_str(), w.id.c_str(), threads,
                     json_escape(impl).c_str(), json_escape(note).c_str(), status.c_str(),
                     json_escape(reason).c_str(), num(time_ns).c_str(), num(memcpy_ns).c_str(),
                     str(out).c_str());
        std::fflush(f_);
    }

private:
    std::FILE* f_;
    std::string peer_, version_;
};

// Arguments common to both C++ drivers: WORKLOADS DATA_DIR OUT_DIR [threads...] [--only ID,...]
struct Args {
    std::string workloads, data_dir, out_dir;
    std::vector<int> threads;
    std::vector<std::string> only;
};

inline Args parse_args(int argc, char** argv, const char* usage) {
    Args a;
    std::vector<std::string> pos;
    for (int i = 1; i < argc; ++i) {
        std::string s = argv[i];
        if (s == "--only" && i + 1 < argc) {
            std::stringstream ss(argv[++i]);
            std::string id;
            while (std::getline(ss, id, ',')) a.only.push_back(id);
        } else {
            pos.push_back(s);
        }
    }
    if (pos.size() < 3) {
        std::fprintf(stderr, "usage: %s\n", usage);
        std::exit(2);
    }
    a.workloads = pos[0];
    a.data_dir = pos[1];
    a.out_dir = pos[2];
    for (size_t i = 3; i < pos.size(); ++i) a.threads.push_back(std::stoi(pos[i]));
    if (a.threads.empty()) a.threads = {1};
    return a;
}

inline bool selected(const Args& a, const Workload& w) {
    return a.only.empty() || std::find(a.only.begin(), a.only.end(), w.id) != a.only.end();
}

// f(w, inputs, memcpy_ns) for each workload the arguments select, its inputs
// loaded and a memcpy of them timed.
template <class F>
void for_each_workload(const Args& args, F&& f) {
    for (const Workload& w : load_workloads(args.workloads)) {
        if (!selected(args, w)) continue;
        const Inputs in = load_inputs(args.data_dir, w);
        f(w, in, time_memcpy(in.in));
    }
}

// Thrown by a driver's build when the peer cannot run a workload (the table
// shows n/a with this reason).
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One candidate implementation a driver built: its name, note and the call
// to time (which writes the workload's output buffer).
struct Candidate {
    std::string impl, note;
    std::function<void()> run;
};

// Builds, times and records one candidate of w into `out` (w.bytes() of it
// are written to the candidate's output file). `impl` names it if the build
// throws: Unsupported is recorded as n/a, anything else as an error.
inline void time_candidate(ResultWriter& results, const Args& args, const std::string& peer,
                           const Workload& w, int threads, double memcpy_ns, const Buffer& out,
                           std::string impl, const std::function<Candidate()>& build) {
    std::string note;
    try {
        const Candidate c = build();
        impl = c.impl, note = c.note;
        std::memset(out.data(), 0, out.size());
        const double t = time_call(c.run);
        const std::string name = out_name(peer, w, threads, impl);
        write_file(args.out_dir + "/" + name, out.data(), w.bytes());
        results.write(w, threads, impl, note, "ok", t, memcpy_ns, name);
        std::fprintf(stderr, "  %-4s %dT %10.1f us (memcpy %.1f us) %s\n", w.id.c_str(), threads, t / 1e3,
                     memcpy_ns / 1e3, impl.c_str());
    } catch (const Unsupported& e) {
        results.write(w, threads, impl, note, "unsupported", -1, memcpy_ns, "", e.what());
        std::fprintf(stderr, "  %-4s %dT unsupported: %s\n", w.id.c_str(), threads, e.what());
    } catch (const std::exception& e) {
        results.write(w, threads, impl, note, "error", -1, memcpy_ns, "", e.what());
        std::fprintf(stderr, "  %-4s %dT error: %s\n", w.id.c_str(), threads, e.what());
    }
}

}  // namespace peers

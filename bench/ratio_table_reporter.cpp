#include "ratio_table_reporter.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <utility>

#include "baselines.hpp"
#include "bench_ops.hpp"
#include "read_pass.hpp"
#include "workloads.hpp"

namespace simdax_bench {

namespace {

std::string format(const char* fmt, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, value);
    return buf;
}

std::string pad_right(std::string s, size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string pad_left(const std::string& s, size_t width) {
    return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

std::string format_ratio(double ratio) { return format(ratio < 100.0 ? "%.2fx" : "%.1fx", ratio); }

std::string format_time(double seconds, bool nanoseconds) {
    if (nanoseconds) return format("%.1fns", seconds * 1e9);
    const double us = seconds * 1e6;
    return format(us < 10.0 ? "%.2fus" : "%.1fus", us);
}

// " W1 W6a ...": the rows divided by memcpy_fastest.
std::string cache_sized_ids() {
    std::string ids;
    for (const Workload& w : workloads())
        if (cache_sized(w)) ids += ' ' + w.id;
    return ids.empty() ? " none" : ids;
}

}  // namespace

RatioTableReporter::RatioTableReporter(benchmark::BenchmarkReporter* inner, std::vector<simdax_isa> isas,
                                       std::ostream* table, bool real_time)
    : inner_(inner), isas_(std::move(isas)), table_(table), real_time_(real_time) {}

bool RatioTableReporter::ReportContext(const Context& context) {
    if (!inner_) return true;  // --table_only: the table carries the header
    if (table_) {
        print_machine();
        *table_ << std::endl;
    }
    return inner_->ReportContext(context);
}

void RatioTableReporter::ReportRuns(const std::vector<Run>& runs) {
    for (const Run& run : runs) {
        Result& result = results_[run.run_name.function_name];
        if (run.iterations <= 0 && !run.error_occurred) continue;
        const double n = double(run.iterations);
        if (run.run_type == Run::RT_Aggregate) {
            // With --benchmark_display_aggregates_only only these arrive;
            // repetitions share one iteration count, so this is per execute.
            if (run.aggregate_name == "median") {
                result.median_cpu = run.cpu_accumulated_time / n;
                result.median_wall = run.real_accumulated_time / n;
            }
            continue;
        }
        if (run.error_occurred) {
            result.error = run.error_message;
            any_error_ = true;
            continue;
        }
        result.cpu.push_back(run.cpu_accumulated_time / n);
        result.wall.push_back(run.real_accumulated_time / n);
    }
    if (inner_) inner_->ReportRuns(runs);
}

void RatioTableReporter::Finalize() {
    if (inner_) inner_->Finalize();
    if (table_) print_table();
}

const RatioTableReporter::Result* RatioTableReporter::find(const std::string& name) const {
    const auto it = results_.find(name);
    return it == results_.end() ? nullptr : &it->second;
}

namespace {

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

double RatioTableReporter::seconds(const std::string& name) const {
    if (real_time_) return wall_seconds(name);
    const Result* r = find(name);
    if (!r || !r->error.empty()) return -1.0;
    if (r->median_cpu > 0) return r->median_cpu;
    return r->cpu.empty() ? -1.0 : median_of(r->cpu);
}

double RatioTableReporter::wall_seconds(const std::string& name) const {
    const Result* r = find(name);
    if (!r || !r->error.empty()) return -1.0;
    if (r->median_wall > 0) return r->median_wall;
    return r->wall.empty() ? -1.0 : median_of(r->wall);
}

double RatioTableReporter::baseline_seconds(const std::string& name) const {
    return name.rfind("memcpy_fastest/", 0) == 0 ? wall_seconds(name) : seconds(name);
}

void RatioTableReporter::print_machine() const {
    std::ostream& out = *table_;
    const char* cpu = simdax_cpu_name();
    const char* vendor = simdax_cpu_vendor();
    out << "simdax " << simdax_version() << " benchmark\n";
    out << "machine: " << (*cpu ? cpu : "unknown CPU");
    if (*vendor) out << " (" << vendor << ")";
    out << "\nISAs:   ";
    for (simdax_isa isa : isas_) out << simdax_isa_name(isa) << ' ';
    out << "(compiled in and supported here)\n";
}

void RatioTableReporter::print_table() const {
    std::ostream& out = *table_;
    const std::vector<Workload>& list = workloads();

    size_t id_width = 2, name_width = 8, isa_width = 0;
    for (const Workload& w : list) {
        id_width = std::max(id_width, w.id.size());
        name_width = std::max(name_width, row_name(w).size());
    }
    for (simdax_isa isa : isas_) isa_width = std::max(isa_width, std::strlen(simdax_isa_name(isa)));

    out << "\n==== simdax ratio table ====\n";
    print_machine();
    out << "time = " << (real_time_ ? "wall-clock" : "CPU") << " time per execute (median over repetitions"
        << (real_time_ ? "" : "; --table_real_time for wall-clock") << ")\n"
        << "x memcpy = op time / time of memcpy/<dtype>/<shape> (a copy of the input's bytes:\n"
           "  reads N, writes N). Rows whose input and output fit in L2 together ("
        << l2_bytes() / 1024 << " KiB here:" << cache_sized_ids()
        << ")\n"
           "  divide by memcpy_fastest/<dtype>/<shape> instead, the fastest of 8 hand-timed\n"
           "  samples of that copy taken in turn from 4 buffer pairs at different addresses:\n"
           "  it is over in microseconds, and its median moves with every interruption and\n"
           "  with how the two buffers share the cache's sets.\n"
           "x read = op time / time of read/<dtype>/<shape> (one vectorized pass that only reads\n"
           "  the input's bytes, "
        << read_pass_kind()
        << " loads): how far the op is from reading its input once.\n"
           "target = each SIMD ISA's own (avx512 also judges avx512fp16); a '!' marks a cell over\n"
           "  its ISA's target, and every such miss is listed under the table.\n"
           "best = ISA with the lowest x memcpy (latency row: lowest time), judged against its "
           "target.\n\n";
    out << pad_right("", id_width + 2 + name_width) << "  "
        << "each ISA: time per execute, x memcpy, x read\n";

    bool any_row = false, missing_baseline = false;
    std::vector<std::pair<std::string, std::string>> errors;
    std::vector<std::string> misses;  // "<id> <isa>: <value> over <target>"
    // Judges one cell against its ISA's target: its mark ('!' or ' ').
    auto judge = [&](const Workload& w, simdax_isa isa, double value) {
        const double target = target_for(w, isa);
        if (target <= 0) return ' ';
        const bool met = w.latency ? value < target * 1e-9 : value <= target;
        if (met) return ' ';
        misses.push_back(w.id + ' ' + simdax_isa_name(isa) + ": " +
                         (w.latency ? format_time(value, true) + " over " + format("%.0fns", target)
                                    : format_ratio(value) + " over " + format("%.1f", target)));
        return '!';
    };
    for (const Workload& w : list) {
        // Skip rows the filter left out entirely.
        bool any = false;
        for (simdax_isa isa : isas_) any |= find(benchmark_name(w, simdax_isa_name(isa))) != nullptr;
        if (!any) continue;
        any_row = true;

        const double base = w.latency ? -1.0 : baseline_seconds(ratio_baseline_name(w));
        const double read = w.latency ? -1.0 : seconds(read_name(w));
        if (!w.latency && base <= 0) missing_baseline = true;
        std::string line = pad_right(w.id, id_width) + "  " + pad_right(row_name(w), name_width);
        const char* best_isa = nullptr;
        simdax_isa best = SIMDAX_ISA_SCALAR;
        double best_value = 0;              // ratio, or seconds for the latency row
        const char* fastest_isa = nullptr;  // by time, for rows without a baseline
        double fastest = 0;
        for (size_t i = 0; i < isas_.size(); ++i) {
            const char* isa = simdax_isa_name(isas_[i]);
            const std::string name = benchmark_name(w, isa);
            const Result* r = find(name);
            // Each column is one ISA, so its name lines up without padding.
            std::string cell = std::string(isa) + ' ';
            const double t = seconds(name);
            const std::string no_ratios = ' ' + pad_left("", 7) + ' ' + pad_left("", 7);
            if (r && !r->error.empty()) {
                cell += pad_left("FAILED", 10) + no_ratios;
                errors.emplace_back(name, r->error);
            } else if (t < 0) {
                cell += pad_left("-", 10) + no_ratios;
            } else if (w.latency) {
                cell += pad_left(format_time(t, true), 10) + judge(w, isas_[i], t) + no_ratios.substr(1);
                if (!best_isa || t < best_value) best_isa = isa, best_value = t, best = isas_[i];
            } else {
                const double ratio = base > 0 ? t / base : -1.0;
                const double read_ratio = read > 0 ? t / read : -1.0;
                if (!fastest_isa || t < fastest) fastest_isa = isa, fastest = t;
                cell += pad_left(format_time(t, false), 10) + ' ' +
                        pad_left(ratio > 0 ? format_ratio(ratio) : "-", 7) +
                        (ratio > 0 ? judge(w, isas_[i], ratio) : ' ') +
                        pad_left(read_ratio > 0 ? format_ratio(read_ratio) : "-", 7);
                if (ratio > 0 && (!best_isa || ratio < best_value))
                    best_isa = isa, best_value = ratio, best = isas_[i];
            }
            line += (i ? " | " : "  ") + cell;
        }
        line += "  || best ";
        if (!best_isa) {
            line += fastest_isa ? pad_right(fastest_isa, isa_width) + ' ' + format_time(fastest, false) +
                                      "  (no memcpy baseline, target not judged)"
                                : std::string("-");
        } else if (target_for(w, best) <= 0) {
            line += pad_right(best_isa, isa_width) + ' ' +
                    (w.latency ? format_time(best_value, true) : format_ratio(best_value)) + "  (no target)";
        } else if (w.latency) {
            const double target = target_for(w, best);
            line += pad_right(best_isa, isa_width) + ' ' + format_time(best_value, true) + "  target <" +
                    format("%.0fns", target) + "  " + (best_value < target * 1e-9 ? "met" : "MISSED");
        } else {
            const double target = target_for(w, best);
            line += pad_right(best_isa, isa_width) + ' ' + format_ratio(best_value) +
                    "  target <=" + format("%.1f", target) + "  " + (best_value <= target ? "met" : "MISSED");
        }
        out << line << '\n';
    }
    if (!any_row) out << "(no workload ran)\n";
    out << "targets missed on any ISA: " << misses.size() << '\n';
    for (const std::string& m : misses) out << "  MISSED " << m << '\n';
    if (missing_baseline) out << "ratio '-': its baseline was not run (widen --benchmark_filter).\n";

    print_baselines(name_width);
    print_threads(name_width);
    for (const auto& e : errors) out << "FAILED " << e.first << ": " << e.second << '\n';
    out << std::flush;
}

// The baselines themselves, with the bandwidth they reach.
void RatioTableReporter::print_baselines(size_t name_width) const {
    std::ostream& out = *table_;
    std::set<std::string> seen;
    bool header = false;
    for (const Workload& w : workloads()) {
        if (w.latency || !seen.insert(memcpy_name(w)).second) continue;
        const double bytes = double(memcpy_bytes(w));
        // name, seconds, bytes moved per pass, what moves
        const struct {
            std::string name;
            double t;
            double moved;
            const char* what;
        } lines[] = {
            {memcpy_name(w), seconds(memcpy_name(w)), 2 * bytes, "(read+write, median)"},
            {memcpy_fastest_name(w), baseline_seconds(memcpy_fastest_name(w)), 2 * bytes,
             "(read+write, fastest sample)"},
            {read_name(w), seconds(read_name(w)), bytes, "(read only)"},
        };
        for (const auto& l : lines) {
            if (l.t <= 0) continue;
            if (!header) out << "\nbaselines:\n", header = true;
            out << "  " << pad_right(l.name, name_width + 8) << pad_left(format("%.2f MB", bytes / 1e6), 10)
                << pad_left(format_time(l.t, false), 12)
                << pad_left(format("%.1f GB/s", l.moved / l.t / 1e9), 12) << "  " << l.what << '\n';
        }
    }
}

// Multi-core rows: each of threads_isas on one thread and on every core
// (median wall-clock for both, so the speedup compares like with like).
void RatioTableReporter::print_threads(size_t name_width) const {
    const unsigned threads = parallel_threads();
    if (threads <= 1) return;
    size_t id_width = 4;  // as the ratio table's id column (AS1bs: 5)
    for (const Workload& w : workloads()) id_width = std::max(id_width, w.id.size());
    for (simdax_isa t : threads_isas(isas_)) print_threads(name_width, id_width, simdax_isa_name(t), threads);
}

void RatioTableReporter::print_threads(size_t name_width, size_t id_width, const char* isa,
                                       unsigned threads) const {
    bool header = false;
    for (const Workload& w : workloads()) {
        const std::string one = benchmark_name(w, isa);
        const double t1 = wall_seconds(one);
        const double tn = wall_seconds(threads_name(one, threads));
        if (w.latency || t1 <= 0 || tn <= 0) continue;
        if (!header) {
            *table_ << "\nthreads=" << threads << " on " << isa
                    << " (built-in pool; wall-clock):  1 thread -> " << threads
                    << " threads, speedup; the same for a memcpy of the input's bytes\n"
                    << "(one slice per thread, the same pool): the memory system's own scaling\n";
            header = true;
        }
        const std::string copy = memcpy_name(w);
        const double c1 = wall_seconds(copy), cn = wall_seconds(threads_name(copy, threads));
        *table_ << pad_right(w.id, id_width + 1) << pad_right(row_name(w), name_width)
                << pad_left(format_time(t1, false), 12) << " ->" << pad_left(format_time(tn, false), 12)
                << pad_left(format("%.2fx", t1 / tn), 9);
        if (c1 > 0 && cn > 0) *table_ << "    memcpy " << pad_left(format("%.2fx", c1 / cn), 6);
        *table_ << '\n';
    }
}

}  // namespace simdax_bench

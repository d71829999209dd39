// CPU detection. Baseline code: compiled without -m flags, so it runs on any
// CPU of the target architecture.
//
// x86: libcpuid 0.6.2 is used only for the raw CPUID dump and the vendor /
// brand strings. Its feature flags are not used: they miss AVX-512 on AMD,
// know nothing of AVX512-FP16/BF16 and never look at XCR0 (docs/dependencies.md).
#include "cpu_features.hpp"

#include <cstdio>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <libcpuid.h>
#if defined(_MSC_VER)
#include <intrin.h>
#endif
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace simdax {

// Each ISA of the ISA table (isa_list.hpp) has its rule below (x86 in
// decode_x86, aarch64 in detect): a new row fails here until its rule is
// written and this count raised with it.
static_assert(SIMDAX_ISA_COUNT == 6, "a new ISA needs its detection rule in cpu_features.cpp");

namespace {

// Appends " name" (or "name" first) to out->features; drops what does not fit
// rather than truncating a name.
void add_feature(CpuInfo* out, const char* name) {
    size_t used = std::strlen(out->features);
    size_t len = std::strlen(name);
    size_t sep = used ? 1 : 0;
    if (used + sep + len + 1 > sizeof(out->features)) return;
    if (sep) out->features[used++] = ' ';
    std::memcpy(out->features + used, name, len + 1);
}

void copy_str(char* dst, size_t cap, const char* src) {
    // Skip the leading blanks some brand strings carry.
    while (*src == ' ') ++src;
    std::snprintf(dst, cap, "%s", src);
}

CpuInfo blank_info() {
    CpuInfo info;
    std::memset(&info, 0, sizeof(info));
    info.isa_ok[SIMDAX_ISA_SCALAR] = true;
    return info;
}

}  // namespace

#if defined(__x86_64__) || defined(_M_X64)

namespace {
inline bool bit(uint32_t reg, int n) { return (reg >> n) & 1u; }

// xgetbv is only legal when CPUID.1:ECX.OSXSAVE is set (else #UD); the caller checks.
uint64_t read_xcr0() {
#if defined(_MSC_VER)
    return _xgetbv(0);
#else
    uint32_t lo, hi;
    // Mnemonic instead of _xgetbv(): the intrinsic would need -mxsave on this
    // baseline TU.
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (static_cast<uint64_t>(hi) << 32) | lo;
#endif
}
}  // namespace

void decode_x86(const X86CpuidBits& b, CpuInfo* out) {
    for (bool& ok : out->isa_ok) ok = false;
    out->isa_ok[SIMDAX_ISA_SCALAR] = true;
    out->features[0] = '\0';

    // A leaf above max_basic_leaf returns garbage (often the highest leaf's
    // data), so its bits are treated as zero.
    const uint32_t ecx1 = b.max_basic_leaf >= 1 ? b.leaf1_ecx : 0;
    const uint32_t edx1 = b.max_basic_leaf >= 1 ? b.leaf1_edx : 0;
    const bool has7 = b.max_basic_leaf >= 7;
    const uint32_t ebx7 = has7 ? b.leaf7_ebx : 0;
    const uint32_t edx7 = has7 ? b.leaf7_edx : 0;
    const uint32_t eax7_1 = has7 && b.leaf7_0_eax >= 1 ? b.leaf7_1_eax : 0;

    const bool sse2 = bit(edx1, 26);
    const bool fma = bit(ecx1, 12), osxsave = bit(ecx1, 27);
    const bool avx = bit(ecx1, 28), f16c = bit(ecx1, 29);
    const bool avx2 = bit(ebx7, 5);
    const bool f = bit(ebx7, 16), dq = bit(ebx7, 17), cd = bit(ebx7, 28);
    const bool bw = bit(ebx7, 30), vl = bit(ebx7, 31);
    const bool fp16 = bit(edx7, 23), bf16 = bit(eax7_1, 5);

    // XCR0: bits 1,2 = XMM/YMM state; bits 5,6,7 = opmask, ZMM_Hi256, Hi16_ZMM.
    const uint64_t xcr0 = osxsave ? b.xcr0 : 0;
    const bool os_ymm = (xcr0 & 0x6) == 0x6;
    const bool os_zmm = (xcr0 & 0xE6) == 0xE6;

    const bool lvl_avx2 = avx && fma && f16c && avx2 && os_ymm;
    const bool lvl_512 = lvl_avx2 && f && dq && cd && bw && vl && os_zmm;
    // The avx512fp16 kernels are compiled with -mavx512fp16 -mavx512bf16.
    const bool lvl_fp16 = lvl_512 && fp16 && bf16;
    out->isa_ok[SIMDAX_ISA_AVX2] = lvl_avx2;
    out->isa_ok[SIMDAX_ISA_AVX512] = lvl_512;
    out->isa_ok[SIMDAX_ISA_AVX512FP16] = lvl_fp16;
    out->avx512bf16 = lvl_512 && bf16;

    // What the CPU reports; the os-* entries say what XCR0 enables.
    const struct {
        bool on;
        const char* name;
    } names[] = {
        {sse2, "sse2"},       {avx, "avx"},         {fma, "fma"},       {f16c, "f16c"},     {avx2, "avx2"},
        {f, "avx512f"},       {cd, "avx512cd"},     {bw, "avx512bw"},   {dq, "avx512dq"},   {vl, "avx512vl"},
        {fp16, "avx512fp16"}, {bf16, "avx512bf16"}, {os_ymm, "os-ymm"}, {os_zmm, "os-zmm"},
    };
    for (const auto& n : names)
        if (n.on) add_feature(out, n.name);

    // "GenuineIntel" in EBX, EDX, ECX.
    const bool intel =
        b.vendor_ebx == 0x756e6547u && b.vendor_edx == 0x49656e69u && b.vendor_ecx == 0x6c65746eu;
    out->interleave_streams = intel;
    out->carry_row_passes = intel;
}

namespace {
CpuInfo detect() {
    CpuInfo info = blank_info();
    if (!cpuid_present()) return info;
    // Only the calling thread's CPU is read. cpuid_get_all_raw_data would
    // pin the thread to one CPU and leave it there (docs/dependencies.md).
    static cpu_raw_data_t raw;  // ~3 KB; only touched inside the one-time init
    if (cpuid_get_raw_data(&raw) != 0) return info;

    X86CpuidBits b{};
    b.max_basic_leaf = raw.basic_cpuid[0][EAX];
    b.vendor_ebx = raw.basic_cpuid[0][EBX];
    b.vendor_edx = raw.basic_cpuid[0][EDX];
    b.vendor_ecx = raw.basic_cpuid[0][ECX];
    b.leaf1_ecx = raw.basic_cpuid[1][ECX];
    b.leaf1_edx = raw.basic_cpuid[1][EDX];
    if (b.max_basic_leaf >= 7) {
        b.leaf7_0_eax = raw.basic_cpuid[7][EAX];
        b.leaf7_ebx = raw.basic_cpuid[7][EBX];
        b.leaf7_ecx = raw.basic_cpuid[7][ECX];
        b.leaf7_edx = raw.basic_cpuid[7][EDX];
        if (b.leaf7_0_eax >= 1) {
            // libcpuid 0.6.2 stores leaf 7 subleaf 0 only.
            uint32_t regs[4] = {7, 0, 1, 0};
            cpu_exec_cpuid_ext(regs);
            b.leaf7_1_eax = regs[EAX];
        }
    }
    if (b.max_basic_leaf >= 1 && bit(b.leaf1_ecx, 27)) b.xcr0 = read_xcr0();
    decode_x86(b, &info);

    static cpu_id_t id;
    if (cpu_identify(&raw, &id) == 0) {
        copy_str(info.vendor, sizeof(info.vendor), id.vendor_str);
        copy_str(info.brand, sizeof(info.brand), id.brand_str);
    } else {
        // Unknown vendors can make cpu_identify fail; leaf 0 still names it.
        char v[13];
        std::memcpy(v + 0, &b.vendor_ebx, 4);
        std::memcpy(v + 4, &b.vendor_edx, 4);
        std::memcpy(v + 8, &b.vendor_ecx, 4);
        v[12] = '\0';
        copy_str(info.vendor, sizeof(info.vendor), v);
    }
    return info;
}
}  // namespace

#elif defined(__aarch64__)

namespace {
#if defined(__linux__)
// Values from the Linux arm64 uapi <asm/hwcap.h>, in case the libc headers are old.
#ifndef HWCAP_FPHP
#define HWCAP_FPHP (1 << 9)
#endif
#ifndef HWCAP_ASIMDHP
#define HWCAP_ASIMDHP (1 << 10)
#endif
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif

// The value after "key<spaces>: " on the first matching /proc/cpuinfo line.
bool cpuinfo_field(const char* key, char* val, size_t cap) {
    std::FILE* f = std::fopen("/proc/cpuinfo", "r");
    if (!f) return false;
    char line[256];
    bool found = false;
    const size_t klen = std::strlen(key);
    while (!found && std::fgets(line, sizeof(line), f)) {
        if (std::strncmp(line, key, klen) != 0) continue;
        const char* colon = std::strchr(line + klen, ':');
        if (!colon) continue;
        const char* p = colon + 1;
        while (*p == ' ' || *p == '\t') ++p;
        std::snprintf(val, cap, "%s", p);
        val[std::strcspn(val, "\r\n")] = '\0';
        found = val[0] != '\0';
    }
    std::fclose(f);
    return found;
}
#endif

CpuInfo detect() {
    CpuInfo info = blank_info();
    copy_str(info.brand, sizeof(info.brand), "aarch64");
#if defined(__linux__)
    const unsigned long hw = getauxval(AT_HWCAP);
    const bool asimd = hw & HWCAP_ASIMD;
    const bool asimdhp = hw & HWCAP_ASIMDHP, fphp = hw & HWCAP_FPHP;
    info.isa_ok[SIMDAX_ISA_NEON] = asimd;
    // The neonfp16 kernels use FP16 vector and scalar arithmetic.
    info.isa_ok[SIMDAX_ISA_NEONFP16] = asimd && asimdhp && fphp;
    if (asimd) add_feature(&info, "asimd");
    if (asimdhp) add_feature(&info, "asimdhp");
    if (fphp) add_feature(&info, "fphp");

    char impl[32], part[32];
    if (cpuinfo_field("CPU implementer", impl, sizeof(impl)))
        copy_str(info.vendor, sizeof(info.vendor), impl);
    if (cpuinfo_field("CPU part", part, sizeof(part)))
        std::snprintf(info.brand, sizeof(info.brand), "aarch64 (CPU part %s)", part);
#else
    // AdvSIMD is mandatory in the AArch64 ABIs; FP16 needs an OS query we
    // do not implement, so it stays off.
    info.isa_ok[SIMDAX_ISA_NEON] = true;
    add_feature(&info, "asimd");
#endif
    return info;
}
}  // namespace

#else

namespace {
CpuInfo detect() { return blank_info(); }
}  // namespace

#endif

const CpuInfo& cpu_info() {
    // C++11 guarantees one thread-safe initialisation of a function-local static.
    static const CpuInfo info = detect();
    return info;
}

}  // namespace simdax

// CPU detection: synthetic CPUID/XCR0 inputs for the x86 decision rules, plus
// a live cross-check against GCC's own detector (__builtin_cpu_supports).
#include "cpu_features.hpp"
#include "tables.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace simdax {
namespace {

bool has_feature(const CpuInfo& info, const char* name) {
    // Whole-word match, so "avx512f" does not match "avx512fp16".
    const std::string list = std::string(" ") + info.features + " ";
    return list.find(std::string(" ") + name + " ") != std::string::npos;
}

TEST(CpuFeatures, SameObjectFromEveryThread) {
    // The threads may race the first detection (when this test runs first).
    std::vector<const CpuInfo*> seen(4, nullptr);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&seen, i] { seen[i] = &cpu_info(); });
    for (auto& t : threads) t.join();
    for (const CpuInfo* p : seen) EXPECT_EQ(p, &cpu_info());
}

// Each ISA's kernels read the facts dispatch decoded (kernels/kernel_table.hpp).
TEST(CpuFeatures, KernelTablesCarryTheFacts) {
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const IsaKernels* k = isa_kernels(simdax_isa(i));
        if (!k || !k->facts) continue;
        EXPECT_EQ(k->facts->interleave_streams, cpu_info().interleave_streams)
            << simdax_isa_name(simdax_isa(i));
        EXPECT_EQ(k->facts->carry_row_passes, cpu_info().carry_row_passes) << simdax_isa_name(simdax_isa(i));
        EXPECT_EQ(k->facts->avx512bf16, cpu_info().avx512bf16) << simdax_isa_name(simdax_isa(i));
    }
}

TEST(CpuFeatures, ScalarAlwaysSupported) {
    EXPECT_TRUE(cpu_info().isa_ok[SIMDAX_ISA_SCALAR]);
    // The strings are always terminated inside their buffers.
    EXPECT_LT(std::strlen(cpu_info().vendor), sizeof(cpu_info().vendor));
    EXPECT_LT(std::strlen(cpu_info().brand), sizeof(cpu_info().brand));
    EXPECT_LT(std::strlen(cpu_info().features), sizeof(cpu_info().features));
}

#if defined(__x86_64__)

constexpr uint32_t B(int n) { return 1u << n; }

// Leaf 1 ECX: FMA 12, OSXSAVE 27, AVX 28, F16C 29. EDX: SSE2 26.
constexpr uint32_t kL1Ecx = B(12) | B(27) | B(28) | B(29);
constexpr uint32_t kL1Edx = B(26);
// Leaf 7 EBX: AVX2 5; AVX-512 F 16, DQ 17, CD 28, BW 30, VL 31.
constexpr uint32_t kL7Avx2 = B(5);
constexpr uint32_t kL7Avx512 = B(5) | B(16) | B(17) | B(28) | B(30) | B(31);

// Leaf 0's vendor string, as the CPU returns it in EBX, EDX, ECX.
void set_vendor(X86CpuidBits& b, const char (&name)[13]) {
    std::memcpy(&b.vendor_ebx, name + 0, 4);
    std::memcpy(&b.vendor_edx, name + 4, 4);
    std::memcpy(&b.vendor_ecx, name + 8, 4);
}

X86CpuidBits sapphire_rapids() {
    X86CpuidBits b{};
    b.max_basic_leaf = 0x20;
    set_vendor(b, "GenuineIntel");
    b.leaf1_ecx = kL1Ecx;
    b.leaf1_edx = kL1Edx;
    b.leaf7_0_eax = 2;
    b.leaf7_ebx = kL7Avx512;
    b.leaf7_edx = B(23);   // AVX512-FP16
    b.leaf7_1_eax = B(5);  // AVX512-BF16
    b.xcr0 = 0x602e7;      // x87 SSE AVX opmask ZMM PKRU AMX
    return b;
}

X86CpuidBits haswell() {
    X86CpuidBits b{};
    b.max_basic_leaf = 0xd;
    b.leaf1_ecx = kL1Ecx;
    b.leaf1_edx = kL1Edx;
    b.leaf7_ebx = kL7Avx2;
    b.xcr0 = 0x7;
    return b;
}

CpuInfo decode(const X86CpuidBits& b) {
    CpuInfo info;
    std::memset(&info, 0xff, sizeof(info));  // decode_x86 must overwrite all it owns
    decode_x86(b, &info);
    return info;
}

void expect_levels(const CpuInfo& info, bool avx2, bool avx512, bool fp16) {
    EXPECT_TRUE(info.isa_ok[SIMDAX_ISA_SCALAR]);
    EXPECT_EQ(info.isa_ok[SIMDAX_ISA_AVX2], avx2);
    EXPECT_EQ(info.isa_ok[SIMDAX_ISA_AVX512], avx512);
    EXPECT_EQ(info.isa_ok[SIMDAX_ISA_AVX512FP16], fp16);
    EXPECT_FALSE(info.isa_ok[SIMDAX_ISA_NEON]);
    EXPECT_FALSE(info.isa_ok[SIMDAX_ISA_NEONFP16]);
}

// The CPU cpu with each bit of its register reg cleared alone has the
// levels given.
void expect_levels_without(const X86CpuidBits& cpu, uint32_t X86CpuidBits::*reg,
                           std::initializer_list<int> bits, bool avx2, bool avx512, bool fp16) {
    for (int n : bits) {
        X86CpuidBits b = cpu;
        b.*reg &= ~B(n);
        SCOPED_TRACE(n);
        expect_levels(decode(b), avx2, avx512, fp16);
    }
}

TEST(CpuFeaturesDecode, SapphireRapidsHasEveryLevel) {
    const CpuInfo info = decode(sapphire_rapids());
    expect_levels(info, true, true, true);
    EXPECT_STREQ(info.features,
                 "sse2 avx fma f16c avx2 avx512f avx512cd avx512bw avx512dq avx512vl "
                 "avx512fp16 avx512bf16 os-ymm os-zmm");
}

TEST(CpuFeaturesDecode, HaswellIsAvx2Only) {
    const CpuInfo info = decode(haswell());
    expect_levels(info, true, false, false);
    EXPECT_STREQ(info.features, "sse2 avx fma f16c avx2 os-ymm");
    EXPECT_FALSE(info.avx512bf16);
}

TEST(CpuFeaturesDecode, Zen4HasAvx512ButNoFp16) {
    // Ryzen 5 7600X: libcpuid 0.6.2 reports no AVX-512 here; the raw bits do.
    X86CpuidBits b{};
    b.max_basic_leaf = 0x10;
    set_vendor(b, "AuthenticAMD");
    b.leaf1_ecx = 0x7ef8320b;
    b.leaf1_edx = 0x178bfbff;
    b.leaf7_0_eax = 1;
    b.leaf7_ebx = 0xf1bf97a9;
    b.leaf7_ecx = 0x00405fce;
    b.leaf7_edx = 0x10000010;
    b.leaf7_1_eax = B(5);  // Zen 4 has AVX512-BF16, but FP16 is missing
    b.xcr0 = 0x2e7;
    const CpuInfo info = decode(b);
    expect_levels(info, true, true, false);
    EXPECT_TRUE(has_feature(info, "avx512vl"));
    EXPECT_TRUE(has_feature(info, "avx512bf16"));
    EXPECT_TRUE(info.avx512bf16);  // usable at the avx512 level
    EXPECT_FALSE(has_feature(info, "avx512fp16"));
}

TEST(CpuFeaturesDecode, InterleavedStreamsOnIntelOnly) {
    EXPECT_TRUE(decode(sapphire_rapids()).interleave_streams);
    EXPECT_TRUE(decode(sapphire_rapids()).carry_row_passes);
    X86CpuidBits b = sapphire_rapids();
    set_vendor(b, "AuthenticAMD");
    EXPECT_FALSE(decode(b).interleave_streams);
    EXPECT_FALSE(decode(b).carry_row_passes);
    set_vendor(b, "GenuineIotel");  // one register off
    EXPECT_FALSE(decode(b).interleave_streams);
    b = sapphire_rapids();
    std::swap(b.vendor_edx, b.vendor_ecx);  // Intel's words, EDX and ECX swapped
    EXPECT_FALSE(decode(b).interleave_streams);
    EXPECT_FALSE(decode(X86CpuidBits{}).interleave_streams);
}

TEST(CpuFeaturesDecode, Fp16NeedsBf16Too) {
    X86CpuidBits b = sapphire_rapids();
    b.leaf7_1_eax = 0;
    expect_levels(decode(b), true, true, false);
    // Subleaf 1 is not enumerated: its EAX must be ignored.
    b = sapphire_rapids();
    b.leaf7_0_eax = 0;
    expect_levels(decode(b), true, true, false);
}

TEST(CpuFeaturesDecode, Avx512NeedsEveryGroupMember) {
    expect_levels_without(sapphire_rapids(), &X86CpuidBits::leaf7_ebx, {16, 17, 28, 30, 31}, true, false,
                          false);
}

TEST(CpuFeaturesDecode, OsMaskedAvx512FallsBackToAvx2) {
    X86CpuidBits b = sapphire_rapids();
    b.xcr0 = 0x7;  // kernel saves only x87/SSE/AVX state (e.g. AVX-512 disabled)
    const CpuInfo info = decode(b);
    expect_levels(info, true, false, false);
    EXPECT_TRUE(has_feature(info, "avx512f"));  // the CPU still reports it
    EXPECT_TRUE(has_feature(info, "os-ymm"));
    EXPECT_FALSE(has_feature(info, "os-zmm"));
}

TEST(CpuFeaturesDecode, OsMaskedAvxIsScalarOnly) {
    X86CpuidBits b = sapphire_rapids();
    b.xcr0 = 0x3;  // SSE state only
    expect_levels(decode(b), false, false, false);
}

TEST(CpuFeaturesDecode, NoOsxsaveIsScalarOnly) {
    // AVX bits set but OSXSAVE clear: the OS never enabled XSAVE, so XCR0
    // (even if the caller filled it in) must not be trusted.
    X86CpuidBits b = sapphire_rapids();
    b.leaf1_ecx &= ~B(27);
    const CpuInfo info = decode(b);
    expect_levels(info, false, false, false);
    EXPECT_TRUE(has_feature(info, "avx"));
    EXPECT_FALSE(has_feature(info, "os-ymm"));
}

TEST(CpuFeaturesDecode, MissingF16cMeansNoAvx2) {
    X86CpuidBits b = haswell();
    b.leaf1_ecx &= ~B(29);
    expect_levels(decode(b), false, false, false);
    b = sapphire_rapids();
    b.leaf1_ecx &= ~B(29);
    expect_levels(decode(b), false, false, false);
}

TEST(CpuFeaturesDecode, MissingFmaOrAvxMeansNoAvx2) {
    expect_levels_without(haswell(), &X86CpuidBits::leaf1_ecx, {12, 28}, false, false, false);
}

TEST(CpuFeaturesDecode, Leaf7BeyondMaxBasicLeafIsIgnored) {
    X86CpuidBits b = sapphire_rapids();
    b.max_basic_leaf = 6;
    const CpuInfo info = decode(b);
    expect_levels(info, false, false, false);
    EXPECT_FALSE(has_feature(info, "avx2"));
    EXPECT_TRUE(has_feature(info, "avx"));
}

TEST(CpuFeaturesDecode, EmptyCpuidIsScalarOnly) {
    const CpuInfo info = decode(X86CpuidBits{});
    expect_levels(info, false, false, false);
    EXPECT_STREQ(info.features, "");
}

// GCC's libgcc detector also checks XCR0, so both must agree on any CPU
// (including qemu's emulated ones). clang 14's __builtin_cpu_supports knows
// neither f16c nor avx512fp16/avx512bf16: the comparison is GCC's.
#if !defined(__clang__)
TEST(CpuFeaturesLive, MatchesBuiltinCpuSupports) {
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                      __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                        __builtin_cpu_supports("avx512vl");
    const bool fp16 = avx512 && __builtin_cpu_supports("avx512fp16") && __builtin_cpu_supports("avx512bf16");
    const CpuInfo& info = cpu_info();
    expect_levels(info, avx2, avx512, fp16);
    EXPECT_EQ(has_feature(info, "sse2"), static_cast<bool>(__builtin_cpu_supports("sse2")));
    EXPECT_NE(info.vendor[0], '\0');
    EXPECT_EQ(info.interleave_streams, __builtin_cpu_is("intel") != 0);
}
#endif

#elif defined(__aarch64__)

TEST(CpuFeaturesLive, NeonOnAarch64) {
    const CpuInfo& info = cpu_info();
    EXPECT_TRUE(info.isa_ok[SIMDAX_ISA_NEON]);
    EXPECT_TRUE(has_feature(info, "asimd"));
    EXPECT_FALSE(info.isa_ok[SIMDAX_ISA_AVX2]);
    EXPECT_FALSE(info.isa_ok[SIMDAX_ISA_AVX512]);
    EXPECT_FALSE(info.isa_ok[SIMDAX_ISA_AVX512FP16]);
    EXPECT_EQ(info.isa_ok[SIMDAX_ISA_NEONFP16], has_feature(info, "asimdhp") && has_feature(info, "fphp"));
}

#endif

}  // namespace
}  // namespace simdax

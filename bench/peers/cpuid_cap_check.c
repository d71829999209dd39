// Sanity check of cpuid_cap.so (compare_peers.sh runs it when it builds the
// library): prints the CPUID leaf 7 words and the AVX-512/AMX/AVX-VNNI bits
// set in them, in the main thread and in a new thread.
//   cpuid_cap_check                  print
//   cpuid_cap_check --expect-capped  print; exit 1 if a capped bit is set
//   cpuid_cap_check --crash          a NULL store: must die of SIGSEGV
//   cpuid_cap_check --chain          installs a SIGSEGV handler (exit 3),
//                                    checks the cap still holds, then the
//                                    NULL store: must exit 3
#define _GNU_SOURCE
#include <cpuid.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// The bits cpuid_cap.c clears: leaf 7.0 EBX, ECX, EDX, leaf 7.1 EAX, EDX.
static const unsigned kCapped[5] = {
    1u << 16 | 1u << 17 | 1u << 21 | 1u << 26 | 1u << 27 | 1u << 28 | 1u << 30 | 1u << 31,
    1u << 1 | 1u << 6 | 1u << 11 | 1u << 12 | 1u << 14,
    1u << 2 | 1u << 3 | 1u << 8 | 1u << 22 | 1u << 23 | 1u << 24 | 1u << 25,
    1u << 4 | 1u << 5,
    1u << 19,
};

static void* capped_bits(void* out) {
    unsigned* w = out;  // 7.0 ebx ecx edx, 7.1 eax edx
    unsigned a, b, c, d;
    __cpuid_count(7, 0, a, b, c, d);
    w[0] = b, w[1] = c, w[2] = d;
    __cpuid_count(7, 1, a, b, c, d);
    w[3] = a, w[4] = d;
    return NULL;
}

static int report(const char* where) {
    unsigned w[5];
    if (strcmp(where, "main thread") == 0) {
        capped_bits(w);
    } else {
        pthread_t t;
        pthread_create(&t, NULL, capped_bits, w);
        pthread_join(t, NULL);
    }
    printf(
        "%s: leaf 7.0 ebx=%08x ecx=%08x edx=%08x, 7.1 eax=%08x edx=%08x; avx2=%u avx512f=%u "
        "avx512bw=%u avx512vl=%u; capped bits set: %08x %08x %08x %08x %08x\n",
        where, w[0], w[1], w[2], w[3], w[4], (w[0] >> 5) & 1, (w[0] >> 16) & 1, (w[0] >> 30) & 1, w[0] >> 31,
        w[0] & kCapped[0], w[1] & kCapped[1], w[2] & kCapped[2], w[3] & kCapped[3], w[4] & kCapped[4]);
    int set = 0;
    for (int i = 0; i < 5; ++i) set |= (w[i] & kCapped[i]) != 0;
    return set;
}

static int* volatile null_ptr;  // the compiler cannot tell it is NULL

static void on_segv(int sig) {
    (void)sig;
    static const char msg[] = "cpuid_cap_check: the program's SIGSEGV handler ran\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(4);
    _exit(3);
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "--chain") == 0) {
        struct sigaction act;
        memset(&act, 0, sizeof act);
        act.sa_handler = on_segv;
        sigaction(SIGSEGV, &act, NULL);
    }
    int set = report("main thread") | report("new thread");
    if (strcmp(mode, "--crash") == 0 || strcmp(mode, "--chain") == 0) {
        fflush(stdout);
        *null_ptr = 1;  // a real SIGSEGV
        return 2;
    }
    if (strcmp(mode, "--expect-capped") == 0 && set) {
        fprintf(stderr, "cpuid_cap_check: CPUID still reports AVX-512 (or AMX, AVX-VNNI) bits\n");
        return 1;
    }
    return 0;
}

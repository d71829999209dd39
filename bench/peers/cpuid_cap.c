// cpuid_cap.so: an LD_PRELOAD library that makes a process see an AVX2-only
// CPU. ONNX Runtime (MLAS), OpenVINO's CPU plugin and XNNPACK pick their
// kernels from CPUID and have no ISA knob, so on an AVX-512 machine
// `compare_peers.sh --isa avx2` would time their AVX-512 kernels against
// simdax's AVX2 ones. With PEERS_CPUID_CAP=avx2 this library turns on Linux
// CPUID faulting (arch_prctl ARCH_SET_CPUID 0: every cpuid instruction of
// the thread raises SIGSEGV; inherited by new threads and fork, reset by
// execve, where the preload runs again), and its SIGSEGV handler executes
// the real cpuid, clears the AVX-512, AMX, AVX-VNNI and AVX10 bits and
// resumes after the instruction: the CPU then looks like a Haswell / Zen 3
// class AVX2+FMA+F16C machine. Unset: the library does nothing; any other
// value: an error message, nothing else.
//
// Every other SIGSEGV goes to the handler the program installed, or to the
// default action. The program's later sigaction()/signal() calls for
// SIGSEGV are recorded as that chained handler (and reported back as the
// old action) while ours stays installed. Not covered: cpuid executed
// before this library's constructor (ld.so's own detection, constructors of
// libraries linked to the executable), threads created before it, and
// SIGSEGV handlers installed by a raw rt_sigaction system call.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

typedef int (*sigaction_fn)(int, const struct sigaction*, struct sigaction*);
typedef sighandler_t (*signal_fn)(int, sighandler_t);

static sigaction_fn real_sigaction;
static signal_fn real_signal;
static volatile sig_atomic_t active;  // our handler is installed, faulting on
// The program's SIGSEGV action: two slots, the one in use published
// atomically, so the handler never reads a half-written one; writers take
// `lock` with every signal blocked.
static struct sigaction chained[2];
static int chained_slot;
static int lock;

// arch_prctl without errno: the handler calls it.
static long set_cpuid(long on) {
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"((long)SYS_arch_prctl), "D"((long)ARCH_SET_CPUID), "S"(on)
                     : "rcx", "r11", "memory");
    return ret;
}

// The bits an AVX2-only CPU lacks.
static void cap_avx2(unsigned leaf, unsigned sub, unsigned r[4]) {  // r: eax ebx ecx edx
    if (leaf == 7 && sub == 0) {
        r[1] &= ~(1u << 16 | 1u << 17 | 1u << 21 | 1u << 26 | 1u << 27 | 1u << 28 | 1u << 30 | 1u << 31);
        r[2] &= ~(1u << 1 | 1u << 6 | 1u << 11 | 1u << 12 | 1u << 14);
        r[3] &= ~(1u << 2 | 1u << 3 | 1u << 8 | 1u << 22 | 1u << 23 | 1u << 24 | 1u << 25);
    } else if (leaf == 7 && sub == 1) {
        r[0] &= ~(1u << 4 | 1u << 5);
        r[3] &= ~(1u << 19);
    }
}

static const struct sigaction* chained_action(void) {
    return &chained[__atomic_load_n(&chained_slot, __ATOMIC_ACQUIRE)];
}

static void set_chained(const struct sigaction* act) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE)) {}
    int next = 1 - chained_slot;
    chained[next] = *act;
    __atomic_store_n(&chained_slot, next, __ATOMIC_RELEASE);
    __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void default_action(int sig, siginfo_t* info) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    real_sigaction(sig, &dfl, NULL);
    // A fault re-executes the instruction on return and dies; a SIGSEGV
    // sent by kill() is sent again (blocked until this handler returns).
    if (info->si_code <= 0) raise(sig);
}

static void on_segv(int sig, siginfo_t* info, void* ctx) {
    ucontext_t* uc = (ucontext_t*)ctx;
    greg_t* g = uc->uc_mcontext.gregs;
    const unsigned char* ip = (const unsigned char*)g[REG_RIP];
    // A faulting cpuid is a #GP: si_code SI_KERNEL, no address, and the
    // instruction was fetched, so its bytes are readable (0F first: at
    // least 2 bytes).
    if (info->si_code == SI_KERNEL && !info->si_addr && ip[0] == 0x0F && ip[1] == 0xA2) {
        unsigned leaf = (unsigned)g[REG_RAX], sub = (unsigned)g[REG_RCX], r[4];
        set_cpuid(1);
        __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
        set_cpuid(0);
        cap_avx2(leaf, sub, r);
        g[REG_RAX] = r[0];
        g[REG_RBX] = r[1];
        g[REG_RCX] = r[2];
        g[REG_RDX] = r[3];
        g[REG_RIP] += 2;
        return;
    }
    struct sigaction h = *chained_action();
    if (h.sa_handler == SIG_DFL || (h.sa_handler == SIG_IGN && info->si_code > 0)) {
        default_action(sig, info);  // the kernel ignores no SIGSEGV fault either
        return;
    }
    if (h.sa_handler == SIG_IGN) return;
    if (h.sa_flags & SA_RESETHAND) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        set_chained(&dfl);
    }
    // The mask the kernel would have set for the program's handler.
    sigset_t mask;
    sigorset(&mask, &uc->uc_sigmask, &h.sa_mask);
    if (h.sa_flags & SA_NODEFER)
        sigdelset(&mask, sig);
    else
        sigaddset(&mask, sig);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (h.sa_flags & SA_SIGINFO)
        h.sa_sigaction(sig, info, ctx);
    else
        h.sa_handler(sig);
}

// Also called before our constructor (by earlier constructors): resolved
// on first use.
static sigaction_fn resolve(void) {
    if (!real_sigaction) real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
    return real_sigaction;
}

int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
    if (!resolve()) return -1;
    if (sig != SIGSEGV || !active) return real_sigaction(sig, act, old);
    struct sigaction prev = *chained_action();
    if (act) set_chained(act);
    if (old) *old = prev;
    return 0;
}

int __sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
    return sigaction(sig, act, old);
}

sighandler_t signal(int sig, sighandler_t handler) {
    if (sig != SIGSEGV || !active) {
        if (!real_signal) real_signal = (signal_fn)dlsym(RTLD_NEXT, "signal");
        return real_signal ? real_signal(sig, handler) : SIG_ERR;
    }
    // glibc's signal(): BSD semantics.
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, sig);
    act.sa_flags = SA_RESTART;
    if (sigaction(sig, &act, &old) < 0) return SIG_ERR;
    return old.sa_handler;
}

__attribute__((constructor)) static void cpuid_cap_init(void) {
    const char* cap = getenv("PEERS_CPUID_CAP");
    if (!cap || !*cap) return;
    if (strcmp(cap, "avx2") != 0) {
        fprintf(stderr, "cpuid_cap: PEERS_CPUID_CAP=%s is not a known cap (avx2); CPUID not capped\n", cap);
        return;
    }
    if (!resolve()) {
        fprintf(stderr, "cpuid_cap: sigaction not found; CPUID not capped\n");
        return;
    }
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_sigaction = on_segv;
    act.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&act.sa_mask);
    if (real_sigaction(SIGSEGV, &act, &old) != 0) {
        perror("cpuid_cap: sigaction");
        return;
    }
    set_chained(&old);
    if (set_cpuid(0) != 0) {
        fprintf(stderr, "cpuid_cap: arch_prctl(ARCH_SET_CPUID, 0) failed; CPUID not capped\n");
        real_sigaction(SIGSEGV, &old, NULL);
        return;
    }
    active = 1;
}

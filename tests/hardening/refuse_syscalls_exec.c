/* refuse_syscalls_exec ENOSYS|EPERM NAME[,NAME...] PROGRAM ARGS...: runs PROGRAM as a kernel
 * without those system calls ("ENOSYS": a kernel built without Landlock, or one before openat2,
 * Linux 5.6) or a container's seccomp profile that refuses them ("EPERM") would: a seccomp
 * filter answers each named call with that errno and lets every other call through. NAME is
 * "landlock" (its three calls) or "openat2". The filter is inherited by every child PROGRAM
 * starts. Installing it needs no_new_privs or CAP_SYS_ADMIN; this sets no_new_privs only when it
 * lacks the latter, so that the probe's own no_new_privs handling is what a test sees. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The numbers of the calls added since Linux 5.1 are the same on every architecture. */
#define NR_OPENAT2 437
#define NR_LANDLOCK_CREATE_RULESET 444
#define NR_LANDLOCK_ADD_RULE 445
#define NR_LANDLOCK_RESTRICT_SELF 446

#if defined(__x86_64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_AARCH64
#else
#error "add this machine's AUDIT_ARCH_*"
#endif

enum { kMaxCalls = 8 };

/* Adds the numbers NAME stands for to calls[]; returns how many there are now, or -1. */
static int add_calls(const char* name, unsigned calls[kMaxCalls], int count) {
    if (strcmp(name, "openat2") == 0 && count < kMaxCalls) {
        calls[count++] = NR_OPENAT2;
        return count;
    }
    if (strcmp(name, "landlock") == 0 && count + 3 <= kMaxCalls) {
        calls[count++] = NR_LANDLOCK_CREATE_RULESET;
        calls[count++] = NR_LANDLOCK_ADD_RULE;
        calls[count++] = NR_LANDLOCK_RESTRICT_SELF;
        return count;
    }
    return -1;
}

int main(int argc, char** argv) {
    if (argc < 4 || (strcmp(argv[1], "ENOSYS") != 0 && strcmp(argv[1], "EPERM") != 0)) {
        fprintf(stderr,
                "usage: refuse_syscalls_exec ENOSYS|EPERM NAME[,NAME...] PROGRAM [ARGS...]\n");
        return 2;
    }
    const unsigned answer = strcmp(argv[1], "ENOSYS") == 0 ? ENOSYS : EPERM;
    unsigned calls[kMaxCalls];
    int count = 0;
    char names[256];
    snprintf(names, sizeof names, "%s", argv[2]);
    for (char* name = strtok(names, ","); name != NULL; name = strtok(NULL, ",")) {
        count = add_calls(name, calls, count);
        if (count < 0) {
            fprintf(stderr, "refuse_syscalls_exec: unknown call name %s\n", name);
            return 2;
        }
    }
    /* Load the architecture (others pass), then the number: each named call jumps to the
     * refusal at the end, every other one falls through to the allow before it. */
    struct sock_filter filter[5 + kMaxCalls];
    int n = 0;
    filter[n++] =
        (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0);
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    filter[n++] =
        (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    for (int i = 0; i < count; ++i) {
        const unsigned char to_refusal = (unsigned char)(count - i);
        filter[n++] =
            (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, calls[i], to_refusal, 0);
    }
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                               SECCOMP_RET_ERRNO | (answer & SECCOMP_RET_DATA));
    struct sock_fprog program = {(unsigned short)n, filter};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
        if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
            fprintf(stderr, "refuse_syscalls_exec: seccomp: %s\n", strerror(errno));
            return 2;
        }
    }
    execv(argv[3], argv + 3);
    fprintf(stderr, "refuse_syscalls_exec: %s: %s\n", argv[3], strerror(errno));
    return 127;
}

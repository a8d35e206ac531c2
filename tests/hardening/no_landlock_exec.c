/* no_landlock_exec PROGRAM ARGS...: runs PROGRAM as a kernel without Landlock would: a seccomp
 * filter answers landlock_create_ruleset, landlock_add_rule and landlock_restrict_self with
 * ENOSYS (what a kernel built without CONFIG_SECURITY_LANDLOCK answers), and lets every other
 * call through. The filter is inherited by every child PROGRAM starts. Installing it needs
 * no_new_privs or CAP_SYS_ADMIN; this sets no_new_privs only when it lacks the latter, so that
 * the probe's own no_new_privs handling is what the test sees. */
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

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

#if defined(__x86_64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_AARCH64
#else
#error "add this machine's AUDIT_ARCH_*"
#endif

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: no_landlock_exec PROGRAM [ARGS...]\n");
        return 2;
    }
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_add_rule, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_restrict_self, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
    };
    struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
        if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
            fprintf(stderr, "no_landlock_exec: seccomp: %s\n", strerror(errno));
            return 2;
        }
    }
    execv(argv[1], argv + 1);
    fprintf(stderr, "no_landlock_exec: %s: %s\n", argv[1], strerror(errno));
    return 127;
}

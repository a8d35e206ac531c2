/* no_openat2_exec ERRNO PROGRAM ARGS...: runs PROGRAM as a kernel without openat2 (ERRNO
 * "ENOSYS": Linux before 5.6) or a container's seccomp profile that refuses it ("EPERM") would:
 * a seccomp filter answers openat2 with that errno and lets every other call through. The
 * filter is inherited by every child PROGRAM starts. Installing it needs no_new_privs or
 * CAP_SYS_ADMIN; this sets no_new_privs only when it lacks the latter. */
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

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

#if defined(__x86_64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_AARCH64
#else
#error "add this machine's AUDIT_ARCH_*"
#endif

int main(int argc, char** argv) {
    if (argc < 3 || (strcmp(argv[1], "ENOSYS") != 0 && strcmp(argv[1], "EPERM") != 0)) {
        fprintf(stderr, "usage: no_openat2_exec ENOSYS|EPERM PROGRAM [ARGS...]\n");
        return 2;
    }
    const unsigned answer = strcmp(argv[1], "ENOSYS") == 0 ? ENOSYS : EPERM;
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (answer & SECCOMP_RET_DATA)),
    };
    struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
        if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
            fprintf(stderr, "no_openat2_exec: seccomp: %s\n", strerror(errno));
            return 2;
        }
    }
    execv(argv[2], argv + 2);
    fprintf(stderr, "no_openat2_exec: %s: %s\n", argv[2], strerror(errno));
    return 127;
}

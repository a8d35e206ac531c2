// The least any program could spend to do what a probe run has to do, so that bench/run.sh can
// say how much of a run is the probe's own work and how much the floor under it:
//
//   floor reads LIST     read every file and list every directory LIST names ("f PATH" or
//                        "d PATH" lines, absolute resolved paths; bench/read_set.py writes it
//                        from an strace of the probe), each file with one open, reads until a
//                        short read, one close, and each parent directory opened once
//   floor worker LIB     fork one child that dlopens LIB (libibverbs), lists its devices with
//                        ibv_get_device_list and writes the count back through a pipe: the one
//                        worker child every live run starts, with nothing else
//
// Nothing is checked beyond what keeps the figures honest (a failed open or read exits 1, so a
// floor that skipped work cannot pass as fast).
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kMaxDirs = 512, kBufBytes = 1 << 16 };

struct Dir {
    char* path;
    int fd;
};

static struct Dir dirs[kMaxDirs];
static int dir_count;
static char buffer[kBufBytes];

static int parent_fd(char* path, const char** base) {
    char* slash = strrchr(path, '/');
    if (!slash || slash == path) {
        *base = path;
        return AT_FDCWD;
    }
    *slash = '\0';
    *base = slash + 1;
    // Newest first: the probe reads a directory's files together, so the last one opened is
    // nearly always the one asked for, and a real-size root's hundreds of directories cost no
    // scan the probe itself would not make.
    for (int i = dir_count - 1; i >= 0; --i)
        if (strcmp(dirs[i].path, path) == 0) return dirs[i].fd;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return fd;
    if (dir_count == kMaxDirs) {  // full: the oldest gives up its place (and its descriptor)
        close(dirs[0].fd);
        free(dirs[0].path);
        memmove(dirs, dirs + 1, (kMaxDirs - 1) * sizeof dirs[0]);
        --dir_count;
    }
    dirs[dir_count].path = strdup(path);
    dirs[dir_count].fd = fd;
    ++dir_count;
    return fd;
}

static int read_file(int dirfd, const char* name) {
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    ssize_t got;
    do {
        got = read(fd, buffer, sizeof buffer);
    } while (got == (ssize_t)sizeof buffer);
    close(fd);
    return got < 0 ? -1 : 0;
}

static int list_dir(int dirfd, const char* name) {
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    long got;
    while ((got = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
    }
    close(fd);
    return got < 0 ? -1 : 0;
}

static int reads(const char* list_path) {
    FILE* list = fopen(list_path, "re");
    if (!list) {
        perror(list_path);
        return 2;
    }
    char line[4096];
    int failed = 0;
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = '\0';
        if (strlen(line) < 3 || line[1] != ' ') continue;
        const char* base = NULL;
        int dirfd = parent_fd(line + 2, &base);
        int rc = dirfd < 0 && dirfd != AT_FDCWD ? -1
                 : line[0] == 'd'               ? list_dir(dirfd, base)
                                                : read_file(dirfd, base);
        if (rc != 0) {
            fprintf(stderr, "floor: %s/%s: cannot be read\n", line + 2, base);
            failed = 1;
        }
    }
    fclose(list);
    return failed;
}

static int worker(const char* library) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return 2;
    pid_t child = fork();
    if (child < 0) return 2;
    if (child == 0) {
        void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
        if (!handle) _exit(3);
        void* (*get_list)(int*) = (void* (*)(int*))dlsym(handle, "ibv_get_device_list");
        if (!get_list) _exit(4);
        int count = -1;
        (void)get_list(&count);
        _exit(write(pipe_fds[1], &count, sizeof count) == sizeof count ? 0 : 5);
    }
    close(pipe_fds[1]);
    int count = -1;
    ssize_t got = read(pipe_fds[0], &count, sizeof count);
    int status = 0;
    waitpid(child, &status, 0);
    if (got != sizeof count || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "floor: the worker child failed (status %d)\n", status);
        return 1;
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 3 && strcmp(argv[1], "reads") == 0) return reads(argv[2]);
    if (argc == 3 && strcmp(argv[1], "worker") == 0) return worker(argv[2]);
    fprintf(stderr, "usage: floor reads LIST | floor worker LIBRARY\n");
    return 2;
}

// AsUnprivileged: file permission checks as an unprivileged user, also when the tests run as root.
#pragma once

namespace rdmi::test {

/// While alive, file access is checked as uid/gid 65534 (setfsuid/setfsgid), so mode-000
/// files are really unreadable even when the tests run as root. No-op when not root (the
/// kernel enforces the modes anyway). Per thread: the tests are single-threaded.
class AsUnprivileged {
  public:
    AsUnprivileged();
    ~AsUnprivileged();
    AsUnprivileged(const AsUnprivileged&) = delete;
    AsUnprivileged& operator=(const AsUnprivileged&) = delete;

  private:
    bool switched_ = false;
};

}  // namespace rdmi::test

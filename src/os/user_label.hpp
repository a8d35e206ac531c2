// How a message names a file's owner: by name when /etc/passwd knows it, always by uid.
#pragma once

#include <sys/types.h>

#include <string>

namespace rdmi {

/// "nobody (uid 65534)", or "uid 1234" when no user of that id is known.
std::string user_label(uid_t uid);

/// Who may own what a write trusts: "root", or "root or alice (uid 1000)" for a user's run.
std::string trusted_owners_label();

}  // namespace rdmi

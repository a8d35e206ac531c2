// Safe extraction of a bundle archive given to --root: every entry is checked before anything is
// written, and nothing is ever written outside the directory given.
#pragma once

#include <string>

#include "bundle/limits.hpp"
#include "core/deadline.hpp"
#include "core/result.hpp"
#include "os/link_rule.hpp"

namespace rdmi::bundle {

/// Extracts the gzip-compressed tar at `archive_path` into the empty, private directory `into`
/// and returns the root to replay (`into`/rdmi-probe-bundle). Refused (a malformed Gap,
/// "<archive_path>: <why>", one line) when the file is not a gzip-compressed tar, is
/// truncated, has an entry outside rdmi-probe-bundle/, an absolute path, a ".." component, a
/// hard link, a link pointing out of the bundle, a device node, FIFO or socket, or goes past
/// one of `limits`. Stopped (a timeout Gap) when `deadline` passes: the extraction is part of
/// the run that --timeout bounds. What was written before a refusal stays in `into`, which the
/// caller removes. The archive is opened through the links `links` follows (the owner rule
/// when the process reads beyond its user's rights), and only when it is a regular file: a
/// refused link gives an untrusted Gap, a device node is never opened.
Result<std::string> extract_bundle(const std::string& archive_path, const std::string& into,
                                   const Deadline& deadline,
                                   const BundleLimits& limits = kBundleLimits,
                                   const LinkRule& links = LinkRule::for_this_process());

}  // namespace rdmi::bundle

// What the request's files share: the generated message types and how a binary request's
// live matrix is kept as it lies in the file.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "auto_sharding_request.pb.h"
#include "xla_request.hpp"

namespace iopddl::inline v0 {

namespace pb = iopddl::xla;
using Request = pb::AutoShardingSolverRequest;

// The `live` field's entries (field 7, one Nodes message per step) as their encoded
// bytes: a large binary request's live matrix (O(nodes x steps)) is read from the file as
// it lies, never stored as a message (N as a request: 809 MB as a message).
using LiveBytes = std::vector<std::pair<const std::uint8_t*, int>>;

// `r` as a Problem with what it takes to answer it; the live matrix from `live_bytes` when
// not null (a binary request), else from `r`. Throws InputError naming `source` and the field.
XlaRequest convert_request(const Request& r, const LiveBytes* live_bytes, const std::string& source,
                           const RequestOptions& options);

}  // namespace iopddl::inline v0

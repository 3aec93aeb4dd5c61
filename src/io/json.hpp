// The one writer of the JSON documents the tool writes (results, evaluation reports,
// multipliers, a request's answer): nlohmann-json, which escapes every string. Integers are
// 128-bit, since costs and usages are sums of int64 values that pass 2^63 (a forbidden pick
// costs 10^18), and keys stay in the order they were set, as the README documents them.
// (Problem files are written by problem_writer.cpp, streaming: they hold only numbers and
// can be larger than memory would like as a document tree.)
#pragma once

#include <nlohmann/json.hpp>

#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

__extension__ using Json = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string,
                                                bool, Total, unsigned __int128, double>;

// One line of JSON. Bytes that are not UTF-8 (a file name may hold any) are written as
// U+FFFD rather than refused: the document is still written, and still JSON.
inline std::string json_line(const Json& document) {
  return document.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace iopddl::inline v0

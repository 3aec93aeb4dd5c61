#include <simdjson.h>

#include <limits>

#include "iopddl/io.hpp"

namespace iopddl {
namespace {

namespace od = simdjson::ondemand;

std::vector<Strategy> parse_list(od::value v, const std::string& where) {
  std::vector<Strategy> result;
  od::array a;
  if (v.get_array().get(a)) throw InputError(where + ": expected an array of strategies");
  for (auto x : a) {
    std::int64_t s = 0;
    if (x.get_int64().get(s) || s < std::numeric_limits<Strategy>::min() ||
        s > std::numeric_limits<Strategy>::max())
      throw InputError(where + "[" + std::to_string(result.size()) +
                       "]: expected a strategy index (an integer)");
    result.push_back(static_cast<Strategy>(s));
  }
  return result;
}

}  // namespace

std::vector<Strategy> read_solution(const std::string& path) {
  FileBytes bytes = read_file_bytes(path, simdjson::SIMDJSON_PADDING);
  std::string_view text(bytes.data(), bytes.size);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) throw InputError(path + ": empty solution file");
  od::parser parser;
  if (text[first] == '{') {  // our JSON result
    od::document doc;
    od::object obj;
    if (parser.iterate(bytes.data(), bytes.size, bytes.buffer.size()).get(doc) ||
        doc.get_object().get(obj))
      throw InputError(path + ": not a JSON object");
    od::value assignment;
    if (obj.find_field_unordered("assignment").get(assignment))
      throw InputError(path + ": missing key \"assignment\"");
    return parse_list(assignment, path + ": assignment");
  }
  // Contest output: the last line that starts with '['.
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t start = text.rfind('\n', end - 1);
    start = (start == std::string_view::npos) ? 0 : start + 1;
    std::string_view line = text.substr(start, end - start);
    const auto lead = line.find_first_not_of(" \t\r");
    if (lead != std::string_view::npos && line[lead] == '[') {
      simdjson::padded_string padded(line);
      od::document doc;
      od::value v;
      if (parser.iterate(padded).get(doc) || doc.get_value().get(v))
        throw InputError(path + ": last assignment line is not valid JSON");
      return parse_list(v, path + ": last line");
    }
    end = start == 0 ? 0 : start - 1;
  }
  throw InputError(path +
                   ": no line starting with '[' (expected a contest output or a JSON "
                   "result with \"assignment\")");
}

std::string format_assignment(const std::vector<Strategy>& assignment) {
  std::string line = "[";
  for (std::size_t i = 0; i < assignment.size(); ++i) {
    if (i) line += ", ";
    line += std::to_string(assignment[i]);
  }
  line += ']';
  return line;
}

}  // namespace iopddl

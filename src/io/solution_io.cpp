#include <simdjson.h>

#include <limits>

#include "iopddl/io.hpp"
#include "json_scan.hpp"

namespace iopddl {
namespace {

// Solutions are small next to their problems: the DOM parser validates the whole text
// (trailing content included) at once.
std::vector<Strategy> parse_list(simdjson::dom::element v, const std::string& where) {
  std::vector<Strategy> result;
  simdjson::dom::array a;
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
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a byte order mark
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) throw InputError(path + ": empty solution file");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (text[first] == '{') {  // our JSON result
    if (parser.parse(text.data(), text.size()).get(doc)) {
      if (content_after_first_value(text))
        throw InputError(path + ": unexpected content after the JSON object");
      throw InputError(path + ": not a JSON object");
    }
    simdjson::dom::element assignment;
    if (doc["assignment"].get(assignment)) throw InputError(path + ": missing key \"assignment\"");
    return parse_list(assignment, path + ": assignment");
  }
  // Contest output: the last line that is not blank is the answer, as the contest read it.
  const std::size_t end = text.find_last_not_of(" \t\r\n") + 1;
  std::size_t start = text.rfind('\n', end - 1);
  start = (start == std::string_view::npos) ? 0 : start + 1;
  const std::string_view line = text.substr(start, end - start);
  if (line[line.find_first_not_of(" \t\r")] != '[')
    throw InputError(path + ": last line is not an assignment (a contest output ends with " +
                     "[s0, s1, ...]): " + std::string(line.substr(0, 60)));
  if (parser.parse(line.data(), line.size()).get(doc)) {
    if (content_after_first_value(line))
      throw InputError(path + ": last line: unexpected content after the assignment");
    throw InputError(path + ": last line is not a JSON array");
  }
  return parse_list(doc, path + ": last line");
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

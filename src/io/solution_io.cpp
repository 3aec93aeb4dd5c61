#include <simdjson.h>

#include <limits>
#include <optional>

#include "iopddl/io.hpp"
#include "json_scan.hpp"

namespace iopddl::inline v0 {
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

// Our JSON result (solve --output): only its assignment is read. On demand, so that the
// other values are checked for structure but not converted: a recorded cost may exceed
// 64 bits (an early answer with forbidden picks), which the DOM parser refuses.
std::vector<Strategy> read_result(std::string_view text, const std::string& path) {
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  const auto bad = [&] {
    if (content_after_first_value(text))
      return InputError(path + ": unexpected content after the JSON object");
    return InputError(path + ": not a JSON object");
  };
  if (content_after_first_value(text))
    throw InputError(path + ": unexpected content after the JSON object");
  // (read_file_bytes leaves SIMDJSON_PADDING bytes after the text)
  if (parser.iterate(text.data(), text.size(), text.size() + simdjson::SIMDJSON_PADDING).get(doc) ||
      doc.get_object().get(object))
    throw bad();
  std::optional<std::vector<Strategy>> assignment;
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key)) throw bad();
    if (key != "assignment") continue;  // (skipped by the iterator, structure checked)
    if (assignment) throw InputError(path + ": duplicate key \"assignment\"");
    simdjson::ondemand::array a;
    if (field.value().get_array().get(a))
      throw InputError(path + ": assignment: expected an array of strategies");
    std::vector<Strategy> list;
    for (auto x : a) {
      std::int64_t s = 0;
      if (x.get_int64().get(s) || s < std::numeric_limits<Strategy>::min() ||
          s > std::numeric_limits<Strategy>::max())
        throw InputError(path + ": assignment[" + std::to_string(list.size()) +
                         "]: expected a strategy index (an integer)");
      list.push_back(static_cast<Strategy>(s));
    }
    assignment = std::move(list);
  }
  if (!assignment) throw InputError(path + ": missing key \"assignment\"");
  return *assignment;
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
  if (text[first] == '{') return read_result(text, path);
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

}  // namespace iopddl::inline v0

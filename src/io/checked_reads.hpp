// The contest JSON reader's checked reads of single values on simdjson's On-Demand API,
// and its error messages (problem_reader.cpp).
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iopddl/io.hpp"
#include "json_scan.hpp"

namespace iopddl::inline v0::json_reader {

namespace od = simdjson::ondemand;

inline std::string idx(std::size_t i) {
  return "[" + std::to_string(i) + "]";
}

// The reader's checked reads of single values, and its error messages, each naming the
// input and the element: "FILE: where: what".
class CheckedReads {
 public:
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw InputError(source_ + ": " + (where.empty() ? "" : where + ": ") + what);
  }

 protected:
  explicit CheckedReads(std::string source) : source_(std::move(source)) {}

  void check(simdjson::error_code e, const std::string& where, const char* expected) const {
    if (e == simdjson::SUCCESS) return;
    switch (e) {
      case simdjson::INCORRECT_TYPE:
        fail(where, std::string("expected ") + expected);
      case simdjson::NUMBER_OUT_OF_RANGE:
        fail(where, "integer outside the int64 range");
      case simdjson::NUMBER_ERROR:
        fail(where, std::string("malformed number (expected ") + expected + ")");
      case simdjson::EMPTY:
        fail(where, "empty input (not a JSON document)");
      case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      case simdjson::TAPE_ERROR:
        fail(where, unbalanced());
      default:
        fail(where, std::string("invalid JSON (") + simdjson::error_message(e) + ")");
    }
  }

  // Why simdjson found the brackets unbalanced: content after the top-level value, or a
  // document cut short. Only on the error path, so a plain scan.
  std::string unbalanced() const {
    const std::string_view text(bytes_, size_);
    const std::size_t end = end_of_first_value(text);
    if (end != std::string_view::npos) {
      const std::size_t next = text.find_first_not_of(" \t\r\n", end);
      if (next != std::string_view::npos)
        return "unexpected content after the JSON document (at byte " + std::to_string(next) + ")";
    }
    return "the document ends in the middle of an object or array (truncated?)";
  }

  // Says why a value is not an int64: a number with a fraction or exponent, an integer
  // outside the int64 range, or not a number at all.
  [[noreturn]] void integer_error(od::value& v, simdjson::error_code e, const std::string& where) {
    od::json_type type;
    if (v.type().get(type) == simdjson::SUCCESS && type == od::json_type::number) {
      std::string_view token = v.raw_json_token();
      while (!token.empty() && (token.back() == ' ' || token.back() == '\n' ||
                                token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
      const std::string text(token.substr(0, 40));
      std::string_view digits = token;
      if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
      const bool integral =
          !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
      if (integral) fail(where, "integer " + text + " is outside the int64 range");
      if (token.find_first_not_of("-+.eE0123456789") == std::string_view::npos)
        fail(where, "expected an integer, found " + text);
      fail(where, "malformed number " + text + " (expected a decimal integer)");
    }
    check(e, where, "an integer");
    fail(where, "expected an integer");
  }

  std::int64_t integer(od::value v, const std::string& where) {
    std::int64_t x = 0;
    if (auto e = v.get_int64().get(x)) integer_error(v, e, where);
    return x;
  }

  od::array array(od::value v, const std::string& where) {
    od::array a;
    check(v.get_array().get(a), where, "an array");
    return a;
  }

  // Appends the integers of array `row` (element `where`[i]) to `out`. The hot loop of
  // the reader: error paths build their messages only when they fire.
  void int_row(od::value row, const char* where, std::size_t i, std::vector<std::int64_t>& out) {
    od::array a;
    if (auto e = row.get_array().get(a)) check(e, where + idx(i), "an array");
    std::size_t j = 0;
    for (auto x : a) {
      od::value xv;
      if (auto e = x.get(xv)) check(e, where + idx(i), "an integer");
      std::int64_t value = 0;
      if (auto e = xv.get_int64().get(value)) integer_error(xv, e, where + idx(i) + idx(j));
      out.push_back(value);
      ++j;
    }
  }

  std::string source_;
  const char* bytes_ = nullptr;  // the text, for error messages
  std::size_t size_ = 0;
};

}  // namespace iopddl::inline v0::json_reader

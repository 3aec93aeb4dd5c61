// A plain scan of JSON text for error messages only: where the first top-level object or
// array ends (strings and escapes skipped), so that "content after the document" and "the
// document is cut short" can be told apart after a parser has refused the text.
#pragma once

#include <cstddef>
#include <string_view>

namespace iopddl::inline v0 {

// The offset just past the first top-level object or array of `text`, or npos if the text
// ends before it closes.
inline std::size_t end_of_first_value(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && depth > 0 && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// Whether anything but whitespace follows the first top-level value.
inline bool content_after_first_value(std::string_view text) {
  const std::size_t end = end_of_first_value(text);
  return end != std::string_view::npos &&
         text.find_first_not_of(" \t\r\n", end) != std::string_view::npos;
}

}  // namespace iopddl::inline v0

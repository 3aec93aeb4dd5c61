// What an input is, told by its first bytes, for every reader: contest JSON, a text-format
// request, a binary request, or none of these (refused before it is read to the end).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "iopddl/io.hpp"

namespace iopddl::inline v0 {
namespace {

bool blank(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Whether `c` can open a binary protobuf message: a one-byte tag with a field number of at
// least 1 and a wire type that exists (varint 0, 64-bit 1, length-delimited 2, 32-bit 5),
// or the first byte of a longer tag.
bool tag_byte(unsigned char c) {
  if (c >= 0x80) return true;
  const unsigned wire = c & 7u;
  return (c >> 3) >= 1 && (wire == 0 || wire == 1 || wire == 2 || wire == 5);
}

}  // namespace

std::size_t byte_order_mark(const char* data, std::size_t size) {
  return size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

InputKind input_kind(const char* data, std::size_t size, std::size_t window) {
  const std::size_t start = byte_order_mark(data, size);
  const std::size_t end = std::min(size, start + window);
  bool text = true;
  std::size_t first = end;  // the first byte that is not blank
  for (std::size_t i = start; i < end; ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (first == end && !blank(c)) first = i;
    if ((c < 0x20 && !blank(c)) || c == 0x7f) {
      text = false;
      break;
    }
  }
  if (text) {
    if (first == end) return InputKind::kJson;  // empty or blank: the JSON reader says why
    return data[first] == '{' ? InputKind::kJson : InputKind::kText;
  }
  if (start == 0 && size > 0 && tag_byte(static_cast<unsigned char>(data[0])))
    return InputKind::kBinary;
  return InputKind::kNone;
}

std::string not_an_input(const std::string& path, const char* data, std::size_t size) {
  const std::size_t start = byte_order_mark(data, size);
  std::size_t i = start;
  while (i < size && blank(static_cast<unsigned char>(data[i]))) ++i;
  if (i == size) i = start;
  for (std::size_t j = i; j < size; ++j) {
    const auto c = static_cast<unsigned char>(data[j]);
    if ((c < 0x20 && !blank(c)) || c == 0x7f) {
      i = j;
      break;
    }
  }
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", i < size ? static_cast<unsigned char>(data[i]) : 0u);
  return path + ": neither contest JSON nor an AutoShardingSolverRequest (byte " +
         std::to_string(i) + " is " + hex + ")";
}

}  // namespace iopddl::inline v0

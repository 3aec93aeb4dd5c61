// Reading and writing problems and solutions. Errors at this boundary are exceptions
// (InputError) whose message names the file and the offending element.
#pragma once

#include <chrono>
#include <cstdlib>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "iopddl/export.hpp"
#include "iopddl/problem.hpp"

namespace iopddl::inline v0 {

class StopControl;

struct IOPDDL_API InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file that could not be written (result, checkpoint, generated instance); the message
// names the file and the system's reason.
struct IOPDDL_API OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `text` where `path` leads (src/io/write_file.cpp): through symbolic links, which
// stay as they are; to this process's own descriptor for /dev/stdout, /dev/fd/N and
// /proc/self/fd/N; directly to a device, FIFO or socket (giving up at `deadline` when
// nobody reads); otherwise through a temporary file renamed onto the target, so readers
// see the old content or the new. Throws OutputError naming the path and the reason.
IOPDDL_API void write_file(
    const std::string& path, const std::string& text,
    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
// Whether `path` could be written now (a temporary next to its target is created and
// removed): "" if so, else the reason.
IOPDDL_API std::string cannot_write(const std::string& path);
// Whether two paths name the same existing file (after following links).
IOPDDL_API bool same_file(const std::string& a, const std::string& b);

// What an input is, told by its first `window` bytes (after a UTF-8 byte order mark):
// contest JSON (blank, or '{' first), a text-format request (other printable text), a
// binary request (bytes that can open a protobuf message), or none of these (a NUL byte
// first, other control bytes in text).
enum class InputKind { kJson, kText, kBinary, kNone };
IOPDDL_API InputKind input_kind(const char* data, std::size_t size, std::size_t window = 4096);
// 3 if `data` starts with a UTF-8 byte order mark, else 0.
IOPDDL_API std::size_t byte_order_mark(const char* data, std::size_t size);
// The error for an input of kind kNone, naming `path` and the first offending byte.
IOPDDL_API std::string not_an_input(const std::string& path, const char* data, std::size_t size);

// Reading was abandoned because the stop control said stop (the deadline, a signal).
struct IOPDDL_API ReadStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The most bytes an input may hold, decompressed: a file (or gzip stream) that would be
// larger is refused before it is allocated. The largest contest instance is 1.3 GB.
inline constexpr std::size_t kMaxInputBytes = std::size_t{4} << 30;

// The bytes of a file, gunzipped when it starts with the gzip magic bytes (whatever its
// name). `buffer` holds the `size` content bytes followed by zeroed padding (simdjson reads
// past the end of its input).
struct IOPDDL_API FileBytes {
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> buffer;
  std::size_t size = 0;
  const char* data() const { return buffer.get(); }
};
// Throws InputError (unreadable, corrupt, over kMaxInputBytes) or ReadStopped (when `stop`
// says stop: it is polled between reads, also while a pipe delivers nothing).
IOPDDL_API FileBytes read_file_bytes(const std::string& path, std::size_t padding = 64,
                                     const StopControl* stop = nullptr);

// Reads a contest JSON instance, plain or gzip-compressed. Throws InputError, or
// ReadStopped when `stop` says stop while the file is read.
IOPDDL_API Problem read_problem(const std::string& path, const StopControl* stop = nullptr);
// Parses contest JSON held in `bytes` (which must have 64 bytes of padding after `size`).
// `source` names the input in error messages; `stop` is polled once per row.
IOPDDL_API Problem parse_problem(const char* bytes, std::size_t size, const std::string& source,
                                 const StopControl* stop = nullptr);

// Writes `problem` in contest JSON (tables expanded per edge, as the format requires).
IOPDDL_API void write_problem_json(std::ostream& out, const Problem& problem);

// Reads a solution for `problem`: either a contest output (the last line that starts with
// '[') or a JSON result written by `iopddl solve --output` (its "assignment" field).
// Only the shape is checked here (integers that fit a strategy index); the evaluator judges
// the length and ranges. Throws InputError.
IOPDDL_API std::vector<Strategy> read_solution(const std::string& path);

// The contest's final line: "[s0, s1, ...]".
IOPDDL_API std::string format_assignment(const std::vector<Strategy>& assignment);

}  // namespace iopddl::inline v0

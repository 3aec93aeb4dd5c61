// Reading and writing problems and solutions. Errors at this boundary are exceptions
// (InputError) whose message names the file and the offending element.
#pragma once

#include <cstdlib>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "iopddl/problem.hpp"

namespace iopddl {

class StopControl;

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file that could not be written (result, checkpoint, generated instance); the message
// names the file and the system's reason.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path`: a regular file (or a new one) through a temporary file renamed
// into place, so readers see the old content or the new; a device or pipe directly. Throws
// OutputError.
void write_file(const std::string& path, const std::string& text);
// Whether `path` could be written now (a temporary next to it is created and removed):
// "" if so, else the reason.
std::string cannot_write(const std::string& path);

// Reading was abandoned because the stop control said stop (the deadline, a signal).
struct ReadStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The most bytes an input may hold, decompressed: a file (or gzip stream) that would be
// larger is refused before it is allocated. The largest contest instance is 1.3 GB.
inline constexpr std::size_t kMaxInputBytes = std::size_t{4} << 30;

// The bytes of a file, gunzipped when it starts with the gzip magic bytes (whatever its
// name). `buffer` holds the `size` content bytes followed by zeroed padding (simdjson reads
// past the end of its input).
struct FileBytes {
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> buffer;
  std::size_t size = 0;
  const char* data() const { return buffer.get(); }
};
// Throws InputError (unreadable, corrupt, over kMaxInputBytes) or ReadStopped (when `stop`
// says stop: it is polled between reads, also while a pipe delivers nothing).
FileBytes read_file_bytes(const std::string& path, std::size_t padding = 64,
                          const StopControl* stop = nullptr);

// Reads a contest JSON instance, plain or gzip-compressed. Throws InputError, or
// ReadStopped when `stop` says stop while the file is read.
Problem read_problem(const std::string& path, const StopControl* stop = nullptr);
// Parses contest JSON held in `bytes` (which must have 64 bytes of padding after `size`).
// `source` names the input in error messages; `stop` is polled once per row.
Problem parse_problem(const char* bytes, std::size_t size, const std::string& source,
                      const StopControl* stop = nullptr);

// Writes `problem` in contest JSON (tables expanded per edge, as the format requires).
void write_problem_json(std::ostream& out, const Problem& problem);

// Reads a solution for `problem`: either a contest output (the last line that starts with
// '[') or a JSON result written by `iopddl solve --output` (its "assignment" field).
// Only the shape is checked here (integers that fit a strategy index); the evaluator judges
// the length and ranges. Throws InputError.
std::vector<Strategy> read_solution(const std::string& path);

// The contest's final line: "[s0, s1, ...]".
std::string format_assignment(const std::vector<Strategy>& assignment);

}  // namespace iopddl

// libFuzzer target: any bytes as an XLA request (text format when printable, binary
// otherwise) are either converted to a problem whose every node and edge is consistent,
// or refused with InputError. A crash, hang, sanitizer report or another exception is a bug.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "iopddl/evaluate.hpp"
#include "xla_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  iopddl::FileBytes bytes;
  bytes.buffer.reset(static_cast<char*>(std::calloc(size + 64, 1)));
  if (size > 0) std::memcpy(bytes.buffer.get(), data, size);
  bytes.size = size;
  try {
    const iopddl::XlaRequest q = iopddl::read_request("fuzz", bytes);
    // The least-memory assignment is valid for any problem the conversion builds.
    const auto a = iopddl::least_memory_assignment(q.problem);
    if (!iopddl::evaluate(q.problem, a).valid) __builtin_trap();
    if (!q.hint.empty() && !iopddl::evaluate(q.problem, q.hint).valid) __builtin_trap();
  } catch (const iopddl::InputError&) {
  }
  return 0;
}

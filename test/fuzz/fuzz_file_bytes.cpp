// libFuzzer target: any bytes given as a file (gzip or not) are either read, with the
// decompressed size within the input cap and the padding zeroed, or refused with
// InputError. A crash, hang, sanitizer report or another exception is a bug. Most inputs
// are made to start with the gzip magic bytes, so the decoder's paths (libdeflate in one
// call, zlib in steps, the text check, trailers that lie) get the fuzzing.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "iopddl/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  if (!bytes.empty() && bytes[0] % 4 != 0 && bytes.size() >= 2) {  // mostly gzip
    bytes[0] = 0x1f;
    bytes[1] = 0x8b;
  }
  const int fd = memfd_create("fuzz", 0);
  if (fd < 0) return 0;
  if (!bytes.empty() &&
      write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
    close(fd);
    return 0;
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    constexpr std::size_t kPadding = 64;
    const iopddl::FileBytes b = iopddl::read_file_bytes(path, kPadding);
    if (b.size > iopddl::kMaxInputBytes) __builtin_trap();
    for (std::size_t i = 0; i < kPadding; ++i)
      if (b.data()[b.size + i] != 0) __builtin_trap();
  } catch (const iopddl::InputError&) {
  }
  close(fd);
  return 0;
}

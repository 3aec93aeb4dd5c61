#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "iopddl/io.hpp"

namespace iopddl {
namespace {

// Reads the whole file with room for `padding` more bytes (so padding costs no copy).
std::vector<char> read_raw(const std::string& path, std::size_t padding) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(path + ": cannot stat: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a directory");
  std::vector<char> bytes;
  // Regular files: one allocation of the right size; pipes and the like grow as they come.
  std::size_t capacity = S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 1 << 20;
  bytes.reserve(capacity + padding);
  bytes.resize(capacity);
  std::size_t size = 0;
  for (;;) {
    if (size == bytes.size()) {
      bytes.reserve(2 * bytes.size() + padding);
      bytes.resize(2 * bytes.size());
    }
    const ssize_t got = ::read(fd, bytes.data() + size, bytes.size() - size);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(path + ": read error: " + std::strerror(errno));
    }
    if (got == 0) break;
    size += static_cast<std::size_t>(got);
  }
  bytes.resize(size);
  return bytes;
}

bool is_gzip(const std::vector<char>& b) {
  return b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f &&
         static_cast<unsigned char>(b[1]) == 0x8b;
}

// Decompresses every gzip member of `in` with libdeflate (whole-buffer, faster than zlib).
std::vector<char> gunzip(const std::vector<char>& in, const std::string& path,
                         std::size_t padding) {
  std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> d(
      libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
  if (!d) throw InputError(path + ": out of memory for the gzip decompressor");
  std::vector<char> out;
  std::size_t in_pos = 0, out_len = 0;
  while (in_pos < in.size()) {
    const std::size_t remaining = in.size() - in_pos;
    if (remaining < 18 || static_cast<unsigned char>(in[in_pos]) != 0x1f ||
        static_cast<unsigned char>(in[in_pos + 1]) != 0x8b) {
      if (in_pos > 0) break;  // trailing bytes after the last member are ignored, as gzip does
      throw InputError(path + ": corrupt gzip data (truncated header)");
    }
    // The trailer holds the member's size mod 2^32: a hint, grown on demand. Deflate expands
    // at most 1032:1, which bounds the output of a corrupt stream too.
    const std::size_t bound = remaining * 1032 + (1 << 16);
    std::uint32_t isize;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);
    std::size_t guess = std::min<std::size_t>(std::max<std::size_t>(isize, 1 << 16), bound);
    for (;;) {
      out.resize(out_len + guess + padding);
      std::size_t used = 0, produced = 0;
      auto r = libdeflate_gzip_decompress_ex(d.get(), in.data() + in_pos, remaining,
                                             out.data() + out_len, guess, &used, &produced);
      if (r == LIBDEFLATE_SUCCESS) {
        in_pos += used;
        out_len += produced;
        break;
      }
      if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
        if (guess >= bound) throw InputError(path + ": corrupt gzip data (impossible size)");
        guess = std::min(2 * guess, bound);
        continue;
      }
      throw InputError(
          path + ": corrupt gzip data (" +
          (r == LIBDEFLATE_BAD_DATA ? "bad or truncated stream" : "decompression failed") + ")");
    }
  }
  out.resize(out_len + padding);
  std::memset(out.data() + out_len, 0, padding);
  return out;
}

}  // namespace

FileBytes read_file_bytes(const std::string& path, std::size_t padding) {
  FileBytes result;
  std::vector<char> raw = read_raw(path, padding);
  if (is_gzip(raw)) {
    result.buffer = gunzip(raw, path, padding);
    result.size = result.buffer.size() - padding;
  } else {
    result.size = raw.size();
    raw.resize(raw.size() + padding, '\0');  // within the reserved capacity: no copy
    result.buffer = std::move(raw);
  }
  return result;
}

}  // namespace iopddl

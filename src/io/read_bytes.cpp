#include <libdeflate.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "iopddl/io.hpp"

namespace iopddl {
namespace {

std::vector<char> read_raw(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::vector<char> bytes;
  if (std::fseek(f.get(), 0, SEEK_END) == 0) {
    long size = std::ftell(f.get());
    if (size > 0) bytes.reserve(static_cast<std::size_t>(size) + 64);
    std::fseek(f.get(), 0, SEEK_SET);
  }
  char chunk[1 << 16];
  std::size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f.get())) > 0)
    bytes.insert(bytes.end(), chunk, chunk + got);
  if (std::ferror(f.get())) throw InputError(path + ": read error: " + std::strerror(errno));
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
    // The trailer holds the member's size mod 2^32: a hint, grown on demand.
    std::uint32_t isize;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);
    std::size_t guess = std::max<std::size_t>(isize, 1 << 16);
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
        if (guess > (std::size_t{1} << 40)) throw InputError(path + ": gzip data too large");
        guess *= 2;
        continue;
      }
      throw InputError(path + ": corrupt gzip data (" +
                       (r == LIBDEFLATE_BAD_DATA ? "bad or truncated stream"
                                                 : "decompression failed") +
                       ")");
    }
  }
  out.resize(out_len + padding);
  std::memset(out.data() + out_len, 0, padding);
  return out;
}

}  // namespace

FileBytes read_file_bytes(const std::string& path, std::size_t padding) {
  FileBytes result;
  std::vector<char> raw = read_raw(path);
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

// File bytes for the readers: plain or gzipped (by the magic bytes), bounded by
// kMaxInputBytes, and abandoned when the stop control says stop (a pipe that never
// delivers, a file far too large for the time limit).
//
// Memory stays near the decompressed size: buffers come from malloc and are not zeroed, so
// pages never written (a gzip trailer that promises more than the stream holds) are never
// resident; only the padding is written.
#include <fcntl.h>
#include <libdeflate.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "iopddl/io.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {
namespace {

constexpr std::size_t kChunk = std::size_t{16} << 20;  // read and inflate steps between polls

std::string gib(std::size_t bytes) {
  return std::to_string(bytes >> 30) + " GiB";
}

// Grows `b` to hold at least `bytes` (never past kMaxInputBytes + padding).
void reserve(FileBytes& b, std::size_t& capacity, std::size_t bytes, const std::string& path) {
  if (bytes <= capacity) return;
  void* p = std::realloc(b.buffer.release(), bytes);
  if (p == nullptr)
    throw InputError(path + ": out of memory reading " + std::to_string(bytes) + " bytes");
  b.buffer.reset(static_cast<char*>(p));
  capacity = bytes;
}

[[noreturn]] void too_large(const std::string& path, const char* what) {
  throw InputError(path + ": " + what + " more than the input cap of " + gib(kMaxInputBytes) +
                   " (see README)");
}

void check_stop(const StopControl* stop, const std::string& path) {
  if (stop && stop->should_stop()) throw ReadStopped(path + ": stopped while reading");
}

bool is_gzip(const FileBytes& b);

// The first bytes say whether this is an input at all: a file of zeros is refused at once,
// not read to its end. Gzip streams are judged once decompressed (gunzip).
void judge_start(const FileBytes& b, const std::string& path) {
  if (!is_gzip(b) && input_kind(b.data(), b.size) == InputKind::kNone)
    throw InputError(not_an_input(path, b.data(), b.size));
}

// Reads the whole file into `out` (content size in out.size), leaving `padding` bytes of room.
void read_raw(const std::string& path, std::size_t padding, const StopControl* stop,
              FileBytes& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(path + ": cannot stat: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a directory");
  // /dev/zero, /dev/urandom and the like never end: refused before a byte is read (a
  // terminal is read like a pipe).
  if ((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) && !::isatty(fd))
    throw InputError(path + ": is a device, not a problem file");
  const bool regular = S_ISREG(st.st_mode);
  if (regular && static_cast<std::size_t>(st.st_size) > kMaxInputBytes)
    too_large(path, ("is " + std::to_string(st.st_size) + " bytes,").c_str());
  // Regular files: one allocation of the right size; pipes and the like grow as they come.
  std::size_t capacity = 0;
  reserve(out, capacity, (regular ? static_cast<std::size_t>(st.st_size) : 1 << 20) + padding,
          path);
  out.size = 0;
  for (;;) {
    if (out.size + padding >= capacity) {
      if (out.size >= kMaxInputBytes) too_large(path, "holds");
      reserve(out, capacity, std::min(2 * out.size, kMaxInputBytes) + padding, path);
    }
    const std::size_t want = std::min(capacity - padding - out.size, kChunk);
    const ssize_t got = ::read(fd, out.buffer.get() + out.size, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {  // a pipe or FIFO with nothing yet
        check_stop(stop, path);
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, 50);  // wake up now and then to see the deadline
        continue;
      }
      throw InputError(path + ": read error: " + std::strerror(errno));
    }
    if (got == 0) {
      if (!S_ISFIFO(st.st_mode)) break;
      // A FIFO opened without blocking reads 0 bytes before its writer arrives as well as
      // after it left; poll tells them apart (POLLHUP only once a writer has come and gone).
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, 50);
      if (ready > 0 && (p.revents & POLLIN) == 0) break;  // the writer has left: the end
      if (ready == 0) check_stop(stop, path);
      continue;
    }
    const bool judged = out.size >= 2;
    out.size += static_cast<std::size_t>(got);
    if (!judged && out.size >= 2) judge_start(out, path);
    check_stop(stop, path);
  }
  if (out.size == 1) judge_start(out, path);
}

bool is_gzip(const FileBytes& b) {
  return b.size >= 2 && static_cast<unsigned char>(b.data()[0]) == 0x1f &&
         static_cast<unsigned char>(b.data()[1]) == 0x8b;
}

// Inflates one gzip member with zlib, in steps (polling `stop`), into `out` after
// `out_len`; returns the compressed bytes it used. The path for members whose trailer
// cannot be trusted to size the output, and for the first bytes of every file (see gunzip).
std::size_t inflate_member(const char* in, std::size_t in_size, FileBytes& out,
                           std::size_t& capacity, std::size_t& out_len, std::size_t limit,
                           std::size_t padding, const StopControl* stop, const std::string& path) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw InputError(path + ": cannot start gzip decoding");
  struct End {
    z_stream* z;
    ~End() { inflateEnd(z); }
  } end{&z};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
  std::size_t in_left = in_size;
  for (;;) {
    if (out_len + padding >= capacity) {
      if (out_len >= limit) return 0;  // the caller decides whether that is too much
      reserve(out, capacity, std::min(std::max<std::size_t>(2 * out_len, 1 << 20), limit) + padding,
              path);
    }
    const uInt in_step = static_cast<uInt>(std::min<std::size_t>(in_left, kChunk));
    const uInt out_step = static_cast<uInt>(std::min(capacity - padding - out_len, kChunk));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in + (in_size - in_left)));
    z.avail_in = in_step;
    z.next_out = reinterpret_cast<Bytef*>(out.buffer.get() + out_len);
    z.avail_out = out_step;
    const int r = inflate(&z, Z_NO_FLUSH);
    in_left -= in_step - z.avail_in;
    out_len += out_step - z.avail_out;
    if (r == Z_STREAM_END) return in_size - in_left;
    if (r != Z_OK && r != Z_BUF_ERROR)
      throw InputError(path + ": corrupt gzip data (bad or truncated stream)");
    if (r == Z_BUF_ERROR && in_left == 0)
      throw InputError(path + ": corrupt gzip data (bad or truncated stream)");
    check_stop(stop, path);
  }
}

// Decompresses every gzip member of `in`. A member whose trailer gives a plausible size
// (the trailer holds it mod 2^32; deflate expands at most 1032:1) is decoded by libdeflate in
// one call, twice as fast as zlib; the others by zlib in steps, up to kMaxInputBytes.
FileBytes gunzip(const FileBytes& in, const std::string& path, std::size_t padding,
                 const StopControl* stop) {
  // The first 4 KiB say whether this is an input at all: a "gzip bomb" of zeros is refused
  // before anything large is allocated.
  {
    FileBytes probe;
    std::size_t cap = 0, len = 0;
    try {
      inflate_member(in.data(), in.size, probe, cap, len, 4096, padding, stop, path);
    } catch (const InputError&) {
      if (len == 0) throw;  // a stream that breaks later is reported below, in order
    }
    if (input_kind(probe.data(), len) == InputKind::kNone)
      throw InputError(not_an_input(path, probe.data(), len) + " once decompressed");
  }
  std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> d(
      libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
  if (!d) throw InputError(path + ": out of memory for the gzip decompressor");
  FileBytes out;
  std::size_t capacity = 0, in_pos = 0, out_len = 0;
  while (in_pos < in.size) {
    const std::size_t remaining = in.size - in_pos;
    const char* member = in.data() + in_pos;
    if (remaining < 18 || static_cast<unsigned char>(member[0]) != 0x1f ||
        static_cast<unsigned char>(member[1]) != 0x8b) {
      if (in_pos > 0) break;  // trailing bytes after the last member are ignored, as gzip does
      throw InputError(path + ": corrupt gzip data (truncated header)");
    }
    std::uint32_t isize;
    std::memcpy(&isize, in.data() + in.size - 4, 4);  // the last member's trailer
    const bool plausible = isize <= remaining * 1032 && out_len + isize <= kMaxInputBytes;
    if (plausible) {
      reserve(out, capacity, out_len + isize + padding, path);
      std::size_t used = 0, produced = 0;
      const auto r = libdeflate_gzip_decompress_ex(
          d.get(), member, remaining, out.buffer.get() + out_len, isize, &used, &produced);
      if (r == LIBDEFLATE_SUCCESS) {
        in_pos += used;
        out_len += produced;
        check_stop(stop, path);
        continue;
      }
      if (r != LIBDEFLATE_INSUFFICIENT_SPACE)
        throw InputError(path + ": corrupt gzip data (bad or truncated stream)");
      // Not the size it said (several members, or over 4 GiB mod 2^32): decode in steps.
    }
    const std::size_t before = out_len;
    const std::size_t used = inflate_member(member, remaining, out, capacity, out_len,
                                            kMaxInputBytes, padding, stop, path);
    if (used == 0 && out_len >= kMaxInputBytes) too_large(path, "decompresses to");
    if (used == 0 || out_len == before) throw InputError(path + ": corrupt gzip data");
    in_pos += used;
  }
  reserve(out, capacity, out_len + padding, path);
  std::memset(out.buffer.get() + out_len, 0, padding);
  out.size = out_len;
  return out;
}

}  // namespace

FileBytes read_file_bytes(const std::string& path, std::size_t padding, const StopControl* stop) {
  FileBytes raw;
  read_raw(path, padding, stop, raw);
  if (is_gzip(raw)) return gunzip(raw, path, padding, stop);
  std::memset(raw.buffer.get() + raw.size, 0, padding);  // within the reserved capacity
  return raw;
}

}  // namespace iopddl::inline v0

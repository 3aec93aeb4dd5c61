// Writing files where the user points. A path is followed link by link to where it leads:
//   - /dev/stdout, /dev/fd/N, /proc/self/fd/N: written to descriptor N of this process, at
//     its current offset (a redirected stdout is appended to, never truncated or replaced);
//   - a device, FIFO or socket: opened and written directly, non-blocking, so a FIFO nobody
//     reads gives up at the deadline instead of hanging;
//   - a regular file with other hard links: rewritten in place (a rename would unlink it
//     from its other names);
//   - otherwise (a regular file, or none yet): a temporary in the target's own directory,
//     renamed onto the target, so that readers see the old content or the new one. A
//     symbolic link on the way is never replaced: the file it leads to is.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <thread>

#include "iopddl/io.hpp"

namespace iopddl::inline v0 {
namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::optional<std::string> real_directory(const std::string& path) {
  char buf[PATH_MAX];
  if (!::realpath(directory_of(path).c_str(), buf)) return std::nullopt;
  return std::string(buf);
}

// Descriptor N when `path` names one of this process's own descriptors (/proc/self/fd/N,
// /dev/fd/N, /proc/PID/fd/N), whose link text ("pipe:[123]") is no path to follow.
std::optional<int> own_descriptor(const std::string& path) {
  const std::optional<std::string> dir = real_directory(path);
  if (!dir || *dir != "/proc/" + std::to_string(::getpid()) + "/fd") return std::nullopt;
  const std::string name = base_of(path);
  if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::atoi(name.c_str());
}

// Where `path` leads.
struct Target {
  std::string path;               // the last link's target (or `path`): what is written
  std::optional<int> descriptor;  // one of our own descriptors
  bool exists = false;
  struct stat st {};
};

Target resolve(const std::string& path) {
  Target t;
  t.path = path;
  for (int hops = 0; hops < 40; ++hops) {
    if ((t.descriptor = own_descriptor(t.path))) return t;
    if (::lstat(t.path.c_str(), &t.st) != 0) return t;  // none yet (or unreadable: open says)
    if (!S_ISLNK(t.st.st_mode)) {
      t.exists = true;
      return t;
    }
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(t.path.c_str(), buf, sizeof buf - 1);
    if (n < 0) return t;
    const std::string link(buf, static_cast<std::size_t>(n));
    t.path = link.front() == '/' ? link : directory_of(t.path) + "/" + link;
  }
  return t;  // a loop of links: open() reports ELOOP
}

using Deadline = std::optional<std::chrono::steady_clock::time_point>;

int ms_left(const Deadline& deadline) {
  if (!deadline) return -1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      *deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::max<long long>(0, std::min<long long>(left.count(), INT_MAX)));
}

// Writes all of `text` to `fd`, waiting (poll) while it would block, until the deadline.
// Returns 0 or the errno of the failure (ETIMEDOUT past the deadline).
int write_all(int fd, const std::string& text, const Deadline& deadline) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return errno;
    pollfd p{fd, POLLOUT, 0};
    const int ready = ::poll(&p, 1, ms_left(deadline));
    if (ready == 0) return ETIMEDOUT;
    if (ready < 0 && errno != EINTR) return errno;
  }
  return 0;
}

// A device, FIFO or socket, opened without blocking: a FIFO with no reader yet (ENXIO) is
// tried again every 10 ms until the deadline.
int write_special(const std::string& path, const std::string& text, const Deadline& deadline) {
  int fd = -1;
  for (;;) {
    fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0) break;
    if (errno == EINTR) continue;
    if (errno != ENXIO) return errno;
    if (ms_left(deadline) == 0) return ENXIO;  // "No such device or address": no reader
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int err = write_all(fd, text, deadline);
  const int closed = ::close(fd) == 0 ? 0 : errno;
  return err ? err : closed;
}

// Descriptor `fd` of this process, at its offset. Blocking descriptors stay blocking: the
// caller's own stdout is the user's to hold up.
int write_descriptor(int fd, const std::string& text, const Deadline& deadline) {
  return write_all(fd, text, deadline);
}

int write_in_place(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return errno;
  const int err = write_all(fd, text, std::nullopt);
  const int closed = ::close(fd) == 0 ? 0 : errno;
  return err ? err : closed;
}

int write_replacing(const Target& t, const std::string& text) {
  // One temporary per process and thread: the signal thread may write while the main one does.
  const std::string tmp = directory_of(t.path) + "/." + base_of(t.path) + ".tmp." +
                          std::to_string(::getpid()) + "." +
                          std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  const mode_t mode = t.exists ? (t.st.st_mode & 07777) : 0644;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return errno;
  int err = write_all(fd, text, std::nullopt);
  if (err == 0 && t.exists && ::fchmod(fd, mode) != 0) err = errno;  // past the umask
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), t.path.c_str()) != 0) err = errno;
  if (err) ::unlink(tmp.c_str());
  return err;
}

}  // namespace

void write_file(const std::string& path, const std::string& text,
                std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (path.empty()) throw OutputError("empty file name: cannot write");
  const Target t = resolve(path);
  int err = 0;
  if (t.descriptor)
    err = write_descriptor(*t.descriptor, text, deadline);
  else if (t.exists && !S_ISREG(t.st.st_mode))
    err = write_special(t.path, text, deadline);
  else if (t.exists && t.st.st_nlink > 1)
    err = write_in_place(t.path, text);
  else
    err = write_replacing(t, text);
  if (err == ENXIO && t.exists && S_ISFIFO(t.st.st_mode))
    throw OutputError(path + ": cannot write: no reader opened the FIFO before the deadline");
  if (err == ETIMEDOUT)
    throw OutputError(path + ": cannot write: the reader took too long (past the deadline)");
  if (err) throw OutputError(path + ": cannot write: " + std::strerror(err));
}

std::string cannot_write(const std::string& path) {
  if (path.empty()) return "empty file name";
  const Target t = resolve(path);
  if (t.descriptor) return "";
  if (t.exists) {
    if (S_ISDIR(t.st.st_mode)) return "is a directory";
    if (!S_ISREG(t.st.st_mode)) return "";  // a device or pipe: opened when written
  }
  const std::string probe =
      directory_of(t.path) + "/." + base_of(t.path) + ".probe." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace iopddl::inline v0

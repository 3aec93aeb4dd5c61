#include "gnuplot.hpp"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "iopddl/io.hpp"

namespace iopddl::inline v0 {
namespace {

// A private temporary directory, removed with everything in it when this goes.
class ScratchDir {
 public:
  ScratchDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/iopddl-plot-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
      throw OutputError("plot: cannot create a temporary directory in " +
                        pattern.substr(0, pattern.rfind('/')));
    path_ = pattern;
  }
  ~ScratchDir() {
    for (const char* f : {"/plot.gp", "/err.txt"}) ::unlink((path_ + f).c_str());
    ::rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

std::string gnuplot_string(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\n') c = ' ';
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string render_png(const std::string& script) {
  const ScratchDir dir;
  const std::string gp = dir.path() + "/plot.gp", err = dir.path() + "/err.txt";
  {
    std::ofstream f(gp);
    f << script;
    if (!f) throw OutputError("plot: cannot write the gnuplot script to " + gp);
  }
  // (Both paths are ours: no user text reaches the shell.)
  const std::string command = "gnuplot '" + gp + "' 2>'" + err + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw OutputError("plot: cannot start gnuplot");
  std::string png;
  char buffer[1 << 16];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) png.append(buffer, n);
  const int status = ::pclose(pipe);
  if (status != 0 || png.size() < 8 || png.compare(1, 3, "PNG") != 0) {
    std::ifstream e(err);
    std::string line, first;
    while (std::getline(e, line))
      if (!line.empty() && first.empty()) first = line;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
      throw OutputError("plot: gnuplot is not installed (Debian package gnuplot-nox)");
    throw OutputError("plot: gnuplot failed" + (first.empty() ? "" : ": " + first));
  }
  return png;
}

}  // namespace iopddl::inline v0

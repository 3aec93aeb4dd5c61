// The commands that read and write files without a solve: evaluate, info, convert, generate.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

namespace iopddl::inline v0::app {

class FileCommands {
 public:
  FileCommands();
  ~FileCommands();
  void add(CLI::App& app);  // their subcommands and options
  bool chosen() const;      // whether the command line names one of them
  int run() const;          // runs the one named; returns the exit status

 private:
  struct Commands;
  std::unique_ptr<Commands> commands_;
};

}  // namespace iopddl::inline v0::app

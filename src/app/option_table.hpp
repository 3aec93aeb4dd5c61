// The options table: every setting of `iopddl solve` once, with its key, help text, type and
// allowed values. The command line (CLI11), config files and --dump-config all go through
// it, so a key is spelled, checked and printed the same way everywhere, and a config file
// with an unknown key or a wrong type is an error naming the key.
//
// Config files are the subset of TOML that --dump-config writes: `key = value` lines, `#`
// comments, `[section]` headers (a key k under [s] is s.k), values that are integers,
// decimal numbers, true/false or double-quoted strings. Values given on the command line
// win over the file's.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace iopddl::inline v0::app {

// A bad option value or config file; the message names the option (and the file and line).
struct OptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Strict conversions shared by the command line and config files: decimal only (no hex, no
// trailing text), within [lo, hi]. Each throws OptionError naming `key`.
std::int64_t parse_integer(const std::string& key, const std::string& text, std::int64_t lo,
                           std::int64_t hi);
std::uint64_t parse_unsigned(const std::string& key, const std::string& text, std::uint64_t lo,
                             std::uint64_t hi);
// A finite decimal number within [lo, hi] (NaN and infinities are refused).
double parse_number(const std::string& key, const std::string& text, double lo, double hi,
                    const char* what);

class OptionTable {
 public:
  enum class Kind { kFlag, kNumber, kString, kList };
  struct Entry {
    std::string key;    // config key (group.name); the command line spells it --group-name
    std::string help;   // one line, shown by --help
    std::string group;  // option group in --help ("" for the main list)
    Kind kind;
    std::function<void(const std::string&)> set;  // parses, checks, stores; throws OptionError
    std::function<std::string()> show;            // the current value, as TOML
    std::string short_name = "";                  // a one-letter alias on the command line
  };
  static std::string config_value(const Entry& e, const std::string& raw, const std::string& where);

  void flag(std::string key, std::string help, bool& field, std::string group = "");
  void integer(std::string key, std::string help, int& field, int lo, int hi,
               std::string group = "");
  void unsigned_integer(std::string key, std::string help, std::uint64_t& field, std::uint64_t lo,
                        std::uint64_t hi, std::string group = "");
  // `what` says what the value is, for the error message ("a number of seconds").
  void number(std::string key, std::string help, double& field, double lo, double hi,
              const char* what, std::string group = "");
  // A list of numbers: `[a, b]` in a config file, `a,b` on the command line.
  void number_list(std::string key, std::string help, std::vector<double>& field, double lo,
                   double hi, std::string group = "");
  template <class E>
  void choice(std::string key, std::string help, E& field,
              std::vector<std::pair<std::string, E>> names, std::string group = "");

  // Gives `key` a one-letter alias on the command line ("-t").
  void short_name(const std::string& key, std::string name);
  // Adds every entry to `cmd` as --key (in its option group), with its default in --help.
  void bind(CLI::App& cmd);
  // Applies the file's values to every entry not given on the command line. Throws
  // OptionError naming the file, the line and the key.
  void read_config(const std::string& path);
  // Every entry's effective value, as a config file that read_config accepts.
  std::string dump() const;
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  void add(Entry e);
  std::vector<Entry> entries_;
  std::set<std::string> given_;  // keys given on the command line
  std::string sink_;             // where CLI11 also stores an option's text; never read
};

template <class E>
void OptionTable::choice(std::string key, std::string help, E& field,
                         std::vector<std::pair<std::string, E>> names, std::string group) {
  std::string list;
  for (const auto& [name, value] : names) list += (list.empty() ? "" : ", ") + name;
  help += " (" + list + ")";
  const std::string k = key;
  add({std::move(key), std::move(help), std::move(group), Kind::kString,
       [&field, names, list, k](const std::string& text) {
         for (const auto& [name, value] : names)
           if (name == text) {
             field = value;
             return;
           }
         throw OptionError(k + ": \"" + text + "\" is not one of " + list);
       },
       [&field, names] {
         for (const auto& [name, value] : names)
           if (value == field) return "\"" + name + "\"";
         return std::string("\"\"");
       }});
}

}  // namespace iopddl::inline v0::app

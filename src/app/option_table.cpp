#include "option_table.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <type_traits>

namespace iopddl::inline v0::app {
namespace {

// Shortest text that reads back as the same double.
std::string show_double(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";  // TOML: a float looks like one
  return s;
}

bool plain_decimal(const std::string& text, bool allow_sign) {
  std::size_t i = 0;
  if (allow_sign && i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return true;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

namespace {

// A decimal integer of type T within [lo, hi] (a sign only where T has one).
template <class T>
T parse_integral(const std::string& key, const std::string& text, T lo, T hi) {
  const std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (!plain_decimal(text, std::is_signed_v<T>))
    throw OptionError(key + ": expected " + range + ", found \"" + text + "\"");
  T x = 0;
  const char* b = text.data() + (text[0] == '+' ? 1 : 0);
  const auto r = std::from_chars(b, text.data() + text.size(), x);
  if (r.ec != std::errc() || x < lo || x > hi)
    throw OptionError(key + ": " + text + " is outside the range (expected " + range + ")");
  return x;
}

}  // namespace

std::int64_t parse_integer(const std::string& key, const std::string& text, std::int64_t lo,
                           std::int64_t hi) {
  return parse_integral(key, text, lo, hi);
}

std::uint64_t parse_unsigned(const std::string& key, const std::string& text, std::uint64_t lo,
                             std::uint64_t hi) {
  return parse_integral(key, text, lo, hi);
}

double parse_number(const std::string& key, const std::string& text, double lo, double hi,
                    const char* what) {
  double x = 0;
  const char* b = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  const auto r = std::from_chars(b, text.data() + text.size(), x);
  // from_chars also reads "inf" and "nan": refused like any value out of range.
  if (text.empty() || r.ec == std::errc::invalid_argument || r.ptr != text.data() + text.size())
    throw OptionError(key + ": expected " + what + ", found \"" + text + "\"");
  if (r.ec == std::errc() && !std::isfinite(x))  // "nan", "inf"
    throw OptionError(key + ": expected " + what + ", found \"" + text + "\"");
  if (r.ec == std::errc::result_out_of_range || x < lo || x > hi) {
    std::ostringstream range;
    range << what;
    const std::string_view text_what(what);
    const bool said = text_what.find(" from ") != std::string::npos ||
                      text_what.find("at least") != std::string::npos;  // "a share from 0 to 1"
    if (said)
      ;
    else if (hi == std::numeric_limits<double>::max())
      range << ", at least " << lo;
    else
      range << " from " << lo << " to " << hi;
    throw OptionError(key + ": " + text + " is outside the range (expected " + range.str() + ")");
  }
  return x;
}

void OptionTable::add(Entry e) {
  entries_.push_back(std::move(e));
}

void OptionTable::short_name(const std::string& key, std::string name) {
  for (Entry& e : entries_)
    if (e.key == key) e.short_name = std::move(name);
}

void OptionTable::flag(std::string key, std::string help, bool& field, std::string group) {
  const std::string k = key;
  add({std::move(key), std::move(help), std::move(group), Kind::kFlag,
       [&field, k](const std::string& text) {
         if (text == "true")
           field = true;
         else if (text == "false")
           field = false;
         else
           throw OptionError(k + ": expected true or false, found \"" + text + "\"");
       },
       [&field] { return std::string(field ? "true" : "false"); }});
}

void OptionTable::integer(std::string key, std::string help, int& field, int lo, int hi,
                          std::string group) {
  const std::string k = key;
  add({std::move(key), std::move(help), std::move(group), Kind::kNumber,
       [&field, k, lo, hi](const std::string& text) {
         field = static_cast<int>(parse_integer(k, text, lo, hi));
       },
       [&field] { return std::to_string(field); }});
}

void OptionTable::unsigned_integer(std::string key, std::string help, std::uint64_t& field,
                                   std::uint64_t lo, std::uint64_t hi, std::string group) {
  const std::string k = key;
  add({std::move(key), std::move(help), std::move(group), Kind::kNumber,
       [&field, k, lo, hi](const std::string& text) { field = parse_unsigned(k, text, lo, hi); },
       [&field] { return std::to_string(field); }});
}

void OptionTable::number(std::string key, std::string help, double& field, double lo, double hi,
                         const char* what, std::string group) {
  const std::string k = key;
  add({std::move(key), std::move(help), std::move(group), Kind::kNumber,
       [&field, k, lo, hi, what](const std::string& text) {
         field = parse_number(k, text, lo, hi, what);
       },
       [&field] { return show_double(field); }});
}

void OptionTable::number_list(std::string key, std::string help, std::vector<double>& field,
                              double lo, double hi, std::string group) {
  const std::string k = key;
  add({std::move(key), std::move(help), std::move(group), Kind::kList,
       [&field, k, lo, hi](const std::string& text) {
         std::string items = trim(text);
         if (!items.empty() && items.front() == '[' && items.back() == ']')
           items = items.substr(1, items.size() - 2);
         std::vector<double> values;
         std::size_t at = 0;
         while (at <= items.size()) {
           const std::size_t comma = std::min(items.find(',', at), items.size());
           values.push_back(
               parse_number(k, trim(items.substr(at, comma - at)), lo, hi, "a number"));
           at = comma + 1;
         }
         field = std::move(values);
       },
       [&field] {
         std::string out = "[";
         for (std::size_t i = 0; i < field.size(); ++i)
           out += (i ? ", " : "") + show_double(field[i]);
         return out + "]";
       }});
}

// The command line's name of a key: dots become dashes (tree.blocks: --tree-blocks).
std::string cli_name(const std::string& key) {
  std::string name = key;
  std::replace(name.begin(), name.end(), '.', '-');
  return name;
}

void OptionTable::bind(CLI::App& cmd) {
  std::map<std::string, CLI::Option_group*> groups;
  // Callbacks hold indices: entries_ may not move once bound, but indices say so plainly.
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    CLI::App* target = &cmd;
    if (!e.group.empty()) {
      auto& g = groups[e.group];
      if (!g) g = cmd.add_option_group(e.group);
      target = g;
    }
    const std::string name =
        "--" + cli_name(e.key) + (e.short_name.empty() ? "" : "," + e.short_name);
    // Every value goes through the entry's set(), flags' too: --key=false turns off a flag
    // whose default is true, and --key=maybe is refused (a flag given no value has the text
    // "true"). CLI11 also stores the text in the sink, which nothing reads.
    CLI::Option* opt = e.kind == Kind::kFlag ? target->add_flag(name, sink_, e.help)
                                             : target->add_option(name, sink_, e.help);
    opt->each([this, i](const std::string& text) {
      try {
        entries_[i].set(text);
      } catch (const OptionError& err) {
        // CLI11 puts the option's name before a validator's message itself.
        const std::string what = err.what();
        throw CLI::ValidationError(what.substr(entries_[i].key.size() + 2));
      }
      given_.insert(entries_[i].key);
    });
    if (e.kind != Kind::kFlag) {
      std::string shown = e.show();
      if ((e.kind == Kind::kString || e.kind == Kind::kList) && shown.size() >= 2)
        shown = shown.substr(1, shown.size() - 2);
      opt->default_str(shown);
      opt->type_name(e.kind == Kind::kNumber ? "NUMBER" : e.kind == Kind::kList ? "LIST" : "TEXT");
    }
    opt->configurable(false);  // config files go through read_config
  }
}

namespace {

// `line` up to a '#' outside a quoted string.
std::string without_comment(const std::string& line) {
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && quoted)
      ++i;
    else if (line[i] == '"')
      quoted = !quoted;
    else if (line[i] == '#' && !quoted)
      return line.substr(0, i);
  }
  return line;
}

}  // namespace

// The text a config file's `raw` value gives entry `e` (a string unquoted and unescaped),
// checked against the entry's kind; `where` names the file, line and key.
std::string OptionTable::config_value(const Entry& e, const std::string& raw,
                                      const std::string& where) {
  const bool is_string = raw.size() >= 2 && raw.front() == '"' && raw.back() == '"';
  if (e.kind == Kind::kString) {
    if (!is_string) throw OptionError(where + ": expected a quoted string, found " + raw);
    std::string value;
    for (std::size_t i = 1; i + 1 < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 2 < raw.size()) ++i;
      value += raw[i];
    }
    return value;
  }
  if (e.kind == Kind::kList && (raw.size() < 2 || raw.front() != '[' || raw.back() != ']'))
    throw OptionError(where + ": expected a list [a, b, ...], found " + raw);
  if (e.kind != Kind::kList && is_string)
    throw OptionError(where + ": expected " +
                      (e.kind == Kind::kFlag ? "true or false" : "a number") + ", found a string " +
                      raw);
  return raw;
}

void OptionTable::read_config(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw OptionError("--config " + path + ": cannot open: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw OptionError("--config " + path + ": not a regular file");
  constexpr off_t kMaxBytes = 1 << 20;  // far more than every key with a long comment
  if (st.st_size > kMaxBytes)
    throw OptionError("--config " + path + ": larger than 1 MiB, not an options file");
  std::ifstream in(path);
  if (!in) throw OptionError("--config " + path + ": cannot open: " + std::strerror(errno));
  std::map<std::string, const Entry*> by_key;
  for (const Entry& e : entries_) by_key[e.key] = &e;
  std::set<std::string> seen;
  std::string line, section;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    line = trim(without_comment(line));
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']') throw OptionError(where + "expected [section], found " + line);
      section = trim(line.substr(1, line.size() - 2));
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw OptionError(where + "expected key = value, found " + line);
    std::string key = trim(line.substr(0, eq));
    const std::string raw = trim(line.substr(eq + 1));
    if (!section.empty()) key = section + "." + key;
    const auto it = by_key.find(key);
    if (it == by_key.end())
      throw OptionError(where + "unknown key \"" + key + "\" (--dump-config lists the keys)");
    if (!seen.insert(key).second) throw OptionError(where + key + ": given twice");
    const Entry& e = *it->second;
    const std::string value = config_value(e, raw, where + key);
    if (given_.count(key)) continue;  // the command line wins
    try {
      e.set(value);
    } catch (const OptionError& err) {
      throw OptionError(where + err.what());
    }
  }
}

std::string OptionTable::dump() const {
  // Top-level keys first, then one [section] per dotted prefix, in table order.
  std::string top, sections;
  std::string current;
  for (const Entry& e : entries_) {
    const auto dot = e.key.rfind('.');
    if (dot == std::string::npos) {
      top += e.key + "=" + e.show() + "\n";
      continue;
    }
    const std::string section = e.key.substr(0, dot);
    if (section != current) {
      sections += "\n[" + section + "]\n";
      current = section;
    }
    sections += e.key.substr(dot + 1) + "=" + e.show() + "\n";
  }
  return top + sections;
}

}  // namespace iopddl::inline v0::app

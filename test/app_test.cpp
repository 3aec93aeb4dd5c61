// app/: the command line's pieces that are functions of their input: strict option values,
// the options table with config files, the checks across options, and the result document.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "app/option_table.hpp"
#include "app/result_document.hpp"
#include "app/run_state.hpp"
#include "app/solve_options.hpp"
#include "iopddl/evaluate.hpp"
#include "support.hpp"

using namespace iopddl;
using app::OptionError;

namespace {

// The message of the OptionError that `f` throws ("" if it throws none).
template <class F>
std::string refusal(F f) {
  try {
    f();
  } catch (const OptionError& e) {
    return e.what();
  }
  return "";
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("option values are decimal and in range, and a refusal names the option") {
  CHECK(app::parse_integer("threads", "12", 0, 100) == 12);
  CHECK(app::parse_integer("shift", "-3", -5, 5) == -3);
  for (const char* bad : {"0x10", "12abc", " 5", "", "1e3", "101", "+-1"}) {
    CAPTURE(bad);
    CHECK(starts_with(refusal([&] { app::parse_integer("threads", bad, 0, 100); }), "threads: "));
  }
  CHECK(app::parse_unsigned("seed", "18446744073709551615", 0,
                            std::numeric_limits<std::uint64_t>::max()) ==
        std::numeric_limits<std::uint64_t>::max());
  CHECK(starts_with(refusal([] { app::parse_unsigned("seed", "-1", 0, 10); }), "seed: "));
  CHECK(starts_with(refusal([] {
                      app::parse_unsigned("seed", "18446744073709551616", 0,
                                          std::numeric_limits<std::uint64_t>::max());
                    }),
                    "seed: "));
  CHECK(app::parse_number("time-limit", "1.5", 0, 10, "seconds") == 1.5);
  for (const char* bad : {"nan", "inf", "-inf", "1.5s", "11", "-0.5"}) {
    CAPTURE(bad);
    CHECK(starts_with(refusal([&] { app::parse_number("time-limit", bad, 0, 10, "seconds"); }),
                      "time-limit: "));
  }
}

TEST_CASE("a config file sets what the command line did not, and --dump-config reads back") {
  const std::string path = "app_test_config.toml", dumped = "app_test_dumped.toml";
  write_text(path, "# a comment\nseed = 7\ntime-limit = 2.5\n[lns]\nmin-size = 3\n");
  app::RunSettings s;
  app::OptionTable t;
  app::describe_solve_options(t, s);
  t.read_config(path);
  CHECK(s.solver.seed == 7);
  CHECK(s.time_limit == 2.5);
  CHECK(s.solver.lns.min_size == 3);
  // Every value --dump-config writes is read back to the same settings.
  write_text(dumped, t.dump());
  app::RunSettings again;
  app::OptionTable u;
  app::describe_solve_options(u, again);
  u.read_config(dumped);
  CHECK(u.dump() == t.dump());
  CHECK(again.solver.seed == 7);
  CHECK(again.time_limit == 2.5);
  CHECK(again.solver.lns.min_size == 3);
  std::remove(path.c_str());
  std::remove(dumped.c_str());
}

TEST_CASE("a config file's mistakes name the file, the line and the key") {
  const std::string path = "app_test_bad.toml";
  const auto read = [&](const std::string& text) {
    write_text(path, text);
    app::RunSettings s;
    app::OptionTable t;
    app::describe_solve_options(t, s);
    return refusal([&] { t.read_config(path); });
  };
  const std::string unknown = read("seed = 1\nno-such-key = 2\n");
  CHECK(unknown.find(path) != std::string::npos);
  CHECK(unknown.find("2") != std::string::npos);
  CHECK(unknown.find("no-such-key") != std::string::npos);
  CHECK(read("seed = 1\nseed = 2\n").find("seed: given twice") != std::string::npos);
  CHECK(read("seed = \"seven\"\n").find("seed") != std::string::npos);
  CHECK(read("[lns\n").find("expected [section]") != std::string::npos);
  CHECK(read("seed = 1\n") == "");
  std::remove(path.c_str());
  CHECK(refusal([] {
          app::RunSettings s;
          app::OptionTable t;
          app::describe_solve_options(t, s);
          t.read_config("app_test_no_such_file.toml");
        }).find("app_test_no_such_file.toml: cannot open") != std::string::npos);
}

TEST_CASE("settings no single option can check are refused by name") {
  app::RunSettings s;
  CHECK(refusal([&] { app::check_solve_options(s); }) == "");
  s.solver.lns.min_size = s.solver.lns.first_size + 1;
  CHECK(starts_with(refusal([&] { app::check_solve_options(s); }), "lns.min-size"));
  s = app::RunSettings{};
  s.distributed.simulate_ranks = 4;
  CHECK(starts_with(refusal([&] { app::check_solve_options(s); }), "--simulate-ranks"));
  s.solver.deterministic = true;
  CHECK(refusal([&] { app::check_solve_options(s); }) == "");
  s.solver.threads = 2;
  CHECK(starts_with(refusal([&] { app::check_solve_options(s); }), "--simulate-ranks"));
  s = app::RunSettings{};
  s.solver.prices.scales.clear();
  CHECK(starts_with(refusal([&] { app::check_solve_options(s); }), "prices.scales"));
}

TEST_CASE("the result document holds the answer, its exact cost and the run's history") {
  Rng rng(3);
  test::TinySpec spec;
  spec.huge_values = true;  // costs past 2^63: the document's integers are 128-bit
  spec.forbidden_share = 0;
  const Problem p = test::random_problem(rng, spec);
  app::RunSettings settings;
  settings.problem_path = "dir/\"quoted\".json";
  app::Run run(settings, Clock::now(), 0);
  run.problem = &p;
  run.end.status = "feasible";
  const std::vector<Strategy> a = least_memory_assignment(p);
  const Evaluation e = evaluate(p, a);
  REQUIRE(e.valid);
  run.store.offer(a, e.cost, "test");
  const std::string text = app::result_document(run, a, true, std::nullopt);
  const nlohmann::json d = nlohmann::json::parse(text);
  CHECK(d["instance"] == settings.problem_path);  // escaped, read back as given
  CHECK(d["status"] == "feasible");
  CHECK(d["assignment"].get<std::vector<Strategy>>() == a);
  // Every digit, also past 2^64 (a reader with 64-bit integers gets a double), in the
  // README's order of keys.
  CHECK(text.find("\"cost\":" + to_string(e.cost) + ",\"peak_usage\":" + to_string(e.peak_usage) +
                  ",\"feasible\":") != std::string::npos);
  CHECK(d["feasible"] == e.feasible);
  REQUIRE(d["improvements"].size() == 1);
  CHECK(d["improvements"][0]["source"] == "test");
  CHECK(d["lower_bound"].is_null());
  const nlohmann::json none =
      nlohmann::json::parse(app::result_document(run, {}, false, std::nullopt));
  CHECK(none["assignment"].empty());
  CHECK_FALSE(none.contains("cost"));
}

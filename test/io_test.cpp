#include "iopddl/io.hpp"

#include <doctest/doctest.h>
#include <libdeflate.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "iopddl/stop.hpp"
#include "support.hpp"

using namespace iopddl;
using iopddl::test::source_path;

namespace {

Problem parse_text(const std::string& text) {
  std::string padded = text + std::string(64, '\0');
  return parse_problem(padded.data(), text.size(), "<text>");
}

std::string to_json(const Problem& p) {
  std::ostringstream out;
  write_problem_json(out, p);
  return out.str();
}

void check_equal(const Problem& a, const Problem& b) {
  REQUIRE(a.num_nodes() == b.num_nodes());
  REQUIRE(a.num_edges() == b.num_edges());
  CHECK(a.name() == b.name());
  CHECK(a.usage_limit() == b.usage_limit());
  for (NodeId v = 0; v < a.num_nodes(); ++v) {
    CHECK(a.interval_lo(v) == b.interval_lo(v));
    CHECK(a.interval_hi(v) == b.interval_hi(v));
    CHECK(std::ranges::equal(a.costs(v), b.costs(v)));
    CHECK(std::ranges::equal(a.usages(v), b.usages(v)));
  }
  for (EdgeId e = 0; e < a.num_edges(); ++e) {
    CHECK(a.edge_u(e) == b.edge_u(e));
    CHECK(a.edge_v(e) == b.edge_v(e));
    CHECK(std::ranges::equal(a.edge_costs(e), b.edge_costs(e)));
  }
}

}  // namespace

TEST_CASE("the contest example is read with its costs, usages and tables") {
  Problem p = read_problem(source_path("examples/example.json"));
  CHECK(p.name() == "example");
  CHECK(p.num_nodes() == 5);
  CHECK(p.num_edges() == 5);
  CHECK(p.usage_limit() == 50);
  CHECK(p.strategies(2) == 3);
  CHECK(p.costs(2)[1] == 45);
  CHECK(p.usages(1)[0] == 25);
  // Edge 2 joins nodes 1 and 3; its table is row-major in node 1's strategy.
  CHECK(p.edge_u(2) == 1);
  CHECK(p.edge_v(2) == 3);
  CHECK(p.edge_cost(2, 0, 1) == 10);
  CHECK(p.edge_cost(2, 1, 0) == 20);
  // Distinct endpoints: 30 40 50 70 110 120 140 150 -> 7 segments.
  CHECK(p.num_segments() == 7);
  CHECK(p.seg_lo(2) == 2);  // [50, 120) starts at times[2] = 50
  CHECK(p.seg_hi(2) == 5);  // and ends at times[5] = 120
}

TEST_CASE("equal edge tables are stored once and parallel edges stay separate") {
  Problem p = parse_text(R"({"problem":{"nodes":{"intervals":[[0,1],[0,1]],
    "costs":[[1,2],[3,4]],"usages":[[1,1],[1,1]]},
    "edges":{"nodes":[[0,1],[0,1],[1,0]],"costs":[[1,2,3,4],[1,2,3,4],[1,2,3,4]]},
    "usage_limit":5}})");
  CHECK(p.num_edges() == 3);
  CHECK(p.num_tables() == 1);
  CHECK(p.degree(0) == 3);
  CHECK(p.degree(1) == 3);
}

TEST_CASE("keys may come in any order and edges and the limit may be absent") {
  Problem p = parse_text(R"({"problem":{"nodes":{"usages":[[3]],"costs":[[7]],
    "intervals":[[5,2]]},"name":"x"}})");
  CHECK(p.num_nodes() == 1);
  CHECK(p.num_edges() == 0);
  CHECK_FALSE(p.usage_limit().has_value());
  CHECK_FALSE(p.has_memory(0));
  CHECK(p.num_segments() == 0);
}

TEST_CASE("random problems survive a write and read round trip") {
  Rng rng(7);
  for (int round = 0; round < 50; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(8));
    spec.edges = static_cast<int>(rng.below(12));
    spec.huge_values = round % 3 == 0;
    spec.limit_factor = round % 5 == 0 ? 0 : 1.1;
    Problem p = test::random_problem(rng, spec);
    check_equal(p, parse_text(to_json(p)));
  }
}

TEST_CASE("a gzipped file is detected by its magic bytes, not its name") {
  Problem p = read_problem(source_path("examples/example.json"));
  const std::string text = to_json(p);
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::vector<char> gz(libdeflate_gzip_compress_bound(c, text.size()));
  gz.resize(libdeflate_gzip_compress(c, text.data(), text.size(), gz.data(), gz.size()));
  libdeflate_free_compressor(c);
  const std::string path = "gzip_named_plain.json";
  std::ofstream(path, std::ios::binary).write(gz.data(), static_cast<std::streamsize>(gz.size()));
  check_equal(p, read_problem(path));
  std::remove(path.c_str());
}

namespace {

std::vector<char> gzip_bytes(const std::string& text) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::vector<char> gz(libdeflate_gzip_compress_bound(c, text.size()));
  gz.resize(libdeflate_gzip_compress(c, text.data(), text.size(), gz.data(), gz.size()));
  libdeflate_free_compressor(c);
  return gz;
}

void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("gzip members whose trailer does not give their size are decoded in steps") {
  const Problem p = read_problem(source_path("examples/example.json"));
  const std::string text = to_json(p);
  const std::string path = "gzip_steps.json.gz";
  // A trailer that claims too little (as one of a file over 4 GiB does, mod 2^32).
  std::vector<char> gz = gzip_bytes(text);
  const std::uint32_t small = 10;
  std::memcpy(gz.data() + gz.size() - 4, &small, 4);
  write_bytes(path, gz);
  // The size is checked by zlib's own stream end, not the trailer's claim (zlib checks
  // it and refuses): so this one must be refused as corrupt, never misread.
  CHECK_THROWS_WITH_AS(read_problem(path), doctest::Contains("corrupt gzip"), InputError);
  // Two members, the first three times the second: the last trailer gives only the
  // second's size, too small for the first, which is then decoded in steps.
  const std::vector<char> a = gzip_bytes(text.substr(0, text.size() * 3 / 4));
  std::vector<char> both = gzip_bytes(text.substr(text.size() * 3 / 4));
  both.insert(both.begin(), a.begin(), a.end());
  write_bytes(path, both);
  check_equal(p, read_problem(path));
  std::remove(path.c_str());
}

TEST_CASE("a gzip stream that is no input is refused before it is decompressed") {
  const std::string path = "gzip_zeros.json.gz";
  write_bytes(path, gzip_bytes(std::string(std::size_t{64} << 20, '\0')));
  CHECK_THROWS_WITH_AS(read_problem(path), doctest::Contains("(byte 0 is 0x00) once decompressed"),
                       InputError);
  // Cut short: refused, whatever its (now random) trailer claims.
  std::vector<char> gz = gzip_bytes(to_json(read_problem(source_path("examples/example.json"))));
  gz.resize(gz.size() - 6);
  write_bytes(path, gz);
  CHECK_THROWS_WITH_AS(read_problem(path), doctest::Contains("corrupt gzip"), InputError);
  std::remove(path.c_str());
}

TEST_CASE("reading stops when the stop control says stop") {
  StopControl stopped;
  stopped.request_stop();
  // A regular file is read in steps of 16 MiB, the stop is seen after the first.
  CHECK_THROWS_AS(read_problem(source_path("examples/example.json"), &stopped), ReadStopped);
}

TEST_CASE("every file of the bad-input corpus gets a clear error naming the element") {
  const std::pair<const char*, const char*> cases[] = {
      {"truncated.json", "the document ends in the middle of an object or array"},
      {"trailing_value.json", "unexpected content after the JSON document (at byte"},
      {"duplicate_usage_limit.json", "problem.usage_limit: duplicate key"},
      {"hex_number.json", "problem.usage_limit: malformed number 0x10 (expected a decimal"},
      {"not_json.json", "expected a JSON object"},
      {"empty.json", "empty input"},
      {"trailing_garbage.json", "unexpected content after the JSON document"},
      {"corrupt.json.gz", "corrupt gzip data"},
      {"missing_problem.json", "missing key \"problem\""},
      {"missing_usages.json", "problem.nodes: missing key \"usages\""},
      {"wrong_type.json", "nodes.costs: expected an array"},
      {"non_integer.json", "nodes.costs[1][1]: expected an integer, found 65.5"},
      {"out_of_range.json",
       "nodes.costs[1][1]: integer 99999999999999999999 is outside the "
       "int64 range"},
      {"mismatched_usages.json", "nodes.usages[2]: expected 3 entries"},
      {"no_strategies.json", "nodes.costs[3]: a node needs at least one strategy"},
      {"edge_node_missing.json", "edges.nodes[2]: node 7 does not exist (5 nodes)"},
      {"edge_table_size.json", "edges.costs[2]: expected 4 entries (2 x 2), found 3"},
      {"negative_usage.json", "nodes.usages[2][1]: negative usage -20"},
      {"intervals_count.json", "nodes.costs: has 5 entries but nodes.intervals has 4"},
      {"hyperedge.json", "edges.nodes[0]: expected 2 node indices, found 3"},
      {"interval_shape.json", "nodes.intervals[1]: expected 2 entries [lo, hi], found 1"},
      {"edge_count.json", "edges.nodes has 5 entries but edges.costs has 4"},
      {"duplicate_key.json", "problem.nodes: duplicate key"},
      {"request.textproto", "if this is an XLA AutoShardingSolverRequest, solve_request"},
  };
  for (auto [file, expected] : cases) {
    CAPTURE(file);
    const std::string path = source_path(std::string("test/data/bad/") + file);
    std::string message;
    try {
      read_problem(path);
    } catch (const InputError& e) {
      message = e.what();
    }
    CHECK(message.find(path + ": ") == 0);
    CHECK(message.find(expected) != std::string::npos);
  }
}

TEST_CASE("a UTF-8 byte order mark before the document is ignored") {
  std::ifstream in(source_path("examples/example.json"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string path = "bom.json";
  std::ofstream(path, std::ios::binary) << "\xEF\xBB\xBF" << text;
  check_equal(read_problem(source_path("examples/example.json")), read_problem(path));
  std::remove(path.c_str());
}

TEST_CASE("a missing file is an input error naming the file") {
  CHECK_THROWS_WITH_AS(read_problem("no/such/file.json"),
                       doctest::Contains("no/such/file.json: cannot open"), InputError);
}

// Each case writes files of its own names: ctest -j2 runs the cases as processes side by
// side in one directory (a shared "sol.json" was removed by the next case mid-read).
TEST_CASE("solutions are read from contest output and from JSON results") {
  {
    std::ofstream("read_solution.txt") << "# progress\n[1, 2]\n# nope\n[0, 1, 2]\n";
    CHECK(read_solution("read_solution.txt") == std::vector<Strategy>{0, 1, 2});
  }
  {
    std::ofstream("read_solution.json") << R"({"cost": 5, "assignment": [2, 0]})";
    CHECK(read_solution("read_solution.json") == std::vector<Strategy>{2, 0});
  }
  {  // a recorded cost past 64 bits (an early answer with forbidden picks) is legal JSON
    std::ofstream("read_solution.json") << R"({"improvements": [{"cost": 107000000015059840271}],
                                     "assignment": [1, 0], "lower_bound": -340282366920938463463})";
    CHECK(read_solution("read_solution.json") == std::vector<Strategy>{1, 0});
    std::ofstream("read_solution.json") << R"({"cost": 1, "assignment": [1, 0]} [2])";
    CHECK_THROWS_WITH_AS(read_solution("read_solution.json"), doctest::Contains("content after"),
                         InputError);
    std::ofstream("read_solution.json")
        << R"({"cost": 1, "assignment": [1, 0], "assignment": [0, 0]})";
    CHECK_THROWS_WITH_AS(read_solution("read_solution.json"), doctest::Contains("duplicate"),
                         InputError);
    std::ofstream("read_solution.json") << R"({"cost": 1})";
    CHECK_THROWS_WITH_AS(read_solution("read_solution.json"), doctest::Contains("missing key"),
                         InputError);
  }
  {
    std::ofstream("read_solution.txt") << "# nothing here\n";
    CHECK_THROWS_AS(read_solution("read_solution.txt"), InputError);
  }
  {  // blank lines at the end do not count; the last line that does must be the answer
    std::ofstream("read_solution.txt") << "# progress\n[0, 1, 2]\n\n  \n";
    CHECK(read_solution("read_solution.txt") == std::vector<Strategy>{0, 1, 2});
  }
  std::remove("read_solution.txt");
  std::remove("read_solution.json");
}

TEST_CASE("a contest output is judged by its last line only, as the contest did") {
  const std::pair<const char*, const char*> cases[] = {
      {"[0, 1]\n# a progress line after the answer\n", "last line is not an assignment"},
      {"[0, 0, 2, 1, 0] junk\n", "last line: unexpected content after the assignment"},
      {"[0, 1]]\n", "last line: unexpected content after the assignment"},
      {"[0, 1\n", "last line is not a JSON array"},
      {"{\"assignment\": [0]} x", "unexpected content after the JSON object"},
  };
  for (auto [text, expected] : cases) {
    CAPTURE(text);
    std::ofstream("last_line.txt") << text;
    CHECK_THROWS_WITH_AS(read_solution("last_line.txt"), doctest::Contains(expected), InputError);
  }
  std::remove("last_line.txt");
}

TEST_CASE("to_string prints 128-bit totals exactly") {
  CHECK(to_string(Total{0}) == "0");
  CHECK(to_string(Total{-42}) == "-42");
  Total big = Total{1} << 100;
  CHECK(to_string(big) == "1267650600228229401496703205376");
}

TEST_CASE("parse_total reads back what to_string prints, and nothing else") {
  for (Total v : {Total{0}, Total{-42}, Total{1} << 100, -(Total{1} << 120) + 7})
    CHECK(parse_total(to_string(v)) == v);
  for (const char* bad :
       {"", "-", "12a", "+5", " 1", "1.0", "12345678901234567890123456789012345678"})
    CHECK_FALSE(parse_total(bad).has_value());
}

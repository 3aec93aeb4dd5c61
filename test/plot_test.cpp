// plot/: the memory profile behind the pictures, the gnuplot scripts and their rendering.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "plot/gnuplot.hpp"
#include "plot/pictures.hpp"
#include "support.hpp"

using namespace iopddl;

namespace {

// Three nodes over [0, 2), [1, 3) and [2, 4); node 1 the heaviest at the peak.
Problem three_nodes() {
  ProblemBuilder b;
  const std::vector<Cost> costs = {1, 2};
  b.add_node(0, 2, costs, std::vector<Usage>{5, 1});
  b.add_node(1, 3, costs, std::vector<Usage>{7, 9});
  b.add_node(2, 4, costs, std::vector<Usage>{11, 2});
  b.set_usage_limit(30);
  return std::move(b).build();
}

}  // namespace

TEST_CASE(
    "the usage by segment is the summed usage of the nodes live there, and peaks where "
    "the evaluator says") {
  const Problem small = three_nodes();
  CHECK(usage_by_segment(small, std::vector<Strategy>{0, 0, 0}) ==
        std::vector<Total>{5, 12, 18, 11});
  Rng rng(7);
  test::TinySpec spec;
  spec.nodes = 7;
  for (int trial = 0; trial < 200; ++trial) {
    const Problem p = test::random_problem(rng, spec);
    std::vector<Strategy> a(p.num_nodes());
    for (NodeId v = 0; v < p.num_nodes(); ++v)
      a[v] = static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(p.strategies(v))));
    const std::vector<Total> used = usage_by_segment(p, a);
    REQUIRE(used.size() == p.num_segments());
    for (std::size_t i = 0; i < used.size(); ++i) {
      Total live = 0;  // every node whose interval holds the segment's start
      for (NodeId v = 0; v < p.num_nodes(); ++v)
        if (p.interval_lo(v) <= p.times()[i] && p.times()[i] < p.interval_hi(v))
          live += p.usages(v)[a[v]];
      CHECK(used[i] == live);
    }
    const Total peak = used.empty() ? 0 : *std::max_element(used.begin(), used.end());
    CHECK(peak == evaluate(p, a).peak_usage);
  }
}

TEST_CASE("the memory picture lists every segment, marks the peak and names who is live there") {
  const Problem p = three_nodes();
  const std::vector<Strategy> a = {0, 1, 0};  // peak 20 on [2, 3): nodes 1 (9) and 2 (11)
  const MemoryPicture m = memory_picture(p, a, {}, 2, {"in", "say \"hi\"", "out"});
  CHECK(m.profile_csv == "start,end,usage\n0,1,5\n1,2,14\n2,3,20\n3,4,11\n");
  CHECK(m.script.find("peak 20 at time 2") != std::string::npos);
  // The heaviest first, a quote in a name made harmless inside gnuplot's double quotes.
  CHECK(m.script.find("out (11)\\nsay  hi  (9)\"") != std::string::npos);
  CHECK(m.script.find("in (5)") == std::string::npos);  // not live at the peak
  CHECK(m.script.find("title 'limit 30'") != std::string::npos);
  CHECK(m.script.find("multiplot") == std::string::npos);  // no history: one panel
  CostHistory h;
  h.costs = {{0.5, 40}, {1.0, 30}};
  h.bounds = {{0.7, 25}};
  h.end = 2.0;
  const MemoryPicture two = memory_picture(p, a, h, 2);
  CHECK(two.script.find("set multiplot layout 2,1") != std::string::npos);
  CHECK(two.script.find("2 30\n") != std::string::npos);  // the cost goes on to the end
  CHECK(two.script.find("2 25\n") != std::string::npos);  // and so does the bound
}

TEST_CASE("gnuplot strings double their quotes") {
  CHECK(gnuplot_string("plain") == "'plain'");
  CHECK(gnuplot_string("it's") == "'it''s'");
  CHECK(gnuplot_string("''") == "''''''");
}

TEST_CASE("gnuplot renders a picture as a PNG, and a broken script is an error that says why") {
  const Problem p = three_nodes();
  const std::string png =
      render_png(memory_picture(p, std::vector<Strategy>{0, 0, 0}, {}, 1).script);
  REQUIRE(png.size() > 8);
  CHECK(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  try {
    render_png("set terminal png\nplot $nothing using 1:2\n");
    FAIL("a script gnuplot refuses rendered");
  } catch (const OutputError& e) {
    CHECK(std::string(e.what()).find("gnuplot failed") != std::string::npos);
    CHECK(std::string(e.what()).find("no datablock named $nothing") != std::string::npos);
  }
}

// Regions (src/partition/): every node owned once, every cut edge seen from both sides.
#include <doctest/doctest.h>

#include <numeric>

#include "iopddl/generate.hpp"
#include "iopddl/solve.hpp"
#include "lagrange/region.hpp"
#include "lagrange/trws.hpp"
#include "local/compound.hpp"
#include "local/crossover.hpp"
#include "local/memory_index.hpp"
#include "local/state.hpp"
#include "local/tree_block.hpp"
#include "local/window_search.hpp"
#include "local_support.hpp"
#include "partition/regions.hpp"
#include "portfolio/portfolio.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;
using namespace iopddl::test;

TEST_CASE("a region split owns every node once and sees every cut edge from both sides") {
  for (Family family : {Family::kForbiddenPairs, Family::kMemory}) {
    GeneratorOptions g;
    g.family = family;
    g.nodes = 2000;
    Reduced r = Reduced::build(generate_problem(g));
    for (std::size_t count : {1, 2, 3, 7}) {
      Partition part = make_regions(r, count);
      REQUIRE(part.regions.size() == count);
      std::vector<int> owned(r.num_nodes(), 0);
      for (std::size_t i = 0; i < count; ++i)
        for (std::uint32_t g2 : part.regions[i].owned) {
          ++owned[g2];
          CHECK(part.owner[g2] == i);
        }
      CHECK(std::all_of(owned.begin(), owned.end(), [](int c) { return c == 1; }));
      std::size_t cut = 0;
      for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
        const auto a = part.owner[r.edge_u(e)], b = part.owner[r.edge_v(e)];
        if (a == b) continue;
        ++cut;
        for (auto [mine, theirs] : {std::pair{a, r.edge_v(e)}, std::pair{b, r.edge_u(e)}}) {
          const auto& region = part.regions[mine];
          CHECK(std::count(region.cut_edges.begin(), region.cut_edges.end(), e) == 1);
          CHECK(std::binary_search(region.ghosts.begin(), region.ghosts.end(), theirs));
        }
      }
      CHECK(cut == part.cut_edges);
      if (count == 1) CHECK(part.cut_edges == 0);
    }
  }
}

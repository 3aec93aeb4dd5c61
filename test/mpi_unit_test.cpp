// Unit tests of the MPI layer's parts that need no running MPI: checkpoints.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "iopddl/generate.hpp"
#include "iopddl/io.hpp"
#include "mpi/checkpoint.hpp"
#include "support.hpp"

using namespace iopddl;

TEST_CASE("a checkpoint survives a write and read round trip") {
  mpi::Checkpoint c;
  c.fingerprint = 0xDEADBEEFCAFEull;
  c.instance = "name with spaces";
  c.assignment = {3, 0, 2, 7};
  c.cost = "123456789012345678901234567890";
  c.prices = {0.0, 1.5, 1e-300, 3.25e12};
  c.lower_bound = "-170141183460469231731687303715884105";
  c.bound_multipliers = {0.25, 0.0, 7e-9};
  c.seed = 9;
  c.elapsed = 12.5;
  c.rounds = 77;
  mpi::save_checkpoint(c, "ck_roundtrip.txt");
  mpi::Checkpoint d = mpi::load_checkpoint("ck_roundtrip.txt");
  CHECK(d.fingerprint == c.fingerprint);
  CHECK(d.instance == c.instance);
  CHECK(d.assignment == c.assignment);
  CHECK(d.cost == c.cost);
  REQUIRE(d.prices.size() == c.prices.size());
  for (std::size_t i = 0; i < c.prices.size(); ++i)
    CHECK(d.prices[i] == doctest::Approx(c.prices[i]).epsilon(1e-12));
  CHECK(d.lower_bound == c.lower_bound);
  REQUIRE(d.bound_multipliers.size() == 3);
  CHECK(d.bound_multipliers[0] == 0.25);
  CHECK(d.bound_multipliers[2] == doctest::Approx(7e-9).epsilon(1e-12));
  CHECK(d.seed == 9);
  CHECK(d.elapsed == 12.5);
  CHECK(d.rounds == 77);
  std::remove("ck_roundtrip.txt");
}

TEST_CASE("a corrupt or missing checkpoint is an input error naming the file") {
  std::ofstream("ck_bad.txt") << "22 serialization::archive 17 garbage";
  CHECK_THROWS_WITH_AS(mpi::load_checkpoint("ck_bad.txt"), doctest::Contains("ck_bad.txt: corrupt"),
                       InputError);
  CHECK_THROWS_AS(mpi::load_checkpoint("no_such_checkpoint.txt"), InputError);
  std::remove("ck_bad.txt");
}

TEST_CASE("a checkpoint of another layout is refused by name, not read as garbage") {
  // The first layout began with the instance's fingerprint (a 64-bit hash); a later one
  // would begin with a larger format number.
  std::ofstream("ck_first.txt") << "22 serialization::archive 17 1311768467463790320 4 110 97 "
                                   "109 101 0 2 52 53 0 0 0 1 0 0";
  CHECK_THROWS_WITH_AS(mpi::load_checkpoint("ck_first.txt"),
                       doctest::Contains("ck_first.txt: checkpoint written by an earlier iopddl"),
                       InputError);
  std::ofstream("ck_later.txt") << "22 serialization::archive 17 3 0";
  CHECK_THROWS_WITH_AS(mpi::load_checkpoint("ck_later.txt"),
                       doctest::Contains("checkpoint of format 3, not 2"), InputError);
  std::remove("ck_first.txt");
  std::remove("ck_later.txt");
}

TEST_CASE("a checkpoint whose count was edited is refused before anything is allocated") {
  mpi::Checkpoint c;
  c.assignment = {5, 6, 7};
  c.cost = "18";
  mpi::save_checkpoint(c, "ck_count.txt");
  std::ifstream in("ck_count.txt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find(" 3 5 6 7 ");
  REQUIRE(at != std::string::npos);
  text.replace(at, 2, " 4000000000");
  std::ofstream("ck_count.txt") << text;
  CHECK_THROWS_WITH_AS(mpi::load_checkpoint("ck_count.txt"),
                       doctest::Contains("a count of 4000000000 items"), InputError);
  std::remove("ck_count.txt");
}

TEST_CASE("a checkpoint that cannot be written is an output error naming the file") {
  mpi::Checkpoint c;
  CHECK_THROWS_WITH_AS(mpi::save_checkpoint(c, "no/such/dir/ck.txt"),
                       doctest::Contains("no/such/dir/ck.txt: cannot write"), OutputError);
}

TEST_CASE("instance fingerprints tell instances apart") {
  GeneratorOptions o;
  o.nodes = 100;
  Problem a = generate_problem(o);
  Problem same = generate_problem(o);
  o.seed = 2;
  Problem b = generate_problem(o);
  CHECK(mpi::fingerprint(a) == mpi::fingerprint(same));
  CHECK(mpi::fingerprint(a) != mpi::fingerprint(b));
}

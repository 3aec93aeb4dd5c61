// Seeded random numbers. Every worker owns one, seeded from (run seed, rank, worker id).
#pragma once

#include <cstdint>

namespace iopddl::inline v0 {

class Rng {
 public:
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0, std::uint64_t worker = 0) {
    std::uint64_t x = seed ^ (stream * 0x9E3779B97F4A7C15ull) ^ (worker * 0xD1B54A32D192ED03ull);
    for (auto& s : s_) s = splitmix(x);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), n > 0 (multiply-shift; the bias is negligible for our n).
  std::uint64_t below(std::uint64_t n) {
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<Wide>(next()) * n) >> 64);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t s_[4];
};

}  // namespace iopddl::inline v0

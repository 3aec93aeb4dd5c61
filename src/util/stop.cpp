#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {
namespace {

class SteadyTime final : public TimeSource {
 public:
  Clock::time_point now() const override { return Clock::now(); }
};

}  // namespace

const TimeSource& TimeSource::steady() {
  static const SteadyTime time;
  return time;
}

}  // namespace iopddl::inline v0

// The shared library's own translation unit: its content is the whole core archive (linked
// in whole); this file only gives the target a source of its own, as CMake requires.
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"

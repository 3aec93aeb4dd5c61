// What libiopddl.so exports: everything is compiled hidden (src/CMakeLists.txt), and the
// public API in these headers is marked IOPDDL_API. (Names live in the inline namespace
// iopddl::v0, so a program with another `iopddl::Problem`, as XLA's tree has, links
// without a clash.)
#pragma once

#define IOPDDL_API __attribute__((visibility("default")))

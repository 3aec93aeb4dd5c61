// Pictures for users, drawn by gnuplot (a Debian package the tool depends on): a script
// with its data inline goes in, the PNG's bytes come out, and the caller writes them
// where the user pointed (write_file: links, devices and FIFOs as everywhere else).
#pragma once

#include <string>

namespace iopddl::inline v0 {

// Runs gnuplot on `script` (which must set a PNG terminal and leave the output unset:
// stdout) and returns the image. Throws OutputError saying why when gnuplot is missing
// or fails (with its first error line).
std::string render_png(const std::string& script);

// `text` as a gnuplot string literal in single quotes (a quote inside is doubled).
std::string gnuplot_string(const std::string& text);

}  // namespace iopddl::inline v0

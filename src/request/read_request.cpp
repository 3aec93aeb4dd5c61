// Reading a request file, binary or text format, and every input the command line takes.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/wire_format_lite.h>

#include <climits>

#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "request_format.hpp"

namespace iopddl::inline v0 {
namespace {

// Collects the text-format parser's first error with its position.
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (text.empty())
      text = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) + ": " +
             message;
  }
  std::string text;
};

bool printable(const FileBytes& bytes) {
  for (std::size_t i = 0; i < bytes.size; ++i) {
    const auto c = static_cast<unsigned char>(bytes.data()[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
    if (c == 0x7f) return false;
  }
  return true;
}

// Splits a binary request into its live entries and the rest (re-encoded as it was, for
// the message parser). False if the bytes are not a well-formed message.
bool split_live(const char* data, std::size_t size, LiveBytes& live, std::string& rest) {
  namespace io = google::protobuf::io;
  using google::protobuf::internal::WireFormatLite;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
  io::CodedInputStream in(bytes, static_cast<int>(size));
  for (;;) {
    const int start = in.CurrentPosition();
    const std::uint32_t tag = in.ReadTag();
    if (tag == 0) return in.CurrentPosition() == static_cast<int>(size);
    if (tag == WireFormatLite::MakeTag(7, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
      std::uint32_t length = 0;
      if (!in.ReadVarint32(&length)) return false;
      const int at_payload = in.CurrentPosition();
      if (!in.Skip(static_cast<int>(length))) return false;
      live.emplace_back(bytes + at_payload, static_cast<int>(length));
    } else {
      if (!WireFormatLite::SkipField(&in, tag)) return false;
      rest.append(data + start, static_cast<std::size_t>(in.CurrentPosition() - start));
    }
  }
}

}  // namespace

bool is_request(const FileBytes& bytes) {
  return input_kind(bytes.data(), bytes.size) != InputKind::kJson;
}

XlaRequest read_request(const std::string& path, const FileBytes& bytes,
                        const RequestOptions& options) {
  Request r;
  if (printable(bytes)) {
    google::protobuf::TextFormat::Parser parser;
    FirstError error;
    parser.RecordErrorsTo(&error);
    // Parsed in place (a copy of the text would cost its size again).
    const std::size_t bom = byte_order_mark(bytes.data(), bytes.size);
    google::protobuf::io::ArrayInputStream text(bytes.data() + bom,
                                                static_cast<int>(bytes.size - bom));
    if (bytes.size > static_cast<std::size_t>(INT32_MAX) || !parser.Parse(&text, &r))
      throw InputError(path + ": not a text-format AutoShardingSolverRequest (nor contest JSON): " +
                       (error.text.empty() ? "parse error" : error.text));
    return convert_request(r, nullptr, path, options);
  }
  LiveBytes live;
  std::string rest;
  if (bytes.size > static_cast<std::size_t>(INT32_MAX) ||
      !split_live(bytes.data(), bytes.size, live, rest) || !r.ParseFromString(rest))
    throw InputError(path + ": not a binary AutoShardingSolverRequest (nor contest JSON)");
  return convert_request(r, &live, path, options);
}

Problem read_input_file(const std::string& path, const StopControl* stop,
                        std::optional<XlaRequest>* request, const RequestOptions& options) {
  FileBytes bytes = read_file_bytes(path, 64, stop);
  if (!is_request(bytes)) return parse_problem(bytes.data(), bytes.size, path, stop);
  XlaRequest q = read_request(path, bytes, options);
  Problem p = std::move(q.problem);
  if (request != nullptr) *request = std::move(q);
  return p;
}

}  // namespace iopddl::inline v0

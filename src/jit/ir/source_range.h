// SourceRange: a span [start, end) of a shared source text (file name, first line
// number), with line lookup and PyTorch's error highlight (the line, `~~~~ <--- HERE`
// under the span, a few lines of context). Nodes and the frontend's errors carry one;
// copying a range copies a pointer, never the text.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace torchlet::jit {

class Source {
 public:
  explicit Source(std::string text, std::string filename = "", size_t starting_line = 1);
  const std::string& text() const { return text_; }
  const std::string& filename() const { return filename_; }
  size_t starting_line() const { return starting_line_; }
  // 0-based line index of an offset within text, and the offset a line starts at.
  size_t line_index(size_t offset) const;
  size_t line_start(size_t line_index) const { return line_starts_[line_index]; }
  size_t num_lines() const { return line_starts_.size(); }
  std::string_view line_text(size_t line_index) const;  // without its newline

  // Generated text (an archive's code/ files) can say where each of its spans came
  // from in the user's own source (.debug_pkl): spans start at `offset` of this text
  // and run to the next span's offset.
  struct OriginalSpan {
    size_t offset;
    std::shared_ptr<const Source> source;
    size_t start, end;
  };
  void set_original_spans(std::vector<OriginalSpan> spans);  // sorted by offset
  // The original span covering `offset` of this text, if known.
  const OriginalSpan* original_span(size_t offset) const;

 private:
  std::string text_;
  std::string filename_;
  size_t starting_line_;
  std::vector<size_t> line_starts_;
  std::vector<OriginalSpan> original_spans_;
};

class SourceRange {
 public:
  SourceRange() = default;
  SourceRange(std::shared_ptr<const Source> source, size_t start, size_t end)
      : source_(std::move(source)), start_(start), end_(end) {}

  const std::shared_ptr<const Source>& source() const { return source_; }
  size_t start() const { return start_; }
  size_t end() const { return end_; }
  bool empty() const { return source_ == nullptr; }
  std::string_view text() const;
  // (file, 1-based line, 0-based column) of the start, as graphs print them
  // (`# file.py:12:4`); nullopt without a source or a file name.
  std::optional<std::tuple<std::string, size_t, size_t>> file_line_col() const;
  // The highlighted excerpt torch prints in errors: a `  File "f.py", line 6` header
  // when the source has a file name, two lines of context either side, and the
  // range underlined, the marker after its last line:
  //     x = foo(y)
  //         ~~~~~~ <--- HERE
  void highlight(std::ostream& out) const;
  std::string str() const;  // the highlight as a string

 private:
  std::shared_ptr<const Source> source_;
  size_t start_ = 0, end_ = 0;
};

// The calls a node was inlined through (torch's InlinedCallStack), outermost first:
// each names the function called and the call's range in its caller, so a traceback
// from inlined code still shows every frame the user wrote.
struct InlinedCall {
  std::string function;  // qualified name of the function called
  SourceRange call_site;
};
using InlinedCallStack = std::vector<InlinedCall>;

}  // namespace torchlet::jit

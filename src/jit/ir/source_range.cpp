// Source text bookkeeping and PyTorch's highlight format (see source_range.h).
#include "jit/ir/source_range.h"

#include <algorithm>
#include <sstream>

#include "core/python_format.h"

namespace torchlet::jit {

namespace {
// Lines of context printed around a highlighted range, as torch 1.13 does.
constexpr size_t kContextLines = 2;
}  // namespace

Source::Source(std::string text, std::string filename, size_t starting_line)
    : text_(std::move(text)), filename_(std::move(filename)), starting_line_(starting_line) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

size_t Source::line_index(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<size_t>(it - line_starts_.begin()) - 1;
}

std::string_view Source::line_text(size_t i) const {
  size_t b = line_starts_[i];
  size_t e = i + 1 < line_starts_.size() ? line_starts_[i + 1] - 1 : text_.size();
  return std::string_view(text_).substr(b, e - b);
}

void Source::set_original_spans(std::vector<OriginalSpan> spans) {
  std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  original_spans_ = std::move(spans);
}

const Source::OriginalSpan* Source::original_span(size_t offset) const {
  auto it = std::upper_bound(original_spans_.begin(), original_spans_.end(), offset,
                             [](size_t o, const OriginalSpan& s) { return o < s.offset; });
  if (it == original_spans_.begin()) return nullptr;
  --it;
  return it->source ? &*it : nullptr;
}

std::string_view SourceRange::text() const {
  if (!source_) return {};
  return std::string_view(source_->text()).substr(start_, end_ - start_);
}

std::optional<std::tuple<std::string, size_t, size_t>> SourceRange::file_line_col() const {
  if (!source_ || source_->filename().empty()) return std::nullopt;
  size_t line = source_->line_index(start_);
  return std::make_tuple(source_->filename(), line + source_->starting_line(), start_ - source_->line_start(line));
}

void SourceRange::highlight(std::ostream& out) const {
  if (!source_) return;
  const Source& s = *source_;
  size_t first = s.line_index(start_);
  size_t last = s.line_index(end_ > start_ ? end_ - 1 : start_);
  size_t from = first >= kContextLines ? first - kContextLines : 0;
  // A final newline ends the last line; it does not start an empty one.
  size_t lines = s.num_lines();
  if (lines > 1 && s.line_start(lines - 1) == s.text().size()) --lines;
  size_t to = std::min(lines - 1, last + kContextLines);
  if (!s.filename().empty()) out << "  File \"" << s.filename() << "\", line " << first + s.starting_line() << "\n";
  for (size_t i = from; i <= to; ++i) {
    std::string_view line = s.line_text(i);
    out << line << "\n";
    if (i < first || i > last) continue;
    // Underline the part of this line inside the range; the marker goes on the last.
    // Continuation lines are underlined from their first non-blank character.
    size_t b = i == first ? start_ - s.line_start(i) : std::min(line.find_first_not_of(" \t"), line.size());
    size_t e = i == last ? std::max(end_, start_ + 1) - s.line_start(i) : line.size();
    e = std::max(b + 1, std::min(e, std::max(line.size(), b + 1)));
    out << std::string(b, ' ') << std::string(e - b, '~');
    if (i == last) out << " <--- HERE";
    out << "\n";
  }
}

std::string SourceRange::str() const {
  ClassicStringStream os;
  highlight(os);
  return os.str();
}

}  // namespace torchlet::jit

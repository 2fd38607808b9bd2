// .debug_pkl: the record beside each code/ file of an archive that maps stretches of the
// code back to the user's source. The importer decodes it to give errors the user's
// lines; the exporter decodes a kept one again when methods are inserted into its file
// (Module::define) and the records after the insertion must move. Writing one from
// printed code stays in export.cpp.
#pragma once

#include <string>
#include <vector>

#include "jit/ir/source_range.h"

namespace torchlet::jit {

// ("FORMAT_WITH_STRING_TABLE", (strings...),
//  ((offset, ((segment indices), file index, first line), start, end), handle)...)): the
// user's source is the concatenation of the segments. A span whose source is null is
// "no source" (code the user did not write). Throws on anything unexpected; callers
// drop the debug information then, never the archive.
std::vector<Source::OriginalSpan> decode_debug_pkl(const std::string& bytes, const std::string& where);

}  // namespace torchlet::jit

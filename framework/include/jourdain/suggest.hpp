// "Did you mean ...": the candidate closest to a name that was not found, for messages.
#pragma once

#include <string>
#include <vector>

namespace jourdain {

// The candidate nearest to `name` in edit distance (insertions, deletions, substitutions)
// if it is close enough to be a typo: at most a third of the name wrong, and at least two
// edits allowed so that short names ("bfd" -> "bdf") are found. Empty: none is.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace jourdain
